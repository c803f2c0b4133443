// Reading a `simulate --json` document back gives the plan it was written from: writing the read
// plan again reproduces the document exactly, for a valid plan, a plan that does not fit, a
// tuning job and an image model (no tokens).
#include "clusterplan/sim/plan_json.h"
#include "clusterplan/sim/plan_json_read.h"
#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/scenario.h"
#include "engine_fixtures.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <string>

using namespace cp::sim;

namespace {

PlanReport plan(const std::string& json) {
    const Scenario sc = parse_scenario(json, "t.json");
    return simulate_plan(sc, cp::test::priced_a100_node("p4d.24xlarge", 32.77, 11.57, 2), nullptr);
}

} // namespace

TEST_CASE("A plan document reads back to the plan it was written from", "[plan_json]") {
    const char* scenarios[] = {
        R"({"name": "fits", "model": {"preset": "llama2-7b"}, "cluster": {"nodes": 2},
            "training": {"tokens": 1e10}})",
        R"({"name": "too big", "model": {"preset": "gpt3-175b"}, "cluster": {"nodes": 1},
            "parallel": {"tp": 8, "pp": 1, "dp": 1}, "training": {"tokens": 1e10}})",
        R"({"name": "tuning", "model": {"preset": "llama2-7b"}, "cluster": {"nodes": 1, "pricing": "spot"},
            "training": {"tokens": 1e9, "trials": 8, "max_parallel_trials": 2}})",
        R"({"name": "images", "model": {"preset": "resnet50"}, "cluster": {"nodes": 1},
            "training": {"epochs": 2, "dataset_samples": 1281167}})",
    };
    for (const char* json : scenarios) {
        INFO(json);
        const PlanReport original = plan(json);
        const auto document = plan_report_json(original);
        const PlanReport read = plan_report_from_json(document);
        CHECK(plan_report_json(read) == document);
        CHECK(read.instance == original.instance);
        CHECK(read.spot == original.spot);
        CHECK(read.hpo.trials == original.hpo.trials);
        CHECK(read.result.limit == original.result.limit);
        if (original.result.valid()) CHECK(read.workload_kind == original.workload_kind);
    }
}

TEST_CASE("A partial plan document keeps the defaults: unknown figures, one trial", "[plan_json]") {
    const nlohmann::ordered_json partial = {{"instance", "p5.48xlarge"},
                                            {"nodes", 4},
                                            {"time_to_train_h", 12.5},
                                            {"cost_usd", 9000.0},
                                            {"cost_spot_usd", nullptr}};
    const PlanReport r = plan_report_from_json(partial);
    CHECK(r.instance == "p5.48xlarge");
    CHECK(r.nodes == 4);
    CHECK_FALSE(r.spot);
    CHECK(std::isnan(r.job.spot.cost_usd));
    CHECK(std::isnan(r.result.mfu));
    CHECK(r.hpo.trials == 1);
    CHECK(r.hpo.wall_time_h == 12.5);
    CHECK(r.hpo.cost_usd == 9000.0);
}
