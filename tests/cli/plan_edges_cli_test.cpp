// Edge cases of simulate / sweep found by scripting against the CLI (audit of issues 2-4): the
// DESIGN.md example scenario verbatim, unpriced custom hardware in sweep, free checkpoints, and
// field-level errors, and memory refusals that say what does not fit and what would. Runs
// in-process against a fresh CLUSTERPLAN_DATA_DIR.
#include "cli_sandbox.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <nlohmann/json.hpp>

namespace fs = std::filesystem;
using cp::test::run_cli;
using cp::test::Sandbox;
using nlohmann::json;

namespace {

// The scenario block of DESIGN.md, verbatim (the contract's own example).
fs::path design_example() {
    return fs::path(CLUSTERPLAN_TEST_DATA_DIR) / "scenarios" / "design_md_example.json";
}

} // namespace

TEST_CASE("the DESIGN.md example: spot never costs more than the scenario's on-demand price",
          "[cli][cost]") {
    Sandbox box;
    const fs::path path = design_example();
    const auto r = run_cli({"simulate", path.string(), "--json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    // custom.usd_per_node_hour = 0 overrides p4d's price: the spot price is capped by it.
    CHECK(j["prices"]["usd_per_node_hour"] == 0.0);
    CHECK(j["prices"]["usd_per_node_hour_spot"] == 0.0);
    CHECK(j["cost_spot_usd"].get<double>() <= j["cost_usd"].get<double>());
    for (const char* command : {"sweep", "recommend"}) {
        const auto c = run_cli({command, path.string(), "--json"});
        INFO(command << ": " << c.err);
        CHECK(c.code == 0);
        CHECK_NOTHROW(json::parse(c.out));
    }
}

TEST_CASE("sweep of unpriced custom hardware says why no plan is ranked by cost", "[cli][sweep]") {
    Sandbox box;
    const auto path = box.write("custom.json", R"({"model": {"preset": "llama2-7b"},
        "cluster": {"nodes": 2, "custom": {"accelerator": "H100-80GB", "accelerators_per_node": 8,
                                            "inter_node_gbps": 400}},
        "training": {"samples": 1e6}})");
    const auto j = run_cli({"sweep", path.string(), "--json"});
    REQUIRE(j.code == 0);
    const json doc = json::parse(j.out);
    CHECK(doc["valid"].get<int>() > 0);
    CHECK(doc["plans"].empty());
    CHECK(doc["excluded"]["no_price"].get<int>() > 0);
    const auto text = run_cli({"sweep", path.string()});
    CHECK_THAT(text.out, Catch::Contains(
                             "options have no known price (give cluster.custom.usd_per_node_hour"));
}

TEST_CASE("checkpoint_write_s 0 prices spot instead of printing unknowns", "[cli][spot]") {
    Sandbox box;
    const auto path = box.write("free-ckpt.json", R"({"model": {"preset": "llama2-7b"},
        "cluster": {"instance": "p4d.24xlarge", "nodes": 2, "pricing": "spot"},
        "training": {"tokens": 1e10}, "spot": {"checkpoint_write_s": 0, "restart_s": 300}})");
    const auto r = run_cli({"simulate", path.string(), "--json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    REQUIRE(j["cost_spot_usd"].is_number());
    CHECK(j["spot"]["wall_time_h"].get<double>() >= j["time_to_train_h"].get<double>());
    CHECK(std::isfinite(j["spot_expected_interruptions"].get<double>()));
}

TEST_CASE("an empty cluster.region is a field error", "[cli][errors]") {
    Sandbox box;
    const auto path = box.write("region.json", R"({"model": {"preset": "llama2-7b"},
        "cluster": {"instance": "p4d.24xlarge", "nodes": 1, "region": ""}})");
    const auto r = run_cli({"simulate", path.string()});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("cluster.region: must not be empty"));
}

