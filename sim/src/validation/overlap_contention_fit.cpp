// Fits the compute slowdown beside a collective on Hopper (overlap_contention.h) over validation
// runs.
#include "clusterplan/sim/validation_runs.h"
#include "validation/grid_search.h"

namespace cp::sim {

std::vector<ValidationRun> with_overlap_slowdown(std::vector<ValidationRun> runs, double slowdown) {
    for (auto& run : runs)
        run.cluster.node.accelerator.overlap_contention.hopper_slowdown = slowdown;
    return runs;
}

double fit_hopper_overlap_slowdown(const std::vector<ValidationRun>& runs) {
    // Steps of 0.05 over the published bracket: the slowdown moves only the steps whose
    // collectives overlap compute, the factors every kernel.
    return grid_argmin(OverlapContention::kMinHopperSlowdown, OverlapContention::kMaxHopperSlowdown,
                       0.05,
                       [&](double s) { return fitted_mean_error(with_overlap_slowdown(runs, s)); });
}

} // namespace cp::sim
