// Sentences every serving plan carries: its assumptions, the engine's fitted factors and whether
// published runs cover the engine and accelerator (so CLI, GUI and report agree).
#pragma once

#include "clusterplan/sim/serving_engine.h"
#include "clusterplan/sim/serving_plan.h"

#include <string>

namespace cp::sim {

std::string serving_factors_sentence(ServingEngine engine, const EngineFactors& factors);
std::string serving_validation_note(const ServingPlan& plan, const EngineFactors& factors);
// One sentence when the planner chose quantized weights (8 or 4 bit) because the scenario left
// serving.weights open: a quality trade the user did not ask for, so every front end says so.
// Empty otherwise.
std::string serving_quantization_note(const ServingPlan& plan);
// The plan's utilisation, TTFT and TPOT over its capacity's range at the request rate
// (ServingPlan::load_range), e.g. "utilisation 73%-108%, TTFT 183.9-unbounded ms, ... (the slow
// end is past capacity)". Empty when the plan has no such range.
std::string serving_load_range_text(const ServingPlan& plan);
// Appends the assumptions and sets plan.validation.
void add_serving_assumptions(ServingPlan& plan, const EngineFactors& factors);

} // namespace cp::sim
