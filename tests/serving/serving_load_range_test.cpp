// Published open-stream latencies (a Poisson stream at a stated rate, no run length: MLPerf
// Server, steady-state benchmarks) against the load range a plan states (ServingLoadRange): the
// latency at the run's rate with the replica's capacity at either end of the throughput range of
// its engine and accelerator generation. Near capacity the point misses by the capacity error
// times 1/(1 - utilisation); the range is what the model can say there. Runs marked range_only
// (a rate past the model's capacity) are checked here only.
#include "clusterplan/sim/framework.h"
#include "clusterplan/sim/serving_fit.h"
#include "clusterplan/sim/serving_interval.h"
#include "clusterplan/sim/serving_runs.h"
#include "serving_fixture.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <limits>

using namespace cp::sim;

namespace {

// The run's figure with every device time k times the model's: the model's figure at k x the
// rate, times k (a queue sees only rate x time); +infinity past capacity.
double figure_at(const ServingRun& run, const NodeSpec& node, const ServingFactors& factors,
                 double k) {
    ServingRun capacity = run;
    capacity.metric = ServingMetric::output_tokens_per_s;
    capacity.request_rate_per_s = kUnknown;
    const double tokens_per_s = predict_serving_run(capacity, node, factors);
    if (k * run.request_rate_per_s * run.output_tokens >= tokens_per_s)
        return std::numeric_limits<double>::infinity();
    ServingRun scaled = run;
    scaled.request_rate_per_s = k * run.request_rate_per_s;
    return k * predict_serving_run(scaled, node, factors);
}

} // namespace

TEST_CASE("published open-stream latencies lie within the range the capacity's range gives at "
          "their rate",
          "[validation]") {
    auto& fx = cp::test::serving_fixture();
    int rows = 0, in_range = 0;
    for (const ServingRun& run : published_serving_runs().runs) {
        const bool latency =
            run.metric == ServingMetric::ttft_ms || run.metric == ServingMetric::tpot_ms;
        if (!latency || !is_known(run.request_rate_per_s) || run.requests > 0 ||
            run.concurrency > 0 || run.output_tokens < 1)
            continue;
        const auto node = fx.resolve(run.instance);
        REQUIRE(node);
        const PredictionInterval iv =
            serving_intervals(run.engine, accelerator_generation(node->accelerator),
                              routes_experts(run.workload))
                .throughput;
        const double point = figure_at(run, *node, fx.factors, 1.0);
        const double low = figure_at(run, *node, fx.factors, std::min(1.0, iv.low_factor));
        const double high = figure_at(run, *node, fx.factors, std::max(1.0, iv.high_factor));
        INFO(run.id);
        CHECK(low <= point);
        CHECK(high >= point);
        const bool inside = run.value >= low && run.value <= high;
        ++rows;
        in_range += inside ? 1 : 0;
        std::printf("RANGE %-62s measured %9.2f model %9.2f range %9.2f - %9.2f %s%s\n",
                    run.id.c_str(), run.value, point, low, high, inside ? "in" : "OUT",
                    run.range_only ? " (range only)" : "");
    }
    std::printf("open-stream latencies within the capacity range: %d of %d\n", in_range, rows);
    REQUIRE(rows > 0);
    // The throughput range covers 80 % of comparable runs' capacities; the latencies it sets
    // cover as many of the published ones (two systems whose capacity the model misses by more
    // than the range, 7 % and 19 % low, are outside it).
    CHECK(in_range >= kIntervalConfidence * rows);
}

TEST_CASE("published serving runs: range_only is for a held-out latency at a rate") {
    const std::string head = R"({"schema": "clusterplan.serving_runs/1", "sources": {"s": "t"},
        "models": {"m": {"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8,
        "ffn_hidden": 14336, "gated_mlp": true, "vocab": 128256}},
        "runs": [{"id": "a", "source": "s", "engine": "vllm", "model": "m", "accelerator": "A100",
        "instance": "p4de.24xlarge", "tp": 1, "weights": "bf16", "input_tokens": 128,
        "output_tokens": 64, "value": 100, "range_only": true, )";
    const ServingRunSet ok = parse_serving_runs(
        head + R"("metric": "ttft_ms", "request_rate_per_s": 2, "fit": false}]})");
    REQUIRE(ok.runs.size() == 1);
    CHECK(ok.runs[0].range_only);
    for (const char* bad : {R"("metric": "ttft_ms", "request_rate_per_s": 2}]})",
                            R"("metric": "ttft_ms", "fit": false}]})",
                            R"("metric": "output_tokens_per_s", "request_rate_per_s": 2,
                                "fit": false}]})"}) {
        INFO(bad);
        CHECK_THROWS_WITH(parse_serving_runs(head + bad), Catch::Contains("range_only"));
    }
}
