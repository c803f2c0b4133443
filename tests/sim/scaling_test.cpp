// Scaling curves (sim/scaling.h): device counts, layout families, efficiency against the
// planner's reference, determinism, cancel, and the note explaining efficiency above 100 %.
#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/scaling.h"
#include "clusterplan/sim/scenario.h"
#include "engine_fixtures.h"
#include "tolerance.h"

#include <atomic>
#include <catch2/catch.hpp>
#include <string>
#include <tuple>
#include <vector>

using namespace cp::sim;

namespace {

NodeSpec priced_a100_node() {
    NodeSpec n = cp::test::a100_cluster(1, 400).node;
    n.instance_type = "test.a100";
    n.usd_per_node_hour_on_demand = 32.0;
    return n;
}

Scenario parsed(const std::string& model, const std::string& extra = {}) {
    return parse_scenario(R"({"name": "t", "model": {"preset": ")" + model +
                              R"("}, "cluster": {})" +
                              (extra.empty() ? std::string() : ", " + extra) + "}",
                          "t.json");
}

// Every searched layout field, to compare two layouts at once.
auto layout_key(const Layout& l) {
    return std::make_tuple(l.tp, l.pp, l.dp, l.micro_batch, l.virtual_stages, l.zero, l.recompute);
}

} // namespace

TEST_CASE("scaling sizes: powers of two within a node, then doubling whole nodes",
          "[sim][scaling]") {
    std::vector<int> devices, nodes;
    for (const ScalingSize& s : scaling_sizes(8, 4)) {
        devices.push_back(s.devices());
        nodes.push_back(s.nodes);
    }
    CHECK(devices == std::vector<int>{1, 2, 4, 8, 16, 32});
    CHECK(nodes == std::vector<int>{1, 1, 1, 1, 2, 4});
    CHECK(scaling_sizes(1, 3).size() == 2);  // 1 and 2 nodes of one device
    CHECK(scaling_sizes(16, 0).size() == 5); // 1, 2, 4, 8 devices and one whole node
}

TEST_CASE("with_layout_searched clears the layout, keeps the method", "[sim][scaling]") {
    const Scenario fixed =
        parsed("llama2-7b", R"("parallel": {"tp": 2, "pp": 2, "dp": 2, "micro_batch": 2,
        "virtual_stages": 2, "schedule": "interleaved", "zero": 1, "recompute": "full", "global_batch": 64})");
    const Scenario s = with_layout_searched(fixed);
    CHECK_FALSE(s.parallel.tp);
    CHECK_FALSE(s.parallel.pp);
    CHECK_FALSE(s.parallel.dp);
    CHECK_FALSE(s.parallel.micro_batch);
    CHECK_FALSE(s.parallel.virtual_stages);
    CHECK_FALSE(s.parallel.zero);
    CHECK_FALSE(s.parallel.recompute);
    CHECK(s.parallel.schedule == Schedule::interleaved);
    CHECK(s.parallel.global_batch == 64);
}

TEST_CASE("a data-parallel-only model scales at most linearly", "[sim][scaling]") {
    const Scenario sc = parsed("resnet50", R"("parallel": {"global_batch": 1024})");
    const NodeSpec node = priced_a100_node();
    const ScalingCurves c = scaling_curves(sc, node, scaling_sizes(8, 8));
    CHECK_FALSE(c.tokens); // generic models count samples
    REQUIRE(c.baseline.devices == 1);
    REQUIRE(c.rows.size() == 7);
    for (const ScalingRow& row : c.rows) {
        INFO(row.size.devices() << " devices");
        const ScalingPoint& dp = row.at(LayoutFamily::data);
        REQUIRE(dp.found);
        CHECK(dp.layout.tp == 1);
        CHECK(dp.layout.pp == 1);
        CHECK(dp.layout.dp == row.size.devices());
        CHECK(dp.scaling_efficiency <= 1.0 + 1e-12);
        CHECK(dp.scaling_efficiency > 0.3);
        CHECK(dp.throughput == dp.result.samples_per_s);
        CHECK(dp.cost_usd > 0);
        // No tensor or pipeline split of a model without layer structure.
        CHECK_FALSE(row.at(LayoutFamily::tensor).found);
        CHECK_FALSE(row.at(LayoutFamily::pipeline).found);
        CHECK(row.at(LayoutFamily::any).throughput == dp.throughput);
    }
    CHECK_REL(c.rows.front().at(LayoutFamily::data).scaling_efficiency, 1.0, 1e-12);
}

