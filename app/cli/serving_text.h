// Human-readable and JSON output of `serve` (one plan or a ranking); recommend prints serving
// scenarios with the same functions.
#pragma once

#include "clusterplan/sim/serving_plan.h"

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <vector>

namespace cp::cli {

void print_serving_plan(std::ostream& out, const sim::ServingPlan& plan);
void print_serving_ranking(std::ostream& out, const std::vector<sim::ServingPlan>& ranked, int top);
// The best plan's full document with `ranking` (the top choices, short form) and `candidates`.
nlohmann::ordered_json serving_ranking_json(const std::vector<sim::ServingPlan>& ranked, int top);

} // namespace cp::cli
