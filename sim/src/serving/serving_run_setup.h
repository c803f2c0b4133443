#pragma once

// How a published serving run is set up for the model: shared by the fit over the published runs
// and the prediction of each run.

#include "clusterplan/sim/serving_runs.h"
#include "serving/serving_model.h"

namespace cp::sim {

// Model copies a forward-pass run keeps busy at once: one per NeuronCore the run loads.
double copies_running(const ServingRun& run, const ServingSetup& st);
// The replica the run measured, with what the run states about its build.
ServingSetup run_setup(const ServingRun& run, const NodeSpec& node);
// The engine's policy as the run configured it.
EnginePolicy run_policy(const ServingRun& run, const NodeSpec& node);

} // namespace cp::sim
