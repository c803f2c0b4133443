// Validation against published serving measurements (resources/serving/published_runs.json; the
// sources are described in tests/data/validation/inference/README.md): every run answered, mean
// error per source <= 15 % for throughput and for latency figures, printed with the maximum and
// the leave-one-source-out error (factors refitted without the source). SERVING_DUMP=<source key>
// prints every run of that source with the model's figure ("*": every run).
#include "clusterplan/sim/serving_plan.h"
#include "clusterplan/sim/serving_wording.h"
#include "serving/serving_eval.h"
#include "serving_error_bounds.h"
#include "serving_fixture.h"
#include "tolerance.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <vector>

using namespace cp::sim;

namespace {

bool is_throughput(ServingMetric m) {
    return m == ServingMetric::output_tokens_per_s || m == ServingMetric::samples_per_s;
}

struct Stats {
    int n = 0;
    std::vector<const ServingRunCheck*> worst;
    double sum = 0, max = 0, sum_left_out = 0;
    void add(double e, double e_left_out) {
        ++n;
        sum += e;
        max = std::max(max, e);
        sum_left_out += e_left_out;
    }
    double mean() const { return n ? sum / n : 0; }
    double mean_left_out() const { return n ? sum_left_out / n : 0; }
};

} // namespace

TEST_CASE("serving model against published serving runs: every run answered, mean error <= 15 % "
          "per source") {
    auto& fx = cp::test::serving_fixture();
    const auto checks = validate_serving_runs(published_serving_runs(), fx.resolve);
    REQUIRE(checks.size() == published_serving_runs().runs.size());
    std::map<std::pair<std::string, bool>, Stats> by_source;
    for (const auto& c : checks) {
        INFO(c.run->id << ": " << c.why);
        CHECK(std::isfinite(c.predicted));
        CHECK(std::isfinite(c.predicted_left_out));
        if (!std::isfinite(c.predicted)) continue;
        if (const char* dump = std::getenv("SERVING_DUMP");
            dump && (std::string(dump) == "*" || c.run->source == dump))
            std::printf("ROW %-62s measured %10.2f model %10.2f err %6.1f left out %10.2f\n",
                        c.run->id.c_str(), c.run->value, c.predicted, 100 * c.error(),
                        c.predicted_left_out);
        if (c.run->range_only) continue; // checked as a range (serving_load_range_test.cpp)
        Stats& s = by_source[{c.run->source, is_throughput(c.run->metric)}];
        s.add(c.error(), c.error_left_out());
        s.worst.push_back(&c);
    }
    std::printf("\nserving validation (%zu runs): mean / max error in sample; mean leaving the "
                "source out\n",
                checks.size());
    for (const auto& [key, s] : by_source) {
        std::printf("  %-22s %-10s n=%3d  mean %5.1f %%  max %6.1f %%  left out %6.1f %%\n",
                    key.first.c_str(), key.second ? "throughput" : "latency", s.n, 100 * s.mean(),
                    100 * s.max, 100 * s.mean_left_out());
        auto worst = s.worst;
        std::sort(worst.begin(), worst.end(),
                  [](auto* a, auto* b) { return a->error() > b->error(); });
        for (std::size_t i = 0; i < std::min<std::size_t>(4, worst.size()); ++i)
            std::printf("      worst: %-58s measured %10.2f  model %10.2f\n",
                        worst[i]->run->id.c_str(), worst[i]->run->value, worst[i]->predicted);
        INFO(key.first << (key.second ? " throughput" : " latency") << " mean " << 100 * s.mean()
                       << " %");
        CHECK(s.mean() <= mean_error_bound(key.first, key.second));
    }
    for (int e = 0; e < kServingEngineCount; ++e) {
        const auto engine = static_cast<ServingEngine>(e);
        std::printf("  %s\n", serving_factors_sentence(engine, fx.factors.of(engine)).c_str());
        if (!fx.factors.forward[static_cast<std::size_t>(e)].runs.empty())
            std::printf("  forward passes: %s\n",
                        serving_factors_sentence(engine, fx.factors.of(engine, false)).c_str());
    }
}

