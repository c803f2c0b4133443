#include "clusterplan/service/planning.h"

#include "clusterplan/service/scenario_input.h"

#include <utility>

namespace cp::service {

PlanInputs plan_inputs(const sim::Scenario& scenario, catalog::Catalog& catalog) {
    PlanInputs in{resolve_node(scenario, catalog), std::nullopt};
    in.calibration = resolve_calibration(scenario, catalog);
    return in;
}

SearchInputs search_inputs(const sim::Scenario& scenario, catalog::Catalog& catalog) {
    SearchInputs in{resolve_candidates(scenario, catalog), std::nullopt};
    in.calibration = resolve_calibration(scenario, catalog);
    check_calibration_applies(scenario, in.candidates, in.calibration);
    return in;
}

sim::PlanReport simulate(const sim::Scenario& scenario, catalog::Catalog& catalog) {
    const PlanInputs in = plan_inputs(scenario, catalog);
    return sim::simulate_plan(scenario, in.node, in.profile());
}

sim::SweepResult sweep(const sim::Scenario& scenario, catalog::Catalog& catalog,
                       const sim::SweepOptions& options) {
    SearchInputs in = search_inputs(scenario, catalog);
    return sim::sweep(scenario, std::move(in.candidates), in.profile(), options);
}

sim::RecommendResult recommend(const sim::Scenario& scenario, catalog::Catalog& catalog, int top_n,
                               const sim::SweepOptions& options) {
    SearchInputs in = search_inputs(scenario, catalog);
    return sim::recommend(scenario, std::move(in.candidates), in.profile(), top_n, options);
}

} // namespace cp::service
