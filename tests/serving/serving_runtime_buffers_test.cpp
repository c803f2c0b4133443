// TensorRT-LLM's runtime and decoder buffers, sized by the engine build's max batch and the
// vocabulary and allocated before the KV cache: the profile's bytes per slot and vocabulary entry
// are the value that fits the published runs stating their build's max batch (trtllm-bench and
// gptManagerBenchmark tables of releases 0.10-0.12), and they cost Llama 3's 128k-entry vocabulary
// KV room that Llama 2's 32k-entry one keeps.
#include "clusterplan/sim/serving_engine.h"
#include "clusterplan/sim/serving_fit.h"
#include "clusterplan/sim/serving_plan.h"
#include "serving_fixture.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <vector>

using namespace cp::sim;

namespace {

std::vector<ServingRun> runs_stating_build_batch() {
    std::vector<ServingRun> out;
    for (const ServingRun& r : published_serving_runs().runs)
        if (r.engine == ServingEngine::tensorrt_llm && r.max_batch > 0 && r.output_tokens > 0 &&
            r.metric == ServingMetric::output_tokens_per_s)
            out.push_back(r);
    return out;
}

// Mean |log(model / measured)| over `runs` with the buffers at `bytes` per slot and vocabulary
// entry (symmetric: a prediction half and one twice the measurement weigh the same).
double mean_log_error(std::vector<ServingRun> runs, double bytes) {
    auto& fx = cp::test::serving_fixture();
    double sum = 0;
    int n = 0;
    for (ServingRun& r : runs) {
        r.runtime_bytes_per_slot_vocab = bytes;
        const double p = predict_serving_run(r, fx.node(r.instance), fx.factors);
        if (!std::isfinite(p)) continue;
        sum += std::abs(std::log(std::max(p, 1e-9) / r.value));
        ++n;
    }
    return n ? sum / n : 0;
}

} // namespace

TEST_CASE("serving: TensorRT-LLM's runtime buffer bytes per slot and vocabulary entry are the fit "
          "over the runs stating their build's max batch") {
    const std::vector<ServingRun> runs = runs_stating_build_batch();
    REQUIRE(runs.size() > 100);
    // Whole bytes from 0 to 45, the runtime's and decoder's whole allocation per slot and entry in
    // trtllm-bench 0.12's log (it holds buffers that do not scale with the vocabulary as well):
    // every 5 bytes, then each byte around the best.
    auto best_in = [&](int from, int to, int step) {
        int best = from;
        double best_error = mean_log_error(runs, from);
        for (int b = from + step; b <= to; b += step)
            if (const double e = mean_log_error(runs, b); e < best_error) {
                best_error = e;
                best = b;
            }
        return best;
    };
    const int coarse = best_in(0, 45, 5);
    const int fitted = best_in(std::max(0, coarse - 4), std::min(45, coarse + 4), 1);
    const double committed =
        engine_policy(ServingEngine::tensorrt_llm).runtime_bytes_per_slot_vocab;
    if (std::abs(committed - fitted) > 0.5)
        std::printf("fitted TensorRT-LLM runtime buffer bytes per slot and vocabulary entry: %d "
                    "(committed %.1f; %.2f vs %.2f mean |log error| over %zu runs)\n",
                    fitted, committed, mean_log_error(runs, fitted),
                    mean_log_error(runs, committed), runs.size());
    CHECK(std::abs(committed - fitted) <= 0.5);
}

TEST_CASE(
    "serving: an engine built for 8192 sequences leaves Llama 3 70B less KV room than Llama 2 "
    "70B on eight FP16 H100s") {
    auto& fx = cp::test::serving_fixture();
    auto plan_for = [&](const char* preset) {
        ServingRequest req;
        req.workload = cp::test::preset_workload(preset);
        req.spec.engine = ServingEngine::tensorrt_llm;
        req.spec.weights = StorageType::fp16;
        req.spec.tp = 8;
        req.spec.input_tokens = 128;
        req.spec.output_tokens = 4096;
        req.spec.engine_max_batch = 8192;
        return plan_serving(req, fx.node("p5.48xlarge"), fx.factors, nullptr);
    };
    const ServingPlan llama2 = plan_for("llama2-70b");
    const ServingPlan llama3 = plan_for("llama3-70b");
    REQUIRE(llama2.valid);
    REQUIRE(llama3.valid);
    // 8192 slots x 128,256 entries against 32,000: four times the buffers, which come out of the
    // KV cache.
    CHECK(llama3.memory.activations > 3.0 * llama2.memory.activations);
    CHECK(llama3.memory.kv_cache < llama2.memory.kv_cache);
}
