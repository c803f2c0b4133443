// The typed reading of a `simulate --json` document (plan_json.h writes it): what a recommendation
// report reads its ranked plans back as, so that it presents PlanReport fields rather than JSON
// paths. Missing or null fields keep the PlanReport defaults (unknown figures NaN); a document
// without a `tuning` block is one trial.
#pragma once

#include "clusterplan/sim/planner.h"

#include <nlohmann/json.hpp>

namespace cp::sim {

PlanReport plan_report_from_json(const nlohmann::ordered_json& document);

} // namespace cp::sim
