// Purchase options: the spot price statistic over a multi-zone history, Capacity Block and
// reserved arithmetic, pricing vs allow_spot, precision fallback and figure provenance.
#include "clusterplan/sim/plan_json.h"
#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/precision_choice.h"
#include "clusterplan/sim/purchase_costs.h"
#include "clusterplan/sim/recommend.h"
#include "clusterplan/sim/scenario.h"
#include "clusterplan/sim/spot_price_stats.h"
#include "engine_fixtures.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <set>

using namespace cp::sim;

namespace {

Scenario parse(const std::string& body) {
    return parse_scenario(R"({"name": "t", "model": {"preset": "llama2-7b"}, "cluster": {)" + body,
                          "t.json");
}

std::string error_of(const std::string& body) {
    try {
        parse(body);
    } catch (const ScenarioError& e) {
        return e.what();
    }
    return "(no error)";
}

bool has_line(const std::vector<std::string>& lines, const std::string& needle) {
    for (const auto& l : lines)
        if (l.find(needle) != std::string::npos) return true;
    return false;
}

} // namespace

TEST_CASE("the spot price is the median of the typical zone's last 30 days, not the minimum",
          "[spot][stats]") {
    // Three zones over 40 days: a cheap zone (2.47 for the last 10 days, 4.0 before), a middle
    // zone (5.0 for 20 days, then 6.0) and an expensive zone (8.19 throughout).
    std::vector<SpotObservation> obs = {
        {"us-east-1a", 4.00, -40, "a0"}, {"us-east-1a", 2.47, -10, "a1"},
        {"us-east-1b", 5.00, -40, "b0"}, {"us-east-1b", 6.00, -10, "b1"},
        {"us-east-1c", 8.19, -40, "c0"}, {"us-east-1c", 8.19, 0, "c1"},
    };
    const SpotPriceSummary s = summarize_spot_prices(obs, SpotPriceRule{});
    REQUIRE(s.known);
    CHECK(s.zones == 3);
    // Zone medians over [-30, 0]: a = 4.0 (20 of 30 days), b = 5.0, c = 8.19 -> middle zone b.
    CHECK(s.zone == "us-east-1b");
    CHECK_REL(s.usd_per_hour, 5.0, 1e-12);
    CHECK_REL(s.min_usd_per_hour, 2.47, 1e-12);
    CHECK_REL(s.max_usd_per_hour, 8.19, 1e-12);
    CHECK(s.usd_per_hour > s.min_usd_per_hour);
    CHECK(s.basis.find("median of the last 30 days in us-east-1b") != std::string::npos);

    SpotPriceRule latest;
    latest.statistic = SpotStatistic::latest;
    CHECK_REL(summarize_spot_prices(obs, latest).usd_per_hour, 6.0, 1e-12);
    SpotPriceRule pinned;
    pinned.zone = "us-east-1a";
    CHECK_REL(summarize_spot_prices(obs, pinned).usd_per_hour, 4.0, 1e-12);
    pinned.zone = "us-east-1z";
    CHECK(summarize_spot_prices(obs, pinned).zone_missing);
    SpotPriceRule week;
    week.window_days = 7; // the last week: a = 2.47, b = 6.0, c = 8.19
    CHECK_REL(summarize_spot_prices(obs, week).usd_per_hour, 6.0, 1e-12);
}

TEST_CASE("a snapshot of min and max over unnamed zones is priced at its midpoint",
          "[spot][stats]") {
    const SpotPriceSummary s =
        summarize_spot_prices({{"", 2.47, -100, "2025-08"}, {"", 8.19, -100, "2025-08"}}, {});
    REQUIRE(s.known);
    CHECK_REL(s.usd_per_hour, 0.5 * (2.47 + 8.19), 1e-12);
    CHECK(s.basis.find("zones not recorded") != std::string::npos);
}

