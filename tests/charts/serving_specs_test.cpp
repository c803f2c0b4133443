// Serving chart specs: one curve per distinct replica with the SLO line and the operating
// point, cost bars on demand and spot per priced plan, memory bars that end at the capacity.
#include "serving_specs.h"
#include "tolerance.h"

#include <catch2/catch.hpp>

using namespace cp::charts;

namespace {

cp::sim::ServingPlan plan(const char* instance, const char* accelerator, int tp, double usd) {
    cp::sim::ServingPlan p;
    p.instance = instance;
    p.accelerator = accelerator;
    p.valid = true;
    p.meets_slo = true;
    p.tp = tp;
    p.batch = 64;
    p.replicas = 2;
    p.nodes = 2;
    p.output_tokens = 256;
    p.request_rate_per_s = 4;
    p.ttft_ms = 200;
    p.tpot_ms = 30;
    p.slo.ttft_ms = 500;
    p.slo.tpot_ms = 50;
    p.usd_per_million_output_tokens = usd;
    p.spot.usd_per_million_output_tokens = usd / 2;
    p.memory = {8, 10, 1, 1.5, 20.5, 24};
    for (int i = 1; i <= 10; ++i)
        p.curve.push_back({0.4 * i, 100.0 * i * tp, 100.0 + 40 * i * i, 20.0 + i, 0});
    return p;
}

} // namespace

TEST_CASE("Serving curves: one line per replica, the SLO and the operating point",
          "[charts][serving]") {
    auto big = plan("g6.2xlarge", "L4", 1, 0.3); // the same replica as g6.xlarge
    auto broken = plan("g5.xlarge", "A10G", 1, 0.1);
    broken.valid = false;
    const std::vector<cp::sim::ServingPlan> plans = {plan("g6.xlarge", "L4", 1, 0.2), broken, big,
                                                     plan("p5.48xlarge", "H100", 2, 0.9)};
    const ChartSpec ttft = serving_curve_spec(plans, ServingLatency::ttft);
    REQUIRE(ttft.series.size() == 3); // g6.xlarge, p5.48xlarge, the operating point
    CHECK(ttft.series[0].name == QStringLiteral("#1 g6.xlarge ×2"));
    CHECK(ttft.series[1].name == QStringLiteral("#3 p5.48xlarge ×2"));
    CHECK(ttft.series[0].points.size() == 10);
    CHECK(ttft.series[2].emphasised);
    // 4 requests/s over 2 replicas, 256 tokens each: 512 output tokens/s per replica.
    CHECK_REL(ttft.series[2].points.front().x(), 512.0, 1e-12);
    CHECK_REL(ttft.series[2].points.front().y(), 200.0, 1e-12);
    REQUIRE(ttft.reference_lines.size() == 1);
    CHECK_FALSE(ttft.reference_lines.front().vertical);
    CHECK_REL(ttft.reference_lines.front().value, 500.0, 1e-12);
    const ChartSpec tpot = serving_curve_spec(plans, ServingLatency::tpot, 1);
    REQUIRE(tpot.series.size() == 2);
    CHECK_REL(tpot.reference_lines.front().value, 50.0, 1e-12);
    CHECK_REL(tpot.series[0].points.back().y(), 30.0, 1e-12);
}

TEST_CASE("Serving cost and memory bars", "[charts][serving]") {
    auto unpriced = plan("g6e.xlarge", "L40S", 1, std::nan(""));
    const std::vector<cp::sim::ServingPlan> plans = {plan("g6.xlarge", "L4", 1, 0.2), unpriced,
                                                     plan("inf2.xlarge", "Inferentia2", 2, 0.5)};
    const ChartSpec cost = serving_cost_spec(plans);
    REQUIRE(cost.categories.size() == 2);
    CHECK(cost.categories[1] == QStringLiteral("#3 inf2.xlarge ×2"));
    REQUIRE(cost.series.size() == 2);
    CHECK_REL(cost.series[0].points[1].y(), 0.5, 1e-12);
    CHECK_REL(cost.series[1].points[1].y(), 0.25, 1e-12);
    const ChartSpec memory = serving_memory_spec(plans);
    REQUIRE(memory.categories.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) {
        double sum = 0;
        for (const auto& s : memory.series)
            sum += s.points[i].y();
        CHECK_REL(sum, 24.0, 1e-12); // the bar ends at the device's capacity
    }
}
