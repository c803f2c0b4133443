// Regressions from the CLI audit: a scenario's own node price caps the catalog's spot price,
// free checkpoints do not turn the spot estimate into NaN, and recommend does not claim the
// planner chose what the scenario fixed; fp32 activations are 4-byte.
#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/recommend.h"
#include "clusterplan/sim/scenario.h"
#include "clusterplan/sim/spot_cost.h"
#include "clusterplan/sim/wording.h"
#include "engine/memory_model.h"
#include "engine_fixtures.h"
#include "tolerance.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <optional>

using namespace cp::sim;

TEST_CASE("cluster.custom.usd_per_node_hour caps the catalog's spot price", "[cost][spot]") {
    const NodeSpec base = cp::test::priced_a100_node("test.a100", 21.96, 2.47, 2);
    CustomHardware free_node;
    free_node.usd_per_node_hour = 0; // e.g. owned hardware, as in the DESIGN.md example
    const NodeSpec owned = apply_custom_hardware(&base, free_node, nullptr, "t.json");
    CHECK(owned.usd_per_node_hour_on_demand == 0);
    CHECK(owned.usd_per_node_hour_spot == 0);

    CustomHardware discounted;
    discounted.usd_per_node_hour = 10; // above the spot price: spot stays the market price
    const NodeSpec d = apply_custom_hardware(&base, discounted, nullptr, "t.json");
    CHECK(d.usd_per_node_hour_on_demand == 10);
    CHECK(d.usd_per_node_hour_spot == 2.47);
}

TEST_CASE("a free checkpoint (checkpoint_write_s 0) gives finite spot figures", "[cost][spot]") {
    const NodeSpec node = cp::test::priced_a100_node("test.a100", 32, 12, 2);
    SpotSpec spot;
    spot.checkpoint_write_s = 0;
    spot.restart_s = 600;
    const int nodes = 16;
    const double work_h = 200;
    const SpotEstimate e = spot_estimate(spot, node, nodes, work_h);
    REQUIRE(e.feasible);
    REQUIRE(std::isfinite(e.wall_time_h));
    // Nothing is lost: each interruption costs only the restart.
    const double rate = nodes * spot_interruptions_per_node_hour(2);
    CHECK_REL(e.wall_time_h, work_h / (1 - rate * 600.0 / 3600), 1e-9);
    CHECK_REL(e.cost_usd, nodes * 12.0 * e.wall_time_h, 1e-12);
    CHECK(std::isfinite(e.expected_interruptions));
}

TEST_CASE("recommend says when the scenario, not the planner, fixed the layout and recompute",
          "[recommend]") {
    const Scenario sc = parse_scenario(
        R"({"model": {"preset": "llama2-7b"}, "cluster": {"nodes": 1},
            "parallel": {"tp": 8, "pp": 1, "dp": 1, "micro_batch": 1, "zero": 1, "recompute": "full",
                         "sequence_parallel": false},
            "training": {"tokens": 1e9}, "constraints": {"max_nodes": 1}})",
        "t.json");
    const RecommendResult res = recommend(sc, {cp::test::priced_a100_node("test.a100", 32, 12, 2)},
                                          nullptr, 1, SweepOptions{1});
    REQUIRE_FALSE(res.recommendations.empty());
    const Recommendation& top = res.recommendations.front();
    bool layout_sentence = false;
    for (const auto& why : top.reasons) {
        CHECK(why.find("fastest of its cluster") == std::string::npos);
        layout_sentence =
            layout_sentence || why.find("as the scenario sets it") != std::string::npos;
    }
    CHECK(layout_sentence);
    for (const auto& limit : top.limits)
        CHECK(limit.find("to fit") == std::string::npos);
    // Every sentence closes what it opens ("recomputed (full, as the scenario sets, costing ..."
    // did not).
    for (const auto* lines : {&top.reasons, &top.limits})
        for (const std::string& line : *lines) {
            INFO(line);
            CHECK(std::count(line.begin(), line.end(), '(') ==
                  std::count(line.begin(), line.end(), ')'));
        }
}

TEST_CASE("recommend names a host-bound plan and what would help", "[recommend]") {
    // 1024-wide layers at micro-batch 1 leave the GPU waiting for the host (model_constants.h).
    const Scenario sc = parse_scenario(
        R"({"model": {"layers": 12, "hidden": 1024, "heads": 16, "seq_len": 1024, "vocab": 51200},
            "cluster": {"nodes": 1},
            "parallel": {"tp": 1, "pp": 1, "dp": 8, "micro_batch": 1, "global_batch": 64, "zero": 0,
                         "recompute": "full"},
            "training": {"tokens": 1e9}, "constraints": {"max_nodes": 1}})",
        "t.json");
    const RecommendResult res = recommend(sc, {cp::test::priced_a100_node("test.a100", 32, 12, 2)},
                                          nullptr, 1, SweepOptions{1});
    REQUIRE_FALSE(res.recommendations.empty());
    bool host_bound = false;
    for (const auto& limit : res.recommendations.front().limits)
        host_bound = host_bound || (limit.find("host-bound") != std::string::npos &&
                                    limit.find("larger micro-batch") != std::string::npos);
    CHECK(host_bound);
}