TEST_CASE(
    "serving: Llama 3.1 70B FP8 128 in / 2048 out on one H100 is KV-bound, on one H200 it is not") {
    auto& fx = cp::test::serving_fixture();
    const auto& runs = published_serving_runs().runs;
    auto find = [&](const std::string& id) -> const ServingRun& {
        for (const auto& r : runs)
            if (r.id == id) return r;
        FAIL("no run " << id);
        throw;
    };
    const ServingRun& h100 = find("trtllm017-h100-80gb-llama3.1-70b-tp1-128x2048");
    const ServingRun& h200 = find("trtllm017-h200-141gb-llama3.1-70b-tp1-128x2048");
    const double on_h100 = predict_serving_run(h100, fx.node(h100.instance), fx.factors);
    const double on_h200 = predict_serving_run(h200, fx.node(h200.instance), fx.factors);
    // Published 911.62 vs 4165.68 tok/s: the H100 holds ~30 sequences of 2176 tokens in the ~10 GiB
    // the FP8 weights leave, the H200 ~200.
    CHECK(on_h200 / on_h100 > 3.0);
    CHECK_REL(on_h100, 911.62, 0.35);
    CHECK_REL(on_h200, 4165.68, 0.35);

    ServingRequest req;
    req.workload = h100.workload;
    req.spec.engine = ServingEngine::tensorrt_llm;
    req.spec.weights = StorageType::fp8;
    req.spec.tp = 1;
    req.spec.input_tokens = 128;
    req.spec.output_tokens = 2048;
    const ServingPlan plan = plan_serving(req, fx.node("p5.48xlarge"), fx.factors, nullptr);
    REQUIRE(plan.valid);
    CHECK(plan.limits.kv_bound);
    CHECK(plan.batch < 64);
    CHECK(plan.memory.kv_cache < 16.0);
}

TEST_CASE("published serving runs: engine, storage and metric names as tables spell them") {
    const ServingRunSet set = parse_serving_runs(R"({
        "schema": "clusterplan.serving_runs/1",
        "sources": {"s": "a table"},
        "models": {"m": {"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8,
                         "ffn_hidden": 14336, "gated_mlp": true, "vocab": 128256}},
        "runs": [
          {"id": "a", "source": "s", "engine": "SGLang", "model": "m", "accelerator": "H100-80GB",
           "instance": "p5.48xlarge", "tp": 2, "weights": "bfloat16", "input_tokens": 128,
           "output_tokens": 128, "metric": "output_tokens_per_s_per_gpu", "value": 100},
          {"id": "b", "source": "s", "engine": "trtllm", "model": "m", "accelerator": "H100-80GB",
           "instance": "p5.48xlarge", "tp": 1, "weights": "fp8_e4m3", "input_tokens": 128,
           "output_tokens": 128, "metric": "ITL_ms_p99", "value": 10, "concurrency": 8},
          {"id": "c", "source": "s", "engine": "DeepSpeed-MII", "model": "m",
           "accelerator": "H100-80GB", "instance": "p5.48xlarge", "tp": 1, "weights": "bf16",
           "input_tokens": 128, "output_tokens": 128, "metric": "ttft_s_median", "value": 0.25,
           "replicas": 8}]})");
    REQUIRE(set.runs.size() == 3);
    CHECK(set.runs[2].replicas == 8);
    CHECK(set.runs[2].engine == ServingEngine::vllm);
    CHECK(set.runs[2].metric == ServingMetric::ttft_ms);
    CHECK(set.runs[2].value == 250);
    CHECK(set.runs[2].quantile == 0.5);
    CHECK(set.runs[0].engine == ServingEngine::vllm);
    CHECK(set.runs[0].weights == StorageType::bf16);
    CHECK(set.runs[0].metric == ServingMetric::output_tokens_per_s);
    CHECK(set.runs[0].value == 200); // per GPU x tp
    CHECK(set.runs[1].engine == ServingEngine::tensorrt_llm);
    CHECK(set.runs[1].weights == StorageType::fp8);
    CHECK(set.runs[1].metric == ServingMetric::tpot_ms);
    CHECK(set.runs[1].quantile == 0.99);
    CHECK(set.runs[1].concurrency == 8);
}

