// Sentences every serving plan carries: its assumptions, the engine's fitted factors and whether
// published runs cover the engine and accelerator (so CLI, GUI and report agree).
#pragma once

#include "clusterplan/sim/serving_engine.h"
#include "clusterplan/sim/serving_plan.h"

#include <string>

namespace cp::sim {

std::string serving_factors_sentence(ServingEngine engine, const EngineFactors& factors);
std::string serving_validation_note(const ServingPlan& plan, const EngineFactors& factors);
// Appends the assumptions and sets plan.validation.
void add_serving_assumptions(ServingPlan& plan, const EngineFactors& factors);

} // namespace cp::sim
