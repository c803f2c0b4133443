#include "clusterplan/sim/calibration_lookup.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <string>

namespace cp::sim {

const CollectiveFit* find_collective_fit(const CalibrationProfile& profile,
                                         std::string_view collective, bool inter_node, int ranks) {
    const auto& fits = inter_node ? profile.inter_node : profile.intra_node;
    const CollectiveFit* best = nullptr;
    for (const auto& f : fits) {
        if (f.collective != collective) continue;
        if (!best || (ranks > 0 && std::abs(f.ranks - ranks) < std::abs(best->ranks - ranks)))
            best = &f;
    }
    return best;
}

double gemm_tflops_at(const CalibrationProfile& profile, std::string_view precision, double flops) {
    for (const auto& [name, curve] : profile.gemm) {
        if (name != precision || curve.empty()) continue;
        std::vector<GemmPoint> pts = curve;
        std::sort(pts.begin(), pts.end(),
                  [](const GemmPoint& a, const GemmPoint& b) { return a.flops < b.flops; });
        if (flops <= pts.front().flops) return pts.front().tflops;
        if (flops >= pts.back().flops) return pts.back().tflops;
        auto hi = std::lower_bound(pts.begin(), pts.end(), flops,
                                   [](const GemmPoint& p, double f) { return p.flops < f; });
        auto lo = hi - 1;
        const double f = std::log(flops / lo->flops) / std::log(hi->flops / lo->flops);
        return lo->tflops + f * (hi->tflops - lo->tflops);
    }
    return std::nan("");
}

namespace {

std::string upper(std::string_view s) {
    std::string out(s);
    for (char& c : out)
        c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    return out;
}

// Whether `word` occurs in `text` delimited by non-alphanumerics (so "A10" is not in "A100").
bool has_word(const std::string& text, const std::string& word) {
    auto alnum = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; };
    for (std::size_t pos = text.find(word); pos != std::string::npos;
         pos = text.find(word, pos + 1)) {
        const std::size_t end = pos + word.size();
        if ((pos == 0 || !alnum(text[pos - 1])) && (end == text.size() || !alnum(text[end])))
            return true;
    }
    return false;
}

} // namespace

bool calibration_matches(const CalibrationProfile& profile, const NodeSpec& node) {
    if (!profile.instance_type.empty() && profile.instance_type == node.instance_type) return true;
    if (!profile.accelerator.empty() && !node.accelerator.id.empty()) {
        // The family is the catalog id before its memory suffix: "A100-80GB" -> "A100".
        const std::string id = upper(node.accelerator.id);
        return has_word(upper(profile.accelerator), id.substr(0, id.find('-')));
    }
    return profile.instance_type.empty();
}

const CalibrationProfile* calibration_for(const CalibrationProfile* profile, const NodeSpec& node) {
    return profile && calibration_matches(*profile, node) ? profile : nullptr;
}

} // namespace cp::sim