TEST_CASE("Capacity Blocks round up to the days and instance counts AWS sells",
          "[capacity-block]") {
    const CapacityBlockCost a =
        capacity_block_cost(39.33, 3, 30.0); // 30 h -> 2 days, 3 -> 4 instances
    REQUIRE(a.available);
    CHECK(a.reserved_nodes == 4);
    CHECK(a.block_hours == 48.0);
    CHECK_REL(a.cost_usd, 39.33 * 4 * 48, 1e-12);
    const CapacityBlockCost b =
        capacity_block_cost(10.0, 1, 15 * 24.0 + 1); // 16 days -> 21 (7-day steps)
    CHECK(b.block_hours == 21 * 24.0);
    CHECK_FALSE(capacity_block_cost(10.0, 65, 10).available);
    CHECK_FALSE(capacity_block_cost(10.0, 1, 183 * 24.0).available);
    CHECK_FALSE(capacity_block_cost(kUnknown, 1, 10).available);
    const ReservedCost r = reserved_cost(20.0, 2, 100.0, 1);
    CHECK_REL(r.job_cost_usd, 4000.0, 1e-12);
    CHECK_REL(r.commitment_usd, 20.0 * 2 * 8760, 1e-12);
}

TEST_CASE("pricing and allow_spot never contradict and pricing names what is ranked",
          "[pricing][scenario]") {
    CHECK_THAT(error_of(R"("pricing": "spot"}, "constraints": {"allow_spot": false}})"),
               Catch::Contains("cluster.pricing") &&
                   Catch::Contains("contradicts constraints.allow_spot"));
    const Scenario any = parse("}}");
    CHECK(any.pricing == Pricing::any);
    CHECK(purchase_allowed(any, PurchaseKind::spot));
    CHECK(purchase_allowed(any, PurchaseKind::capacity_block));
    CHECK_FALSE(purchase_allowed(any, PurchaseKind::reserved_1y));
    const Scenario od = parse(R"("pricing": "on_demand"}, "constraints": {"allow_spot": true}})");
    CHECK_FALSE(purchase_allowed(od, PurchaseKind::spot));
    const Scenario no_spot = parse(R"("pricing": "any"}, "constraints": {"allow_spot": false}})");
    CHECK_FALSE(purchase_allowed(no_spot, PurchaseKind::spot));

    Scenario sc = parse(
        R"("pricing": "on_demand"}, "constraints": {"max_nodes": 4}, "training": {"tokens": 1e9}})");
    NodeSpec node = cp::test::priced_a100_node("a", 32.0, 12.0, 0);
    node.committed.capacity_block_usd_per_hour = 30.0;
    const SweepResult sw = sweep(sc, {node}, nullptr, SweepOptions{2});
    for (const PlanOption& o : rank_options(sc, sw, 10).sorted)
        CHECK(o.kind == PurchaseKind::on_demand);
    sc.pricing = Pricing::any;
    std::set<PurchaseKind> kinds;
    for (const PlanOption& o : rank_options(sc, sw, 10).sorted)
        kinds.insert(o.kind);
    CHECK(kinds.count(PurchaseKind::spot) == 1);
    CHECK(kinds.count(PurchaseKind::capacity_block) == 1);
    sc.pricing = Pricing::capacity_block;
    for (const PlanOption& o : rank_options(sc, sw, 10).sorted)
        CHECK(o.kind == PurchaseKind::capacity_block);
}

