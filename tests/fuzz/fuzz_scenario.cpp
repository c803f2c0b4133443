// Fuzz target: the scenario file parser (clusterplan.scenario/1). Bad input may only raise
// ScenarioError; an accepted scenario must survive a serialise -> parse round trip.
#include "clusterplan/sim/scenario.h"
#include "fuzz_common.h"

#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string text(cp::fuzz::as_text(data, size));
    cp::fuzz::expect_only<cp::sim::ScenarioError>([&] {
        const cp::sim::Scenario scenario = cp::sim::parse_scenario(text, "fuzz.json");
        const std::string json = cp::sim::scenario_to_json(scenario);
        try {
            (void)cp::sim::parse_scenario(json, "round-trip.json");
        } catch (const cp::sim::ScenarioError& e) {
            cp::fuzz::finding("accepted scenario does not round-trip", e.what());
        }
    });
    return 0;
}
