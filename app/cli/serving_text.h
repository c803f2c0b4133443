// Human-readable and JSON output of `serve` (one plan or a ranking); recommend prints serving
// scenarios with the same functions.
#pragma once

#include "clusterplan/sim/serving_plan.h"

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <vector>

namespace cp::cli {

void print_serving_plan(std::ostream& out, const sim::ServingPlan& plan);
// `spot_prices`: the ranking compared spot prices (cluster.pricing spot); the table's price
// columns show them. Each instance type that cannot serve is listed with its reason.
void print_serving_ranking(std::ostream& out, const std::vector<sim::ServingPlan>& ranked, int top,
                           bool spot_prices);
// The best plan's full document with `ranking` (the top choices, short form), `ranked_on`
// (on_demand or spot) and `candidates`.
nlohmann::ordered_json serving_ranking_json(const std::vector<sim::ServingPlan>& ranked, int top,
                                            bool spot_prices);

} // namespace cp::cli
