// The serving report: the same structure as the training report (summary, recommendation,
// ranked choices, charts, memory, assumptions), built from ranked serving plans.
#pragma once

#include "clusterplan/sim/scenario.h"
#include "clusterplan/sim/serving_plan.h"
#include "report_document.h"

#include <vector>

namespace cp::report {

Document build_serving_document(const sim::Scenario& scenario,
                                const std::vector<sim::ServingPlan>& ranked, int top_n);

} // namespace cp::report