TEST_CASE("published serving runs: a system of data-parallel replicas serves their summed "
          "throughput at one replica's latency") {
    auto& fx = cp::test::serving_fixture();
    for (const auto& run : published_serving_runs().runs) {
        if (run.id != "trtllm014-h100-80gb-llama3.1-8b-tp1-467x256-qps8-out" &&
            run.id != "trtllm014-h100-80gb-llama3.1-8b-tp1-467x256-qps8-ttft")
            continue;
        ServingRun system = run;
        system.replicas = 4;
        system.request_rate_per_s = 4 * run.request_rate_per_s;
        system.requests = 4 * run.requests;
        const double one = predict_serving_run(run, fx.node(run.instance), fx.factors);
        const double four = predict_serving_run(system, fx.node(run.instance), fx.factors);
        INFO(run.id);
        CHECK_REL(four, run.metric == ServingMetric::output_tokens_per_s ? 4 * one : one, 1e-9);
    }
}

TEST_CASE("published serving runs: figures counted in another tokenizer's tokens and per-token "
          "request latency") {
    auto& fx = cp::test::serving_fixture();
    for (const auto& run : published_serving_runs().runs) {
        if (run.id != "llmperf-tgi204-a10g-llama3-8b-550x150-c4-out" &&
            run.id != "llmperf-tgi204-a10g-llama3-8b-550x150-c4-itl")
            continue;
        const NodeSpec node = fx.node(run.instance);
        // The run in served tokens, its per-token figure the decode step.
        ServingRun base = run;
        base.counted_tokens_per_token = 1.0;
        base.per_token_of_request = false;
        base.input_tokens = int(std::lround(run.input_tokens / run.counted_tokens_per_token));
        base.output_tokens = int(std::lround(run.output_tokens / run.counted_tokens_per_token));
        const double served = predict_serving_run(base, node, fx.factors);
        // The same text counted as 1.2 tokens per served token: 1.2x the tokens per second and
        // 1/1.2 the latency per token.
        ServingRun counted = base;
        counted.counted_tokens_per_token = 1.2;
        counted.input_tokens = int(std::lround(base.input_tokens * 1.2));
        counted.output_tokens = int(std::lround(base.output_tokens * 1.2));
        const double p = predict_serving_run(counted, node, fx.factors);
        INFO(run.id);
        CHECK_REL(p,
                  base.metric == ServingMetric::output_tokens_per_s ? 1.2 * served : served / 1.2,
                  1e-9);
        if (base.metric != ServingMetric::tpot_ms) continue;
        // The request's latency over its tokens lies above the step: the first token's wait.
        ServingRun whole = base;
        whole.per_token_of_request = true;
        ServingRun first = base;
        first.metric = ServingMetric::ttft_ms;
        const double ttft = predict_serving_run(first, node, fx.factors);
        const double n = base.output_tokens;
        CHECK_REL(predict_serving_run(whole, node, fx.factors), (ttft + (n - 1) * served) / n,
                  1e-9);
        CHECK(predict_serving_run(whole, node, fx.factors) > served);
    }
    const ServingRunSet set = parse_serving_runs(R"({
        "schema": "clusterplan.serving_runs/1", "sources": {"s": "a table"},
        "models": {"m": {"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8,
                         "ffn_hidden": 14336, "gated_mlp": true, "vocab": 128256}},
        "runs": [{"id": "a", "source": "s", "engine": "vllm", "model": "m", "accelerator": "A10G",
                  "instance": "g5.2xlarge", "tp": 1, "weights": "bf16", "input_tokens": 550,
                  "output_tokens": 177, "metric": "request_latency_ms_per_token", "value": 30,
                  "counted_tokens_per_token": 1.18}]})");
    REQUIRE(set.runs.size() == 1);
    CHECK(set.runs[0].metric == ServingMetric::tpot_ms);
    CHECK(set.runs[0].per_token_of_request);
    CHECK(set.runs[0].counted_tokens_per_token == 1.18);
}

