// What the prediction intervals say about a recommendation: which plans no measured run
// supports, and whether the best plan stands apart from the others or the ranking is within the
// model's noise.
#pragma once

#include "clusterplan/sim/recommend.h"

namespace cp::sim {

void add_interval_notes(const Scenario& scenario, RecommendResult& result);

} // namespace cp::sim
