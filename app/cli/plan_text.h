// Human-readable output of simulate, sweep and recommend (the JSON forms live in sim/plan_json.h).
#pragma once

#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/recommend.h"
#include "clusterplan/sim/search.h"

#include <iosfwd>

namespace cp::cli {

void print_plan(std::ostream& out, const sim::PlanReport& report);
void print_sweep(std::ostream& out, const sim::Scenario& scenario, const sim::SweepResult& sweep,
                 const sim::Ranking& ranking, int top_n);
void print_recommendation(std::ostream& out, const sim::Scenario& scenario,
                          const sim::RecommendResult& result);

} // namespace cp::cli
