// A catalog from the bundled snapshot in a temporary directory and the fitted serving factors,
// shared by the serving tests (fitting once per test binary).
#pragma once

#include "clusterplan/catalog/catalog.h"
#include "clusterplan/sim/presets.h"
#include "clusterplan/sim/serving_fit.h"
#include "test_helpers.h"

#include <catch2/catch.hpp>

namespace cp::test {

struct ServingFixture {
    TempDir dir;
    catalog::Catalog catalog{dir.path() / "catalog.sqlite"};
    sim::NodeResolver resolve = [this](const std::string& type) { return catalog.node_spec(type); };
    sim::ServingFactors factors = sim::fit_serving_factors(sim::published_serving_runs(), resolve);

    sim::NodeSpec node(const std::string& type) {
        auto n = catalog.node_spec(type);
        REQUIRE(n);
        return n.value();
    }
};

// A model preset's workload (the preset must exist).
inline sim::Workload preset_workload(const char* id) {
    const sim::ModelPreset* p = sim::find_model_preset(id);
    REQUIRE(p);
    return p->workload;
}

inline ServingFixture& serving_fixture() {
    static ServingFixture fixture;
    return fixture;
}

} // namespace cp::test