TEST_CASE("scaling curves of a transformer: families, envelope, reference, determinism",
          "[sim][scaling]") {
    const Scenario sc = parsed("llama2-7b", R"("parallel": {"global_batch": 256, "tp": 8, "pp": 1},
        "constraints": {"max_nodes": 4})");
    const NodeSpec node = priced_a100_node();
    const std::vector<ScalingSize> sizes = scaling_sizes(8, 4);
    const ScalingCurves c = scaling_curves(sc, node, sizes);
    CHECK(c.tokens);
    REQUIRE(c.rows.size() == sizes.size());
    // The reference is the planner's, computed with every layout field searched (tp = 8 ignored).
    const ScalingBaseline b = scaling_baseline(sc, node, nullptr);
    CHECK(c.baseline.devices == b.devices);
    CHECK(c.baseline.samples_per_s == b.samples_per_s);
    bool tensor_seen = false, pipeline_seen = false, model_seen = false;
    for (const ScalingRow& row : c.rows) {
        INFO(row.size.devices() << " devices");
        const ScalingPoint& any = row.at(LayoutFamily::any);
        if (row.size.devices() < c.baseline.devices) {
            CHECK_FALSE(any.found); // nothing fits below the reference
            continue;
        }
        REQUIRE(any.found);
        if (row.size.devices() == c.baseline.devices) CHECK_REL(any.scaling_efficiency, 1.0, 1e-12);
        for (LayoutFamily f : kLayoutFamilies) {
            const ScalingPoint& p = row.at(f);
            if (!p.found) continue;
            CHECK(in_family(p.layout, f));
            CHECK(p.layout.devices() == row.size.devices());
            CHECK(p.result.valid());
            CHECK(p.throughput == p.result.tokens_per_s);
            CHECK(any.throughput >= p.throughput); // 3D is the best of every layout
            CHECK(any.scaling_efficiency >= p.scaling_efficiency);
        }
        tensor_seen = tensor_seen || row.at(LayoutFamily::tensor).found;
        pipeline_seen = pipeline_seen || row.at(LayoutFamily::pipeline).found;
        model_seen = model_seen || row.at(LayoutFamily::model).found;
    }
    CHECK(tensor_seen);
    CHECK(pipeline_seen);
    CHECK(model_seen);

    // Deterministic: the same curves again, to the bit.
    const ScalingCurves again = scaling_curves(sc, node, sizes);
    CHECK(again.evaluated == c.evaluated);
    REQUIRE(again.rows.size() == c.rows.size());
    for (std::size_t i = 0; i < c.rows.size(); ++i) {
        for (LayoutFamily f : kLayoutFamilies) {
            const ScalingPoint& p = c.rows[i].at(f);
            const ScalingPoint& q = again.rows[i].at(f);
            CHECK(p.found == q.found);
            CHECK(p.throughput == q.throughput);
            CHECK(layout_key(p.layout) == layout_key(q.layout));
        }
    }

    // The planner's efficiency for the searched plan at 2 nodes equals the curve's best point.
    Scenario two_nodes = with_layout_searched(sc);
    two_nodes.nodes = 2;
    const PlanReport rep = simulate_plan(two_nodes, node, nullptr);
    const ScalingPoint& at16 = c.rows[4].at(LayoutFamily::any);
    REQUIRE(c.rows[4].size.devices() == 16);
    CHECK_REL(rep.scaling_efficiency, at16.scaling_efficiency, 1e-12);
    CHECK(rep.scaling_reference_devices == c.baseline.devices);
}

TEST_CASE("scaling curves stop early when cancelled and report progress", "[sim][scaling]") {
    const Scenario sc = parsed("llama2-7b", R"("parallel": {"global_batch": 256})");
    const NodeSpec node = priced_a100_node();
    const std::vector<ScalingSize> sizes = scaling_sizes(8, 16);
    std::atomic<bool> cancel{false};
    std::vector<std::pair<int, int>> calls;
    ScalingOptions options;
    options.cancel = &cancel;
    options.progress = [&](int done, int total) {
        calls.emplace_back(done, total);
        if (done == 2) cancel.store(true);
    };
    const ScalingCurves c = scaling_curves(sc, node, sizes, options);
    CHECK(c.cancelled);
    CHECK(c.rows.size() == 2);
    CHECK(calls ==
          std::vector<std::pair<int, int>>{{1, int(sizes.size())}, {2, int(sizes.size())}});

    const ScalingCurves none =
        scaling_curves(sc, node, sizes, options); // cancelled before it starts
    CHECK(none.cancelled);
    CHECK(none.rows.empty());
    CHECK(none.evaluated == 0);
}

TEST_CASE("efficiency above 100 % is explained by what the reference needed", "[sim][scaling]") {
    ScalingBaseline b;
    b.devices = 2;
    b.samples_per_s = 10;
    b.layout.pp = 2;
    b.layout.recompute = Recompute::full;
    b.layout.zero = 3;
    b.layout.micro_batch = 1;
    Layout plan;
    plan.dp = 32;
    plan.micro_batch = 2;
    plan.zero = 1;
    plan.recompute = Recompute::selective;
    const std::string note = superlinear_scaling_note(b, plan, 32, 1.18);
    CHECK(note.find("118 %") != std::string::npos);
    CHECK(note.find("2-device reference") != std::string::npos);
    CHECK(note.find("full activation recompute") != std::string::npos);
    CHECK(note.find("ZeRO stage 3") != std::string::npos);
    CHECK(note.find("micro-batch 1") != std::string::npos);
    CHECK(note.find("2-stage pipeline") != std::string::npos);
    CHECK(superlinear_scaling_note(b, plan, 32, 0.97).empty());
    CHECK(superlinear_scaling_note(b, plan, 32, 1.004).empty()); // prints as 100 %

    // End to end: Llama 2 7B needs two A100s (recompute or a pipeline); 2 nodes scale above 100 %
    // and the plan's assumptions say why.
    Scenario sc = parsed("llama2-7b", R"("parallel": {"global_batch": 512})");
    sc.nodes = 2;
    const PlanReport rep = simulate_plan(sc, priced_a100_node(), nullptr);
    REQUIRE(rep.scaling_reference_devices > 1);
    REQUIRE(rep.scaling_efficiency > 1.005);
    int explained = 0;
    for (const std::string& a : rep.assumptions)
        explained += a.find("above 100 %") != std::string::npos;
    CHECK(explained == 1);
    // The reference configuration itself is at 100 % and says nothing about it.
    const ScalingBaseline b2 = scaling_baseline(sc, priced_a100_node(), nullptr);
    NodeSpec small = priced_a100_node();
    small.accelerators_per_node = b2.devices;
    const PlanReport ref = make_plan_report(sc, small, 1, b2.layout, nullptr);
    CHECK_REL(ref.scaling_efficiency, 1.0, 1e-12);
    for (const std::string& a : ref.assumptions)
        CHECK(a.find("above 100 %") == std::string::npos);
}