TEST_CASE("fp32 and tf32 activations take twice the bytes of bf16 ones", "[memory]") {
    TransformerShape shape;
    shape.layers = 32;
    shape.hidden = 4096;
    shape.heads = 32;
    shape.kv_heads = 32;
    shape.ffn_hidden = 11008;
    shape.gated_mlp = true;
    shape.seq_len = 4096;
    shape.vocab = 32000;
    Layout layout;
    layout.tp = 2;
    layout.pp = 2;
    layout.dp = 8;
    layout.global_batch = 512;
    layout.recompute = Recompute::selective;
    const MemoryGib half = transformer_memory(shape, layout, Precision::bf16, 80);
    const MemoryGib full = transformer_memory(shape, layout, Precision::tf32, 80);
    CHECK_REL(full.activations, 2.0 * half.activations, 1e-12);
    CHECK_REL(transformer_memory(shape, layout, Precision::fp32, 80).activations, full.activations,
              1e-12);
}

TEST_CASE("durations read in the unit a person expects", "[wording]") {
    CHECK(format_duration_s(0.004) == "4 ms");
    CHECK(format_duration_s(0.0042) == "4.2 ms");
    CHECK(format_duration_s(0.85) == "850 ms");
    CHECK(format_duration_s(1.234) == "1.23 s");
    CHECK(format_duration_s(12.34) == "12.3 s");
    CHECK(format_duration_s(270) == "4.5 min");
    CHECK(format_duration_s(3.2 * 3600) == "3.2 h");
    CHECK(format_duration_s(30 * 3600) == "30 h");
    CHECK(format_duration_s(34.1 * 86400) == "34.1 days");
    CHECK(format_duration_s(std::nan("")) == "unknown time");
}

TEST_CASE("expected interruptions read as words, not 0.0", "[wording]") {
    CHECK(format_expected_interruptions(0.0) == "no interruption expected");
    CHECK(format_expected_interruptions(0.04) == "no interruption expected");
    CHECK(format_expected_interruptions(0.3) == "about 0.3 interruptions expected");
    CHECK(format_expected_interruptions(1.02) == "about 1 interruption expected");
    CHECK(format_expected_interruptions(2.44) == "about 2.4 interruptions expected");
    CHECK(format_expected_interruptions(12.4) == "about 12 interruptions expected");
}

TEST_CASE("recommend words a millisecond step and an interruption-free spot run plainly",
          "[recommend][wording]") {
    // A small model on one node: a step of milliseconds and a run of seconds, too short for spot
    // interruptions to be expected.
    const Scenario sc = parse_scenario(
        R"({"model": {"layers": 2, "hidden": 256, "heads": 4, "ffn_hidden": 1024, "seq_len": 128, "vocab": 1000},
            "cluster": {"nodes": 1}, "parallel": {"global_batch": 8},
            "training": {"tokens": 1e6}, "constraints": {"max_nodes": 1}})",
        "t.json");
    const RecommendResult res = recommend(sc, {cp::test::priced_a100_node("test.a100", 32, 12, 2)},
                                          nullptr, 1, SweepOptions{1});
    REQUIRE_FALSE(res.recommendations.empty());
    const Recommendation& top = res.recommendations.front();
    REQUIRE(top.report.result.step_time_s < 1.0);
    std::string text;
    for (const auto& s : top.limits)
        text += s + "\n";
    for (const auto& s : top.reasons)
        text += s + "\n";
    INFO(text);
    CHECK(text.find(" ms step") != std::string::npos);
    CHECK(text.find(" s step") == std::string::npos);
    CHECK(text.find("no interruption expected") != std::string::npos);
    CHECK(text.find("0.0 ") == std::string::npos);
}

TEST_CASE("a multi-node plan on an instance without EFA says its network times are optimistic",
          "[recommend]") {
    const Scenario sc = parse_scenario(
        R"({"model": {"preset": "gpt2-1.5b"}, "cluster": {"nodes": 2},
            "parallel": {"tp": 1, "pp": 1, "dp": 16, "micro_batch": 4, "zero": 1, "recompute": "none"},
            "training": {"tokens": 1e9}, "constraints": {"max_nodes": 2}})",
        "t.json");
    auto says_no_efa = [&](std::optional<bool> efa) {
        NodeSpec node = cp::test::priced_a100_node("test.a100", 32, 12, 2);
        node.efa = efa;
        const RecommendResult res = recommend(sc, {node}, nullptr, 1, SweepOptions{1});
        REQUIRE_FALSE(res.recommendations.empty());
        const Recommendation& top = res.recommendations.front();
        bool limit = false, assumption = false;
        for (const auto& l : top.limits)
            limit = limit || l.find("has no EFA") != std::string::npos;
        for (const auto& a : top.report.assumptions)
            assumption = assumption || a.find("no EFA") != std::string::npos;
        CHECK(limit == assumption);
        return limit;
    };
    CHECK(says_no_efa(false));
    CHECK_FALSE(says_no_efa(true));
    CHECK_FALSE(says_no_efa(std::nullopt)); // the catalog does not say: no claim either way

    // A profile that measured the inter-node network replaces the guess: no warning then.
    CalibrationProfile measured;
    measured.name = "tcp-measured";
    measured.source = "nccl-tests";
    measured.instance_type = "test.a100";
    CollectiveFit fit;
    fit.collective = "all_reduce";
    fit.ranks = 16;
    fit.segments.push_back({0, 1e18, 60e-6, 5e9});
    measured.inter_node.push_back(fit);
    NodeSpec node = cp::test::priced_a100_node("test.a100", 32, 12, 2);
    node.efa = false;
    const RecommendResult res = recommend(sc, {node}, &measured, 1, SweepOptions{1});
    REQUIRE_FALSE(res.recommendations.empty());
    const Recommendation& top = res.recommendations.front();
    REQUIRE(top.report.result.calibration_used.inter_node);
    for (const auto& l : top.limits)
        CHECK(l.find("has no EFA") == std::string::npos);
    for (const auto& a : top.report.assumptions)
        CHECK(a.find("no EFA") == std::string::npos);
}
