// Fits the compute slowdown beside a collective on Hopper (overlap_contention.h) over validation
// runs.
#include "clusterplan/sim/validation_runs.h"

#include <cmath>
#include <limits>

namespace cp::sim {

std::vector<ValidationRun> with_overlap_slowdown(std::vector<ValidationRun> runs, double slowdown) {
    for (auto& run : runs)
        run.cluster.node.accelerator.overlap_contention.hopper_slowdown = slowdown;
    return runs;
}

double fit_hopper_overlap_slowdown(const std::vector<ValidationRun>& runs) {
    // A grid over the published bracket in steps of 0.05, each point with the framework factors
    // refitted at it: the slowdown moves only the steps whose collectives overlap compute, the
    // factors every kernel.
    constexpr double kStep = 0.05;
    const double lo = OverlapContention::kMinHopperSlowdown,
                 hi = OverlapContention::kMaxHopperSlowdown;
    double best = hi, best_error = std::numeric_limits<double>::infinity();
    const int steps = static_cast<int>(std::floor((hi - lo) / kStep + 1e-9));
    for (int i = 0; i <= steps + 1; ++i) {
        const double s = i <= steps ? lo + kStep * i : hi;
        const double e = fitted_mean_error(with_overlap_slowdown(runs, s));
        if (e < best_error) {
            best_error = e;
            best = s;
        }
    }
    return best;
}

} // namespace cp::sim
