// CLI audit of issues 2-4, second round: generic models report samples/s (no tokens), a
// cluster.instance outside constraints.instances and a region without prices are field errors,
// `catalog list --region` names the priced regions, and equal-time micro-batches resolve to the
// largest (fewest accumulation steps). In-process, each test with a fresh CLUSTERPLAN_DATA_DIR.
#include "cli_sandbox.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using cp::test::run_cli;
using cp::test::Sandbox;
using nlohmann::json;

namespace {

const char* kResnetOnP4d = R"({"model": {"preset": "resnet50"},
    "cluster": {"instance": "p4d.24xlarge", "nodes": 1}, "parallel": {"global_batch": 1024},
    "precision": "fp16", "training": {"epochs": 1, "dataset_samples": 1281167}})";

// Runs simulate, sweep and recommend on `path`; each must exit 2. Returns their stderr.
std::vector<std::string> planner_errors(const std::filesystem::path& path) {
    std::vector<std::string> errors;
    for (const char* command : {"simulate", "sweep", "recommend"}) {
        const auto r = run_cli({command, path.string()});
        INFO(command << ": " << r.err);
        CHECK(r.code == 2);
        errors.push_back(r.err);
    }
    return errors;
}

} // namespace

TEST_CASE("a generic model reports samples/s, not tokens/s", "[cli][generic]") {
    Sandbox box;
    const auto path = box.write("resnet.json", kResnetOnP4d);
    const auto text = run_cli({"simulate", path.string()});
    INFO(text.err);
    REQUIRE(text.code == 0);
    CHECK_THAT(text.out, Catch::Contains("samples/s (images/s for an image model)"));
    CHECK_THAT(text.out, !Catch::Contains("tokens/s"));
    const json j = json::parse(run_cli({"simulate", path.string(), "--json"}).out);
    REQUIRE(j.contains("tokens_per_s")); // the DESIGN.md key stays, without a meaningless value
    CHECK(j["tokens_per_s"].is_null());
    CHECK(j["samples_per_s"].get<double>() > 0);
    const json sweep = json::parse(run_cli({"sweep", path.string(), "--json"}).out);
    REQUIRE_FALSE(sweep["plans"].empty());
    CHECK(sweep["plans"][0]["tokens_per_s"].is_null());
    // A transformer keeps its token rate.
    const auto llama = box.write("llama.json", R"({"model": {"preset": "llama2-7b"},
        "cluster": {"instance": "p4d.24xlarge", "nodes": 1}, "training": {"tokens": 1e10}})");
    CHECK(json::parse(run_cli({"simulate", llama.string(), "--json"}).out)["tokens_per_s"]
              .get<double>() > 0);
}

TEST_CASE("equal step times resolve to the largest micro-batch, whatever the thread count",
          "[cli][generic]") {
    Sandbox box;
    const auto path = box.write("resnet.json", kResnetOnP4d);
    const json j = json::parse(run_cli({"simulate", path.string(), "--json"}).out);
    // 1024 images over 8 GPUs: 128 per replica fit in one micro-batch (was 2, with 64
    // accumulations).
    CHECK(j["layout"]["micro_batch"] == 128);
    CHECK(j["layout"]["micro_batches"] == 1);
    const auto one = run_cli({"sweep", path.string(), "--json", "--threads", "1"});
    const auto two = run_cli({"sweep", path.string(), "--json", "--threads", "2"});
    CHECK(json::parse(one.out)["plans"] == json::parse(two.out)["plans"]);
    CHECK(json::parse(one.out)["plans"][0]["layout"]["micro_batch"] == 128);
}

TEST_CASE("cluster.instance outside a non-empty constraints.instances exits 2 naming both",
          "[cli][errors]") {
    Sandbox box;
    const auto path = box.write("contra.json", R"({"model": {"preset": "llama2-7b"},
        "cluster": {"instance": "p4d.24xlarge", "nodes": 1},
        "constraints": {"instances": ["p5.48xlarge", "p4de.24xlarge"]}})");
    for (const auto& err : planner_errors(path))
        CHECK_THAT(err, Catch::Contains("cluster.instance") &&
                            Catch::Contains("constraints.instances") &&
                            Catch::Contains("p4d.24xlarge"));
    const auto listed = box.write("listed.json", R"({"model": {"preset": "llama2-7b"},
        "cluster": {"instance": "p4d.24xlarge", "nodes": 1}, "training": {"tokens": 1e10},
        "constraints": {"instances": ["p4d.24xlarge"]}})");
    CHECK(run_cli({"simulate", listed.string()}).code == 0);
}

TEST_CASE("a cluster.region without any price exits 2 listing the priced regions",
          "[cli][errors]") {
    Sandbox box;
    const auto mars = box.write("mars.json", R"({"model": {"preset": "llama2-7b"},
        "cluster": {"instance": "p4d.24xlarge", "nodes": 1, "region": "mars-1"}, "training": {"tokens": 1e10}})");
    for (const auto& err : planner_errors(mars))
        CHECK_THAT(err, Catch::Contains("cluster.region") && Catch::Contains("mars-1") &&
                            Catch::Contains("regions with prices: ") &&
                            Catch::Contains("us-east-1"));
    const auto searched = box.write("searched.json", R"({"model": {"preset": "llama2-7b"},
        "cluster": {"region": "mars-1"}, "training": {"tokens": 1e10}, "constraints": {"max_nodes": 2}})");
    CHECK(run_cli({"sweep", searched.string()}).code == 2);
    // The scenario's own price needs no catalog price.
    const auto priced = box.write("priced.json", R"({"model": {"preset": "llama2-7b"},
        "cluster": {"instance": "p4d.24xlarge", "nodes": 1, "region": "mars-1",
                    "custom": {"usd_per_node_hour": 30}}, "training": {"tokens": 1e10}})");
    const auto r = run_cli({"simulate", priced.string(), "--json"});
    INFO(r.err);
    CHECK(r.code == 0);
}

TEST_CASE("catalog list --region without prices says where prices are, JSON stays an array",
          "[cli][catalog]") {
    Sandbox box;
    const auto text = run_cli({"catalog", "list", "--region", "mars-1"});
    CHECK(text.code == 0);
    CHECK_THAT(text.err,
               Catch::Contains("no prices in region 'mars-1'") && Catch::Contains("us-east-1"));
    const auto js = run_cli({"catalog", "list", "--region", "mars-1", "--json"});
    CHECK(js.code == 0);
    CHECK(json::parse(js.out) == json::array());
    const auto priced = run_cli({"catalog", "list", "--region", "us-east-1"});
    CHECK(priced.code == 0);
    CHECK(priced.err.empty());
}
