// The resolver every front end uses: the checks the GUI once skipped (a region without prices,
// an unknown accelerator) are errors naming the field, calibration names are checked, and the
// service's plans are the planner's own.
#include "clusterplan/catalog/catalog.h"
#include "clusterplan/service/errors.h"
#include "clusterplan/service/planning.h"
#include "clusterplan/service/scenario_input.h"
#include "clusterplan/sim/plan_json.h"
#include "temp_catalog.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <string>

namespace {

using cp::test::TempCatalog;

cp::sim::Scenario bundled(const char* name) {
    return cp::service::load_scenario_file(std::string(CLUSTERPLAN_SOURCE_DIR) +
                                           "/resources/scenarios/" + name);
}

std::string error_field(const std::function<void()>& f) {
    try {
        f();
    } catch (const cp::sim::ScenarioError& e) {
        return e.field();
    }
    return "(no error)";
}

} // namespace

TEST_CASE("A region without prices is an error naming cluster.region", "[service]") {
    TempCatalog catalog;
    cp::sim::Scenario sc = bundled("gpt3-175b-p4d.json");
    sc.region = "xx-nowhere-1";
    CHECK(error_field([&] { cp::service::resolve_node(sc, catalog.get()); }) == "cluster.region");
    CHECK(error_field([&] { cp::service::resolve_candidates(sc, catalog.get()); }) ==
          "cluster.region");
}

TEST_CASE("An unknown instance or accelerator is an error naming its field", "[service]") {
    TempCatalog catalog;
    cp::sim::Scenario sc = bundled("gpt3-175b-p4d.json");
    sc.instance = "p9.mega";
    CHECK(error_field([&] { cp::service::resolve_node(sc, catalog.get()); }) == "cluster.instance");
    sc = bundled("dgx-a100-custom.json");
    REQUIRE(sc.custom);
    sc.custom->accelerator = "Z9000";
    CHECK(error_field([&] { cp::service::resolve_node(sc, catalog.get()); }) ==
          "cluster.custom.accelerator");
}

TEST_CASE("Calibration: datasheet is none, an unknown profile names cluster.calibration",
          "[service]") {
    TempCatalog catalog;
    cp::sim::Scenario sc = bundled("gpt3-175b-p4d.json");
    CHECK_FALSE(cp::service::resolve_calibration(sc, catalog.get()).has_value());
    sc.calibration = "";
    CHECK_FALSE(cp::service::resolve_calibration(sc, catalog.get()).has_value());
    sc.calibration = "no-such-profile";
    CHECK(error_field([&] { cp::service::resolve_calibration(sc, catalog.get()); }) ==
          "cluster.calibration");
}

TEST_CASE("The service's plan is the planner's plan for the resolved node", "[service]") {
    TempCatalog catalog;
    const cp::sim::Scenario sc = bundled("bert-large-p3dn-dp.json");
    const cp::service::PlanInputs in = cp::service::plan_inputs(sc, catalog.get());
    CHECK(in.node.instance_type == sc.instance);
    CHECK(in.profile() == nullptr);
    const auto direct = cp::sim::plan_report_json(cp::sim::simulate_plan(sc, in.node, nullptr));
    CHECK(cp::sim::plan_report_json(cp::service::simulate(sc, catalog.get())) == direct);
}

TEST_CASE("A scenario file that cannot be read is an InputError naming the file", "[service]") {
    const std::string path = "/nonexistent/dir/scenario.json";
    try {
        cp::service::load_scenario_file(path);
        FAIL("no error");
    } catch (const cp::service::InputError& e) {
        CHECK(std::string(e.what()).find(path) == 0);
    }
}
