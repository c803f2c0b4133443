// The analytical model of one training step (see DESIGN.md "The simulator model").
#pragma once

#include "clusterplan/sim/calibration_profile.h"
#include "clusterplan/sim/hardware.h"
#include "clusterplan/sim/plan.h"
#include "clusterplan/sim/result.h"
#include "clusterplan/sim/workload.h"

namespace cp::sim {

struct Cluster {
    NodeSpec node;
    int nodes = 1;
    int devices() const { return nodes * node.accelerators_per_node; }
};

// Evaluates one plan. Pure function of its inputs, no allocation on the hot path; `calibration`
// may be null (datasheet defaults). Layout validity is checked and reported via PlanResult::limit.
PlanResult evaluate(const Workload& workload, const Cluster& cluster, const Layout& layout,
                    Precision precision, const CalibrationProfile* calibration = nullptr);

// The same with the framework's compute efficiency given instead of taken from the fitted table
// (framework_factors.h): what the factor fit and leave-one-source-out validation evaluate.
PlanResult evaluate_with_efficiency(const Workload& workload, const Cluster& cluster,
                                    const Layout& layout, Precision precision,
                                    const CalibrationProfile* calibration, double efficiency);

} // namespace cp::sim
