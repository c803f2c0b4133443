// How far an open-stream latency (MLPerf Server / Interactive: a Poisson rate, no run length)
// moves with the replica's capacity (DESIGN.md, "Serving near saturation"). A replica whose
// device times are all k times the model's serves the rate r as the model's replica serves k r,
// every time k times longer, so each row is printed at k = 0.98 and 1.02 and at the k that makes
// the model's Offline tokens/s the measured Offline figure of the same system (the row id before
// "-offline" / "-server": one submitter's system), with the model's running batch and utilisation
// at the row's rate. Diagnostic only (hidden: run it by name); it asserts nothing about the
// figures.
#include "clusterplan/sim/serving_fit.h"
#include "serving/serving_eval.h"
#include "serving/serving_run_setup.h"
#include "serving_fixture.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <map>
#include <string>

using namespace cp::sim;

namespace {

// The model's TTFT and TPOT of one replica at its share of the run's rate, times x k.
std::pair<double, double> latencies_at(const ServingRun& run, const NodeSpec& node,
                                       const ServingFactors& factors, double k,
                                       double* batch = nullptr, double* util = nullptr) {
    ServingRun one = run;
    one.replicas = 1;
    one.request_rate_per_s = run.request_rate_per_s / run.replicas;
    const ServingSetup st = run_setup(one, node);
    const EnginePolicy policy = run_policy(one, node);
    const EngineFactors& f = factors.of(factor_engine(one.engine, neuron_devices(st.hw)),
                                        serves_generation(st, one.output_tokens));
    const BatchPlan plan =
        plan_batch(st, policy, one.input_tokens, one.output_tokens, std::nullopt);
    const ServingCapacity cap =
        serving_capacity(st, policy, f, plan, one.input_tokens, one.output_tokens);
    const ServingLoad l = serving_load(st, policy, f, plan, cap, one.input_tokens,
                                       one.output_tokens, k * one.request_rate_per_s, one.quantile);
    if (batch) *batch = l.running_batch;
    if (util) *util = l.utilization;
    return {k * l.ttft_ms, k * l.tpot_ms};
}

} // namespace

TEST_CASE("open-stream latency against the replica's capacity", "[.diagnostic]") {
    auto& fx = cp::test::serving_fixture();
    const ServingRunSet& set = published_serving_runs();
    std::map<std::string, double> offline_k; // source + accelerator -> model / measured
    for (const ServingRun& run : set.runs)
        if (run.loadgen && run.output_tokens > 0 && !is_known(run.request_rate_per_s) &&
            run.metric == ServingMetric::output_tokens_per_s)
            if (const auto node = fx.resolve(run.instance))
                offline_k[run.id.substr(0, run.id.rfind("-offline"))] =
                    predict_serving_run(run, *node, fx.factors) / run.value;
    std::printf("%-62s %9s %9s %9s %9s %6s %9s\n", "open-stream latency row", "measured", "model",
                "k 0.98", "k 1.02", "k off", "k = off");
    for (const ServingRun& run : set.runs) {
        const bool ttft = run.metric == ServingMetric::ttft_ms;
        if (!is_known(run.request_rate_per_s) || run.requests > 0 || run.concurrency > 0 ||
            (!ttft && run.metric != ServingMetric::tpot_ms))
            continue;
        const auto node = fx.resolve(run.instance);
        if (!node) continue;
        auto pick = [&](double k) {
            const auto [t, s] = latencies_at(run, *node, fx.factors, k);
            return ttft ? t : s;
        };
        const auto off = offline_k.find(run.id.substr(0, run.id.rfind("-server")));
        double batch = 0, util = 0;
        latencies_at(run, *node, fx.factors, 1.0, &batch, &util);
        const double k_off = off == offline_k.end() ? kUnknown : off->second;
        std::printf("%-62s %9.1f %9.1f %9.1f %9.1f %6.3f %9.1f  batch %7.1f util %5.3f\n",
                    run.id.c_str(), run.value, predict_serving_run(run, *node, fx.factors),
                    pick(0.98), pick(1.02), k_off, is_known(k_off) ? pick(k_off) : kUnknown, batch,
                    util);
    }
}
