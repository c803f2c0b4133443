// What a plan says about the training software it assumed (framework.h): which framework and
// why, the mechanisms it switches, and the fitted efficiency with the runs it came from.
#pragma once

#include "clusterplan/sim/plan.h"
#include "clusterplan/sim/scenario.h"

#include <string>
#include <vector>

namespace cp::sim {

std::vector<std::string> framework_assumptions(const Scenario& scenario,
                                               const AcceleratorSpec& accelerator,
                                               const Layout& layout);

} // namespace cp::sim
