// Serving inputs resolved through the catalog: the engine factors fitted on the published runs
// (hardware of each run from the catalog, fitted once per process) and the instances a serving
// scenario plans on. Qt-free, shared by `serve`, `recommend` and the GUI.
#pragma once

#include "clusterplan/catalog/catalog.h"
#include "clusterplan/sim/scenario.h"
#include "clusterplan/sim/serving_engine.h"
#include "clusterplan/sim/serving_plan.h"

#include <vector>

namespace cp::cli {

const sim::ServingFactors& fitted_serving_factors(const catalog::Catalog& catalog);

// cluster.instance (with cluster.custom), else constraints.instances, else every catalog
// instance in the region: GPUs, Inferentia and Trainium alike.
std::vector<sim::NodeSpec> serving_candidates(const sim::Scenario& scenario,
                                              const catalog::Catalog& catalog);

sim::ServingRequest serving_request(const sim::Scenario& scenario);

} // namespace cp::cli
