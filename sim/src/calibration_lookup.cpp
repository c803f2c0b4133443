#include "clusterplan/sim/calibration_lookup.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace cp::sim {

const CollectiveFit* find_collective_fit(const CalibrationProfile& profile, std::string_view collective,
                                         bool inter_node, int ranks) {
    const auto& fits = inter_node ? profile.inter_node : profile.intra_node;
    const CollectiveFit* best = nullptr;
    for (const auto& f : fits) {
        if (f.collective != collective) continue;
        if (!best || (ranks > 0 && std::abs(f.ranks - ranks) < std::abs(best->ranks - ranks))) best = &f;
    }
    return best;
}

double gemm_tflops_at(const CalibrationProfile& profile, std::string_view precision, double flops) {
    for (const auto& [name, curve] : profile.gemm) {
        if (name != precision || curve.empty()) continue;
        std::vector<GemmPoint> pts = curve;
        std::sort(pts.begin(), pts.end(), [](const GemmPoint& a, const GemmPoint& b) { return a.flops < b.flops; });
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

} // namespace cp::sim
