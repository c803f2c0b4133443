// `serve --json` output (DESIGN.md "Inference serving"): one plan, or a ranked list of them.
#pragma once

#include "clusterplan/sim/serving_plan.h"

#include <nlohmann/json.hpp>
#include <vector>

namespace cp::sim {

nlohmann::ordered_json serving_plan_json(const ServingPlan& plan);
// The short form used in rankings (no curve, no assumptions).
nlohmann::ordered_json serving_choice_json(const ServingPlan& plan, int rank);
// Names of the limits that apply ("kv_bound", "memory_bound", ...), for JSON and text.
std::vector<std::string> serving_limit_names(const ServingLimits& limits);

} // namespace cp::sim
