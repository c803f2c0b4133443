// Scenario + catalog -> plans: what `simulate`, `sweep` and `recommend`, the GUI's Plan and
// Scaling pages and the report run. Each resolves the scenario's hardware and calibration through
// scenario_input.h, then calls the planner; bad input throws before any planning starts.
#pragma once

#include "clusterplan/catalog/catalog.h"
#include "clusterplan/sim/calibration_profile.h"
#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/recommend.h"
#include "clusterplan/sim/search.h"

#include <optional>
#include <vector>

namespace cp::service {

// The node one plan runs on and the calibration it uses (none: datasheet figures).
struct PlanInputs {
    sim::NodeSpec node;
    std::optional<sim::CalibrationProfile> calibration;
    const sim::CalibrationProfile* profile() const { return calibration ? &*calibration : nullptr; }
};

// The instance types a search compares and the calibration it uses, checked to describe at
// least one of them.
struct SearchInputs {
    std::vector<sim::NodeSpec> candidates;
    std::optional<sim::CalibrationProfile> calibration;
    const sim::CalibrationProfile* profile() const { return calibration ? &*calibration : nullptr; }
};

PlanInputs plan_inputs(const sim::Scenario& scenario, catalog::Catalog& catalog);
SearchInputs search_inputs(const sim::Scenario& scenario, catalog::Catalog& catalog);

// `clusterplan simulate`: the scenario's one plan.
sim::PlanReport simulate(const sim::Scenario& scenario, catalog::Catalog& catalog);

// `clusterplan sweep`: every valid layout, instance and node count.
sim::SweepResult sweep(const sim::Scenario& scenario, catalog::Catalog& catalog,
                       const sim::SweepOptions& options = {});

// `clusterplan recommend`: the `top_n` best plans with their reasons and the Pareto front.
sim::RecommendResult recommend(const sim::Scenario& scenario, catalog::Catalog& catalog, int top_n,
                               const sim::SweepOptions& options = {});

} // namespace cp::service
