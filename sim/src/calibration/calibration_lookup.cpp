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

// The memory size a GPU name states ("NVIDIA A100-SXM4-80GB", "H100 80GB HBM3", catalog id
// "A100-40GB"): the number before "GB" in a word of its own; 0 when the name does not say.
int memory_gb_in_name(const std::string& name) {
    const std::string u = upper(name);
    for (std::size_t pos = u.find("GB"); pos != std::string::npos; pos = u.find("GB", pos + 1)) {
        std::size_t start = pos;
        while (start > 0 && std::isdigit(static_cast<unsigned char>(u[start - 1])))
            --start;
        const bool word_end =
            pos + 2 == u.size() || !std::isalnum(static_cast<unsigned char>(u[pos + 2]));
        const bool word_start =
            start == 0 || !std::isalnum(static_cast<unsigned char>(u[start - 1]));
        if (start < pos && pos - start <= 4 && word_end && word_start)
            return std::stoi(u.substr(start, pos - start));
    }
    return 0;
}

// GPUs the profile saw inside one host: its intra-node fits' rank count, else what it states.
int measured_gpus_per_node(const CalibrationProfile& p) {
    int n = p.gpus_per_node;
    for (const auto& f : p.intra_node)
        n = std::max(n, f.ranks);
    return n;
}

} // namespace

std::string calibration_mismatch(const CalibrationProfile& profile, const NodeSpec& node) {
    // A known instance type decides: p4de (A100 80GB, 2,039 GB/s HBM) is not p4d (40GB, 1,555
    // GB/s), p5.48xlarge (8 GPUs, 3,200 Gbps EFA) is not p5.4xlarge (1 GPU, 100 Gbps).
    if (!profile.instance_type.empty() && !node.instance_type.empty() &&
        node.instance_type != "custom")
        return profile.instance_type == node.instance_type
                   ? ""
                   : "it was measured on " + profile.instance_type + ", not " + node.instance_type;
    const int per_node = measured_gpus_per_node(profile);
    if (per_node > 1 && node.accelerators_per_node > 0 && per_node > node.accelerators_per_node)
        return "it was measured with " + std::to_string(per_node) + " GPUs in one host and " +
               node.instance_type + " has " + std::to_string(node.accelerators_per_node);
    if (!profile.accelerator.empty() && !node.accelerator.id.empty()) {
        // The family is the catalog id before its memory suffix: "A100-80GB" -> "A100".
        const std::string id = upper(node.accelerator.id);
        if (!has_word(upper(profile.accelerator), id.substr(0, id.find('-'))))
            return "it was measured on " + profile.accelerator + ", not " + node.accelerator.id;
        const int measured_gb = memory_gb_in_name(profile.accelerator),
                  node_gb = memory_gb_in_name(node.accelerator.id);
        if (measured_gb > 0 && node_gb > 0 && measured_gb != node_gb)
            return "it was measured on " + profile.accelerator + " (" +
                   std::to_string(measured_gb) + " GB), not the " + std::to_string(node_gb) +
                   " GB " + node.accelerator.id;
        return "";
    }
    return profile.instance_type.empty() ? "" : "it was measured on " + profile.instance_type;
}

bool calibration_matches(const CalibrationProfile& profile, const NodeSpec& node) {
    return calibration_mismatch(profile, node).empty();
}

bool inter_node_calibration_applies(const CalibrationProfile& profile, const NodeSpec& node) {
    // A run whose NCCL fell back to TCP sockets says nothing about an EFA network.
    return !(profile.inter_node_transport == "socket" && node.efa.value_or(false));
}

const CalibrationProfile* calibration_for(const CalibrationProfile* profile, const NodeSpec& node) {
    return profile && calibration_matches(*profile, node) ? profile : nullptr;
}

} // namespace cp::sim
