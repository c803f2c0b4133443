#include "serving_input.h"

#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/serving_fit.h"
#include "scenario_input.h"

#include <mutex>

namespace cp::cli {

const sim::ServingFactors& fitted_serving_factors(const catalog::Catalog& cat) {
    // The runs name catalog instances of the bundled snapshot; a user's catalog keeps them (imports
    // add prices, never remove types), so one fit serves the whole process.
    static std::once_flag once;
    static sim::ServingFactors factors;
    std::call_once(once, [&] {
        factors =
            sim::fit_serving_factors(sim::published_serving_runs(),
                                     [&](const std::string& type) { return cat.node_spec(type); });
    });
    return factors;
}

std::vector<sim::NodeSpec> serving_candidates(const sim::Scenario& sc,
                                              const catalog::Catalog& cat) {
    if (!sc.instance.empty() || (sc.custom && !sc.custom->accelerator.empty()) ||
        !sc.constraints.instances.empty())
        return resolve_candidates(sc, cat);
    std::vector<sim::NodeSpec> out;
    catalog::InstanceFilter filter;
    filter.region = sc.region;
    for (const auto& in : cat.instances(filter))
        if (auto node = cat.node_spec(in.instance_type, sc.region)) out.push_back(std::move(*node));
    if (sc.custom)
        for (auto& node : out)
            node = sim::apply_custom_hardware(&node, *sc.custom, nullptr, sc.origin);
    return out;
}

sim::ServingRequest serving_request(const sim::Scenario& sc) {
    sim::ServingRequest r;
    r.name = sc.name;
    r.workload = sc.workload;
    r.spec = *sc.serving;
    r.spot = sc.pricing == sim::Pricing::spot;
    return r;
}

} // namespace cp::cli