TEST_CASE("a calibration profile of another accelerator is refused, not silently applied",
          "[cli][calibration]") {
    Sandbox box;
    const std::string log =
        (fs::path(CLUSTERPLAN_TEST_DATA_DIR) / "calibration" / "nccl_tests_allreduce_a100x8.txt")
            .string();
    REQUIRE(run_cli({"calibrate", "import", log, "--name", "a100-lab"}).code == 0);
    const auto on = [&](const char* instance) {
        return box.write(
            std::string(instance) + ".json",
            std::string(R"({"model": {"preset": "llama2-7b"}, "cluster": {"instance": ")") +
                instance +
                R"(", "nodes": 1, "calibration": "a100-lab"}, "training": {"tokens": 1e9}})");
    };
    // The log's GPUs are A100-SXM4-80GB: p4de (A100 80GB) takes the profile.
    const auto p4de = run_cli({"simulate", on("p4de.24xlarge").string(), "--json"});
    INFO(p4de.err);
    REQUIRE(p4de.code == 0);
    const json plan = json::parse(p4de.out);
    CHECK(plan["calibration"]["source"] == "nccl-tests (a100-lab)");
    // The log carries no date: the assumption does not print an empty one.
    for (const auto& a : plan["assumptions"])
        CHECK(a.get<std::string>().find(", )") == std::string::npos);
    for (const char* command : {"simulate", "sweep", "recommend"}) {
        // Another accelerator, and the same one with other memory (p4d's A100 40GB has 1,555
        // GB/s HBM, not 2,039): both refused.
        for (const char* other : {"p5.48xlarge", "p4d.24xlarge"}) {
            const auto r = run_cli({command, on(other).string()});
            INFO(command << " " << other);
            CHECK(r.code == 2);
            CHECK_THAT(r.err,
                       Catch::Contains(
                           "cluster.calibration: profile 'a100-lab' was measured on NVIDIA A100"));
        }
    }
    // Searching every instance: the A100 80GB plans use the profile, the others their datasheets.
    const auto any =
        box.write("any.json", R"({"model": {"preset": "llama2-7b"}, "training": {"tokens": 1e9},
        "cluster": {"calibration": "a100-lab"}, "constraints": {"max_nodes": 2, "objective": "time"}})");
    const auto rec = run_cli({"recommend", any.string(), "--json", "--top", "10"});
    INFO(rec.err);
    REQUIRE(rec.code == 0);
    const json doc = json::parse(rec.out); // the loop below iterates inside it
    for (const auto& r : doc["recommendations"]) {
        const bool a100 = r["plan"]["accelerator"].get<std::string>() == "A100-80GB";
        CHECK((r["plan"]["calibration"]["source"] == "datasheet") != a100);
    }
}

TEST_CASE("Trainium plans stop at ZeRO-1, the stage the Neuron SDK offers", "[cli][neuron]") {
    Sandbox box;
    const auto fixed = box.write("trn1-zero3.json", R"({"model": {"preset": "llama2-7b"},
        "cluster": {"instance": "trn1.32xlarge", "nodes": 2},
        "parallel": {"zero": 3}, "training": {"tokens": 1e9}})");
    const auto refused = run_cli({"simulate", fixed.string()});
    CHECK(refused.code == 2);
    CHECK_THAT(refused.err,
               Catch::Contains("parallel.zero") && Catch::Contains("ZeRO up to stage 1"));

    // Searched: every plan offered on Trainium uses ZeRO 0 or 1.
    const auto searched = box.write("trn1-any.json", R"({"model": {"preset": "llama2-7b"},
        "cluster": {"instance": "trn1.32xlarge"}, "constraints": {"max_nodes": 4},
        "training": {"tokens": 1e9}})");
    const auto r = run_cli({"sweep", searched.string(), "--json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json doc = json::parse(r.out);
    REQUIRE_FALSE(doc["plans"].empty());
    for (const auto& plan : doc["plans"])
        CHECK(plan["layout"]["zero"].get<int>() <= 1);
}

TEST_CASE("a training plan that does not fit names its parts, and the search names the field",
          "[cli][memory]") {
    Sandbox box;
    const fs::path path = box.write("too-big.json", R"({"model": {"preset": "llama3-70b"},
        "cluster": {"instance": "g5.xlarge", "nodes": 1}, "training": {"tokens": 1e9}})");
    const auto sim = run_cli({"simulate", path.string()});
    CHECK(sim.code == 3);
    INFO(sim.err);
    // What does not fit: each part of the memory, largest first (AdamW's state leads).
    CHECK(sim.err.find("needed per device (optimizer state ") != std::string::npos);
    CHECK(sim.err.find(", weights ") != std::string::npos);
    CHECK(sim.err.find(", activations ") != std::string::npos);
    // What would: more nodes than the scenario's one, named as the field that sets them.
    const auto rec = run_cli({"recommend", path.string()});
    CHECK(rec.code == 3);
    INFO(rec.err);
    CHECK(rec.err.find("on up to 1 node (raise cluster.nodes") != std::string::npos);
    // A scenario that searches instances is pointed from simulate to recommend.
    const fs::path search = box.write("search.json", R"({"model": {"preset": "llama3-8b"},
        "cluster": {}, "training": {"tokens": 1e9}})");
    const auto any = run_cli({"simulate", search.string()});
    CHECK(any.code == 2);
    CHECK(any.err.find("`clusterplan recommend` searches the instance types") != std::string::npos);
}