TEST_CASE("serving factors: engines fitted on decode steps stream weights and KV cache no faster "
          "than the device's peak bandwidth") {
    auto& fx = cp::test::serving_fixture();
    // The HBM size curve prices bytes at up to 0.8 of peak (model_constants.h kHbmSizeCurve), so
    // a factor below 0.8 would stream faster than the datasheet bandwidth.
    for (ServingEngine e : {ServingEngine::tensorrt_llm, ServingEngine::neuron}) {
        const EngineFactors& f = fx.factors.of(e);
        INFO(enum_name(e));
        REQUIRE_FALSE(f.runs.empty());
        CHECK(f.k_of(ServingTerm::weights) >= 0.8 - 1e-12);
        CHECK(f.k_of(ServingTerm::kv_cache) >= 0.8 - 1e-12);
    }
}

TEST_CASE("published serving runs: a model's head width is read, and a negative one is refused") {
    const std::string head = R"({"schema": "clusterplan.serving_runs/1", "sources": {"s": "t"},
        "models": {"m": {"layers": 64, "hidden": 5120, "heads": 64, "kv_heads": 8, "head_dim": )";
    const std::string tail = R"(, "ffn_hidden": 25600, "gated_mlp": true, "vocab": 151936}},
        "runs": [{"id": "a", "source": "s", "engine": "vllm", "model": "m", "accelerator": "A100",
        "instance": "p4de.24xlarge", "tp": 1, "weights": "bf16", "input_tokens": 128,
        "output_tokens": 4, "metric": "output_tokens_per_s", "value": 100}]})";
    const ServingRunSet set = parse_serving_runs(head + "128" + tail);
    REQUIRE(set.runs.size() == 1);
    CHECK(set.runs[0].workload.shape.attention_head_dim() == 128); // not 5120 / 64 = 80
    CHECK_THROWS_WITH(parse_serving_runs(head + "-1" + tail), Catch::Contains("head_dim"));
}

TEST_CASE("published serving runs: TensorRT-LLM's batch scheduler policy sets how the KV cache "
          "admits requests") {
    const std::string head = R"({"schema": "clusterplan.serving_runs/1", "sources": {"s": "t"},
        "models": {"m": {"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8,
                         "ffn_hidden": 14336, "gated_mlp": true, "vocab": 128256}},
        "runs": [{"id": "a", "source": "s", "engine": "tensorrt-llm", "model": "m",
                  "accelerator": "H100-80GB", "instance": "p5.48xlarge", "tp": 1,
                  "weights": "fp8", "input_tokens": 128, "output_tokens": 128,
                  "metric": "output_tokens_per_s", "value": 100)";
    CHECK_FALSE(parse_serving_runs(head + "}]}").runs[0].kv_admitted_by_use);
    const auto by_use =
        parse_serving_runs(head + R"(, "batch_scheduler_policy": "max_utilization"}]})");
    CHECK(by_use.runs[0].kv_admitted_by_use == std::optional<bool>(true));
    const auto reserved =
        parse_serving_runs(head + R"(, "batch_scheduler_policy": "Guaranteed_No_Evict"}]})");
    CHECK(reserved.runs[0].kv_admitted_by_use == std::optional<bool>(false));
    CHECK_THROWS_WITH(parse_serving_runs(head + R"(, "batch_scheduler_policy": "fcfs"}]})"),
                      Catch::Contains("batch_scheduler_policy"));

    // Llama 3.1 70B FP8 128 in / 2048 out on one H100 is KV-bound: admitted by the blocks in use
    // (input + output / 2 per request), the cache holds more requests than with each request's
    // whole sequence reserved, and the replica serves more tokens per second.
    auto& fx = cp::test::serving_fixture();
    for (const auto& run : published_serving_runs().runs) {
        if (run.id != "trtllm017-h100-80gb-llama3.1-70b-tp1-128x2048") continue;
        ServingRun use = run, reserve = run;
        use.kv_admitted_by_use = true;
        reserve.kv_admitted_by_use = false;
        const NodeSpec node = fx.node(run.instance);
        CHECK(predict_serving_run(use, node, fx.factors) >
              1.2 * predict_serving_run(reserve, node, fx.factors));
    }
}
