// Purchase options through the CLI: estimated figures in simulate and catalog show, the spot
// statistic after a multi-zone import, pricing "on_demand" never yielding a spot plan.
#include "cli_sandbox.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using cp::test::run_cli;
using cp::test::Sandbox;
using nlohmann::json;

namespace {

std::string fixture(const std::string& name) {
    return std::string(CLUSTERPLAN_TEST_DATA_DIR) + "/catalog/" + name;
}

bool any_contains(const json& list, const std::string& needle) {
    for (const auto& s : list)
        if (s.get<std::string>().find(needle) != std::string::npos) return true;
    return false;
}

} // namespace

TEST_CASE("simulate of a g5.12xlarge bf16 scenario states the A10G estimate", "[cli][estimate]") {
    Sandbox box;
    const auto path = box.write("g5.json", R"({"model": {"preset": "llama2-7b"},
        "cluster": {"instance": "g5.12xlarge", "nodes": 2}, "precision": "bf16", "training": {"tokens": 1e9}})");
    const auto r = run_cli({"simulate", path.string(), "--json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    CHECK(j["precision"] == "bf16");
    CHECK(j["valid"] == true);
    CHECK(any_contains(j["assumptions"], "A10G bf16 dense peak 70 TFLOP/s is an estimate"));
    CHECK(j["estimated_figures"].size() >= 1);
    CHECK(j["purchase_options"]["spot"]["basis"].get<std::string>().find("median") !=
          std::string::npos);
    const auto show = run_cli({"catalog", "show", "g5.12xlarge"});
    CHECK_THAT(show.out, Catch::Contains("bf16 70 (est.)"));
    const auto list = run_cli({"catalog", "list", "--family", "G5"});
    CHECK_THAT(list.out, Catch::Contains("A10G*"));
}

TEST_CASE("sweep of BERT-large fp16 plans G5 next to P3, with G5's gradient traffic on PCIe",
          "[cli][estimate]") {
    Sandbox box;
    const auto sweep = box.write("bert.json", R"({"model": {"preset": "bert-large"},
        "cluster": {"region": "us-east-1"}, "precision": "fp16", "training": {"samples": 1e7},
        "constraints": {"instances": ["p3.16xlarge", "g5.48xlarge"], "max_nodes": 4}})");
    const auto r = run_cli({"sweep", sweep.string(), "--json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    REQUIRE(j["instances"].size() == 2);
    for (const auto& inst : j["instances"]) {
        INFO(inst.dump());
        CHECK(inst["unknown_hardware"] == 0);
        CHECK(inst["node_counts_fitting"] == 4);
    }
    bool g5 = false;
    bool p3 = false;
    for (const auto& plan : j["plans"]) {
        g5 = g5 || plan["instance"] == "g5.48xlarge";
        p3 = p3 || plan["instance"] == "p3.16xlarge";
    }
    CHECK((g5 && p3));

    // One node, data parallel over 8 devices: the V100s reduce gradients over NVLink behind
    // the backward pass, the A10Gs over PCIe, where part of it shows.
    auto exposed_dp_s = [&](const std::string& instance) {
        const auto one = box.write(instance + ".json", R"({"model": {"preset": "bert-large"},
            "cluster": {"instance": ")" + instance + R"(", "nodes": 1}, "precision": "fp16",
            "training": {"samples": 1e7}, "parallel": {"tp": 1, "pp": 1, "dp": 8, "zero": 0}})");
        const auto s = run_cli({"simulate", one.string(), "--json"});
        INFO(s.err);
        REQUIRE(s.code == 0);
        return json::parse(s.out)["breakdown_s"]["dp_comm_exposed"].get<double>();
    };
    CHECK(exposed_dp_s("g5.48xlarge") > exposed_dp_s("p3.16xlarge"));
}

TEST_CASE("after a multi-zone spot history recommend prices spot at the median and on_demand has "
          "no spot plan",
          "[cli][spot]") {
    Sandbox box;
    REQUIRE(run_cli({"catalog", "import", fixture("spot_history_multi_zone.json")}).code == 0);
    const auto any = box.write("any.json", R"({"model": {"preset": "llama2-7b"},
        "cluster": {"instance": "p4d.24xlarge", "nodes": 2}, "training": {"tokens": 1e10}})");
    const auto r = run_cli({"simulate", any.string(), "--json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    const json& spot = j["purchase_options"]["spot"];
    CHECK(spot["usd_per_node_hour"].get<double>() == Approx(5.20));
    CHECK(spot["usd_per_node_hour_min"].get<double>() == Approx(2.47));
    CHECK(spot["usd_per_node_hour_max"].get<double>() == Approx(8.19));

    const auto od = box.write("od.json", R"({"model": {"preset": "llama2-7b"},
        "cluster": {"instance": "p4d.24xlarge", "pricing": "on_demand"}, "training": {"tokens": 1e10},
        "constraints": {"max_nodes": 4, "allow_spot": true}})");
    const auto rec = run_cli({"recommend", od.string(), "--json"});
    INFO(rec.err);
    REQUIRE(rec.code == 0);
    const json rj = json::parse(rec.out);
    REQUIRE(rj.contains("recommendations"));
    REQUIRE_FALSE(rj["recommendations"].empty());
    for (const auto& choice : rj["recommendations"])
        CHECK(choice["plan"]["purchase"] == "on_demand");
    const auto contradiction = box.write("bad.json", R"({"model": {"preset": "llama2-7b"},
        "cluster": {"instance": "p4d.24xlarge", "pricing": "spot"}, "constraints": {"allow_spot": false}})");
    const auto bad = run_cli({"recommend", contradiction.string()});
    CHECK(bad.code == 2);
    CHECK_THAT(bad.err, Catch::Contains("contradicts constraints.allow_spot"));
}