TEST_CASE("precision auto falls back to fp16 where bf16 is missing and says so", "[precision]") {
    NodeSpec v100 = cp::test::priced_a100_node("p3.test");
    v100.accelerator.id = "V100-16GB";
    v100.accelerator.peak_tflops = {15.7, kUnknown, 125, kUnknown, kUnknown};
    v100.accelerator.precision_unsupported = {false, true, false, true, true};
    const Scenario strict = parse(R"("instance": "p3.test", "nodes": 1}, "precision": "bf16"})");
    CHECK(plan_precision(strict, v100.accelerator) == Precision::bf16);
    CHECK(precision_fallback_note(strict, v100.accelerator).empty());
    const Scenario automatic = parse(R"("instance": "p3.test", "nodes": 1}, "precision": "auto"})");
    CHECK(plan_precision(automatic, v100.accelerator) == Precision::fp16);
    CHECK_THAT(precision_fallback_note(automatic, v100.accelerator),
               Catch::Contains("V100-16GB has no bf16 math: planned at fp16"));
    const Scenario listed =
        parse(R"("instance": "p3.test", "nodes": 1}, "precision": ["fp8", "fp32"]})");
    CHECK(plan_precision(listed, v100.accelerator) == Precision::fp32);
    CHECK_THAT(error_of(R"("instance": "x"}, "precision": ["bf16", "bf16"]})"),
               Catch::Contains("twice"));
    // The plan runs at fp16 and states it.
    const PlanReport rep = simulate_plan(automatic, v100, nullptr);
    CHECK(rep.precision == Precision::fp16);
    CHECK(has_line(rep.assumptions, "planned at fp16"));
    // Round trip keeps the choice.
    CHECK(parse_scenario(scenario_to_json(automatic), "rt").precision_auto);
    CHECK(parse_scenario(scenario_to_json(listed), "rt").precision_fallbacks.size() == 1);
}

TEST_CASE("estimated figures are stated and cluster.custom replaces them", "[estimate]") {
    NodeSpec g5 = cp::test::priced_a100_node("g5.test");
    g5.accelerator.id = "A10G";
    g5.accelerator.peak_tflops = {31.2, 35, 70, 70, kUnknown};
    g5.accelerator.peak_estimated = {false, true, true, true, false};
    g5.accelerator.estimate_source = "derivation";
    g5.accelerator.memory_gib = 24;
    const Scenario sc = parse_scenario(
        R"({"name": "t", "cluster": {"instance": "g5.test", "nodes": 1}, "model": {"preset": "bert-large"}, "precision": "bf16"})",
        "t.json");
    const PlanReport rep = simulate_plan(sc, g5, nullptr);
    CHECK(has_line(rep.assumptions, "A10G bf16 dense peak 70 TFLOP/s is an estimate"));
    CHECK(plan_report_json(rep)["estimated_figures"].size() == 3);

    const Scenario custom = parse_scenario(
        R"({"name": "t", "cluster": {"instance": "g5.test", "nodes": 1, "custom": {"peak_tflops": {"bf16": 60}, "memory_gib": 22}}, "model": {"preset": "bert-large"}, "precision": "bf16"})",
        "t.json");
    const NodeSpec overridden = apply_custom_hardware(&g5, *custom.custom, nullptr, "t.json");
    CHECK(overridden.accelerator.peak(Precision::bf16) == 60);
    CHECK_FALSE(overridden.accelerator.peak_estimated[static_cast<int>(Precision::bf16)]);
    CHECK(overridden.accelerator.memory_gib == 22);
    const PlanReport rc = simulate_plan(custom, overridden, nullptr);
    CHECK(has_line(rc.assumptions, "bf16 dense peak 60 TFLOP/s from cluster.custom.peak_tflops"));
    CHECK_FALSE(has_line(rc.assumptions, "is an estimate"));
    CHECK(parse_scenario(scenario_to_json(custom), "rt")
              .custom->peak_tflops[static_cast<int>(Precision::bf16)] == 60);
}

TEST_CASE("checkpoint storage is an optional priced line", "[storage]") {
    const Scenario none = parse(R"("instance": "x", "nodes": 1}})");
    CHECK_FALSE(storage_cost(none, 100).priced);
    const Scenario s3 = parse(
        R"("instance": "x", "nodes": 1}, "storage": {"service": "s3", "checkpoint_gb": 100, "checkpoints_kept": 2}})");
    const StorageCost c = storage_cost(s3, 730.0); // one month
    REQUIRE(c.priced);
    CHECK_REL(c.cost_usd, 200 * kS3UsdPerGbMonth, 1e-12);
    CHECK_THAT(error_of(R"("instance": "x"}, "storage": {"checkpoint_gb": 10}})"),
               Catch::Contains("storage.service"));
}
