// Chart specs of single plans: where a training step's time goes and what fills each device's
// memory, one bar per plan. The Plan page shows one plan; the report compares its top plans.
#pragma once

#include "chart_spec.h"
#include "clusterplan/sim/result.h"

#include <QString>
#include <vector>

namespace cp::charts {

struct PlanBars {
    QString label; // category text; rich text ("<br>" breaks the line, text escaped)
    double step_time_s = 0;
    sim::StepBreakdown breakdown_s;
    sim::MemoryGib memory_gib;
};

// Horizontal stacked bars: compute, recompute, TP comm, PP bubble, PP comm, exposed DP comm,
// optimizer, host overhead; in ms, or in s for steps of two seconds and more. Parts that are
// zero for every plan are left out of the legend.
ChartSpec step_breakdown_spec(const std::vector<PlanBars>& plans);

// Stacked bars of weights, gradients, optimizer state, activations and the rest of the stated
// total (framework reserve, in-flight micro-batches), GiB per device, with each plan's device
// capacity as a dashed mark.
ChartSpec memory_spec(const std::vector<PlanBars>& plans);

} // namespace cp::charts
