// GPU serving engines run on the vLLM profile (vLLM, SGLang): SGLang's running-request cap, the
// admission of online arrivals while slots are free, and the host's time per sequence and step
// that the Python schedulers spend.
#include "clusterplan/sim/serving_plan.h"
#include "serving/serving_model.h"
#include "serving_fixture.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <string>

using namespace cp::sim;

namespace {

const ServingRun& published_run(const std::string& id) {
    for (const auto& r : published_serving_runs().runs)
        if (r.id == id) return r;
    FAIL("no run " << id);
    throw;
}

} // namespace

TEST_CASE("serving runs: SGLang holds up to 4096 running requests unless the run sets a cap, "
          "vLLM keeps its profile's") {
    const ServingRunSet set = parse_serving_runs(R"({
        "schema": "clusterplan.serving_runs/1", "sources": {"s": "a table"},
        "models": {"m": {"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8,
                         "ffn_hidden": 14336, "gated_mlp": true, "vocab": 128256}},
        "runs": [
          {"id": "a", "source": "s", "engine": "SGLang", "model": "m", "accelerator": "H100-80GB",
           "instance": "p5.48xlarge", "tp": 1, "weights": "bf16", "input_tokens": 128,
           "output_tokens": 128, "metric": "output_tokens_per_s", "value": 100},
          {"id": "b", "source": "s", "engine": "sglang", "model": "m", "accelerator": "H100-80GB",
           "instance": "p5.48xlarge", "tp": 1, "weights": "bf16", "input_tokens": 128,
           "output_tokens": 128, "metric": "output_tokens_per_s", "value": 100,
           "max_running_requests": 64},
          {"id": "c", "source": "s", "engine": "vllm", "model": "m", "accelerator": "H100-80GB",
           "instance": "p5.48xlarge", "tp": 1, "weights": "bf16", "input_tokens": 128,
           "output_tokens": 128, "metric": "output_tokens_per_s", "value": 100},
          {"id": "d", "source": "s", "engine": "vllm", "model": "m", "accelerator": "H100-80GB",
           "instance": "p5.48xlarge", "tp": 1, "weights": "bf16", "input_tokens": 128,
           "output_tokens": 128, "metric": "output_tokens_per_s", "value": 100,
           "max_num_seqs": 1024}]})");
    REQUIRE(set.runs.size() == 4);
    CHECK(set.runs[0].engine == ServingEngine::vllm);
    CHECK(set.runs[0].max_batch == 4096);
    CHECK(set.runs[1].max_batch == 64);
    CHECK(set.runs[2].max_batch == 0);
    CHECK(set.runs[3].max_batch == 1024);
}

TEST_CASE("serving runs: online arrivals beyond the decode capacity wait in the running batch "
          "while slots are free, in front of the prefill once they are full") {
    auto& fx = cp::test::serving_fixture();
    // SGLang on 4 x H200 at 16 requests/s (3200 requests of ~509 in / 513 out): it completes
    // ~8.4/s (4288 tok/s) with a 0.61 s median TTFT and a 179 ms median ITL; the backlog is in
    // its batch of up to ~1400 KV-resident sequences.
    const std::string stem = "sglang-h200-llama3.3-70b-tp4-random1024-509x513-qps16";
    const ServingRun& ttft = published_run(stem + "-ttft-p50");
    const ServingRun& itl = published_run(stem + "-itl-p50");
    const NodeSpec node = fx.node(ttft.instance);
    const double ttft_ms = predict_serving_run(ttft, node, fx.factors);
    CHECK(ttft_ms < 1000.0);
    CHECK(predict_serving_run(itl, node, fx.factors) >
          5 * predict_serving_run(published_run("sglang-h200-llama3.3-70b-tp4-"
                                                "random1024-509x534-qps1-itl-p50"),
                                  node, fx.factors));
    // Capped at vLLM's 256 sequences the same arrivals queue for a slot: TTFT grows by tens of
    // seconds (request k waits k x (1/mu - 1/lambda)).
    ServingRun capped = ttft;
    capped.max_batch = 256;
    CHECK(predict_serving_run(capped, node, fx.factors) > 20 * ttft_ms);
}

TEST_CASE("serving factors: the Python schedulers' host time per sequence and step is fitted "
          "for the vLLM profile and absent from TensorRT-LLM's C++ runtime") {
    auto& fx = cp::test::serving_fixture();
    const EngineFactors& vllm = fx.factors.of(ServingEngine::vllm);
    const EngineFactors& trt = fx.factors.of(ServingEngine::tensorrt_llm);
    // Fitted on the offline runs of vLLM 0.6 and SGLang: ~12 us per sequence and step, the order
    // the vLLM v0.6.0 update reports (62 % of an H100's time in the API server and scheduler at
    // ~256 sequences and ~10 ms steps before its fixes).
    CHECK(vllm.k_of(ServingTerm::host_seq_overhead) > 2e-6);
    CHECK(vllm.k_of(ServingTerm::host_seq_overhead) < 50e-6);
    CHECK(trt.k_of(ServingTerm::host_seq_overhead) == 0.0);
    // The term counts sequences: a step of 256 carries 256 times the host time of a step of one.
    const ServingRun& run =
        published_run("sglang030-a100-80gb-llama3.1-8b-tp1-sharegpt-offline-out");
    const NodeSpec node = fx.node(run.instance);
    const ServingSetup st = make_serving_setup(run.workload, node, run.engine, run.weights,
                                               run.kv_cache, run.tp, 1, nullptr);
    const double one = decode_step_terms(st, 1, 300)[ServingTerm::host_seq_overhead];
    const double many = decode_step_terms(st, 256, 300)[ServingTerm::host_seq_overhead];
    CHECK_REL(one, 1.0, 1e-12);
    CHECK_REL(many, 256.0, 1e-12);
    const ServingSetup trt_st = make_serving_setup(run.workload, node, ServingEngine::tensorrt_llm,
                                                   run.weights, run.kv_cache, run.tp, 1, nullptr);
    CHECK(decode_step_terms(trt_st, 256, 300)[ServingTerm::host_seq_overhead] == 0.0);
}

TEST_CASE("serving runs: a client sending waves spends its launches and worker starts in the run") {
    auto& fx = cp::test::serving_fixture();
    // llmperf before pull request 59 on one A10G: 64 clients, each wave waits for its slowest
    // request, and 56 of the 64 Ray workers start within the run.
    const ServingRun& run = published_run("llmperf-tgi204-a10g-llama3-8b-550x150-c64-out");
    REQUIRE(run.waves);
    CHECK(run.waves->requests == 100);
    const NodeSpec node = fx.node(run.instance);
    ServingRun closed = run, instant = run;
    closed.waves.reset();
    instant.waves->launch_interval_s = 0;
    instant.waves->worker_start_s = 0;
    const double waves = predict_serving_run(run, node, fx.factors);
    // All at once and nothing to start: still below clients that each send on completion (a wave
    // idles while its last requests finish).
    const double at_once = predict_serving_run(instant, node, fx.factors);
    CHECK(waves < at_once);
    CHECK(at_once < predict_serving_run(closed, node, fx.factors));
    // Prompts launched in turn queue less for their prefill than a wave launched at once.
    ServingRun first = run, first_at_once = instant;
    first.metric = first_at_once.metric = ServingMetric::ttft_ms;
    CHECK(predict_serving_run(first, node, fx.factors) <
          predict_serving_run(first_at_once, node, fx.factors));
}

TEST_CASE("serving runs: TGI adds waiting prompts to a running batch only in groups") {
    auto& fx = cp::test::serving_fixture();
    // TGI 2.0.4 on one A10G, 16 llmperf clients: waiting prompts join once they number 1.2 x the
    // running batch or after 20 decode steps, so its TTFT (476 ms) is above NIM's (336 ms), whose
    // in-flight batching admits them at the next iteration. The same run on TensorRT-LLM's
    // profile (TGI borrows its factors) admits at once.
    const ServingRun& run = published_run("llmperf-tgi204-a10g-llama3-8b-550x150-c16-ttft");
    CHECK(engine_policy(ServingEngine::tgi).max_waiting_steps == 20);
    ServingRun every_step = run;
    every_step.engine = ServingEngine::tensorrt_llm;
    const NodeSpec node = fx.node(run.instance);
    const double tgi_ms = predict_serving_run(run, node, fx.factors);
    CHECK(tgi_ms > predict_serving_run(every_step, node, fx.factors) + 150.0);
    // One client alone never waits for a group.
    ServingRun alone = run;
    alone.concurrency = 1;
    every_step.concurrency = 1;
    CHECK_REL(predict_serving_run(alone, node, fx.factors),
              predict_serving_run(every_step, node, fx.factors), 0.05);
}
TEST_CASE("serving runs: an overlap scheduler's next batch is already launched when a request "
          "arrives, so its first token waits one decode step more") {
    auto& fx = cp::test::serving_fixture();
    // SGLang v0.4+ on 4 x H200 at 8 requests/s: the run states the overlap scheduler.
    ServingRun run = published_run("sglang-h200-llama3.3-70b-tp4-random1024-510x508-qps8-ttft-p50");
    REQUIRE(run.overlap_schedule);
    const NodeSpec node = fx.node(run.instance);
    const double overlapped_ms = predict_serving_run(run, node, fx.factors);
    ServingRun itl = published_run("sglang-h200-llama3.3-70b-tp4-random1024-510x508-qps8-itl-p50");
    // The iteration under way is a decode step or a prefill: the mean gap, prefills included.
    itl.quantile = kUnknown;
    const double step_ms = predict_serving_run(itl, node, fx.factors);
    run.overlap_schedule = false;
    const double serial_ms = predict_serving_run(run, node, fx.factors);
    // Every arrival finds others decoding at this load, so the extra wait is the whole step at
    // the run's time-averaged batch; the requests' mean gap is at the batch each request sees,
    // above it by the share of the run that ramps and drains (one stay of 30 s in 300 s of
    // arrivals: serving_run_profile.h).
    CHECK(overlapped_ms - serial_ms < step_ms);
    CHECK_REL(overlapped_ms - serial_ms, step_ms, 0.05);
    // The planner takes SGLang's current default (overlap on since v0.4), not vLLM's.
    CHECK(engine_overlap_schedule("SGLang"));
    CHECK_FALSE(engine_overlap_schedule("vllm"));
    // SGLang 0.3 runs state no overlap scheduler (it came with v0.4).
    CHECK_FALSE(published_run("sglang030-a100-80gb-llama3.1-8b-tp1-sharegpt-qps4-ttft-p50")
                    .overlap_schedule);
}

TEST_CASE("serving runs: an engine that hands a step's tokens out during the next step shows a "
          "lone client its first token one decode step after the prefill") {
    auto& fx = cp::test::serving_fixture();
    // vLLM 0.7.3 (V0, CUDA graphs) on one H100, one request at a time: the run states the
    // asynchronous output processor.
    ServingRun run = published_run("accelmark-vllm073-h100-llama3-8b-tp1-interactive-ttft-p50");
    REQUIRE(run.async_output_processing);
    const NodeSpec node = fx.node(run.instance);
    const double lagged_ms = predict_serving_run(run, node, fx.factors);
    const double step_ms = predict_serving_run(
        published_run("accelmark-vllm073-h100-llama3-8b-tp1-interactive-tpot-p50"), node,
        fx.factors);
    run.async_output_processing = false;
    CHECK_REL(lagged_ms - predict_serving_run(run, node, fx.factors), step_ms, 0.02);
    // Runs that state nothing keep the first token at the end of its prefill.
    CHECK_FALSE(published_run("vllm060-a100-80gb-llama3.1-8b-tp1-sharegpt-qps4-ttft-p50")
                    .async_output_processing);
}

TEST_CASE("serving runs: the median gap between tokens is a decode step alone while fewer than "
          "half the iterations encode a prompt") {
    auto& fx = cp::test::serving_fixture();
    // SGLang at 1 request/s: few iterations hold a prompt's prefill.
    ServingRun run = published_run("sglang-h200-llama3.3-70b-tp4-random1024-509x534-qps1-itl-p50");
    REQUIRE(run.per_gap);
    const NodeSpec node = fx.node(run.instance);
    const double median_ms = predict_serving_run(run, node, fx.factors);
    ServingRun mean = run;
    mean.quantile = kUnknown;
    const double mean_ms = predict_serving_run(mean, node, fx.factors);
    CHECK(median_ms < mean_ms);
    // A request's TPOT (its own mean over its tokens) carries the prefills: their mean over
    // requests is the mean gap.
    ServingRun tpot = mean;
    tpot.per_gap = false;
    CHECK_REL(predict_serving_run(tpot, node, fx.factors), mean_ms, 1e-9);
    // At 16 requests/s most iterations encode a prompt: the median gap is one of those, the run's
    // mean step with its prefills; the requests' mean gap, at the batch each request sees
    // (serving_run_profile.h), exceeds it only by the run's ramp and drain.
    ServingRun busy =
        published_run("sglang-h200-llama3.3-70b-tp4-random1024-509x513-qps16-itl-p50");
    ServingRun busy_mean = busy;
    busy_mean.quantile = kUnknown;
    const double busy_ms = predict_serving_run(busy, node, fx.factors);
    const double busy_mean_ms = predict_serving_run(busy_mean, node, fx.factors);
    CHECK(busy_ms < busy_mean_ms);
    CHECK_REL(busy_ms, busy_mean_ms, 0.25);
}

TEST_CASE("serving runs: a wave of prompts sent at once waits for the prefill iterations ahead "
          "of it, all of them where one iteration takes every waiting prompt") {
    auto& fx = cp::test::serving_fixture();
    // LMDeploy 0.1 (TurboMind) on one A100-80G, Llama 2 7B, 2048/128: one client's first token
    // 139 ms, sixteen clients started together 2.9 s (16 prompts' prefill).
    const std::string stem = "lmdeploy010-a100-80gb-llama2-7b-tp1-";
    const ServingRun& one = published_run(stem + "c1-2048x128-ttft");
    const ServingRun& wave = published_run(stem + "c16-2048x128-ttft");
    const NodeSpec node = fx.node(one.instance);
    const double alone_ms = predict_serving_run(one, node, fx.factors);
    const double wave_ms = predict_serving_run(wave, node, fx.factors);
    CHECK(wave_ms > 12 * alone_ms);
    CHECK(wave_ms < 17 * alone_ms);
    // An engine that takes one 2048-token prompt per iteration (a 2048-token budget) gives the
    // k-th prompt its first token after k prefills: (16 + 1) / 2 on average.
    ServingRun chunked = wave;
    chunked.prefill_tokens_per_iteration = 2048;
    const double chunked_ms = predict_serving_run(chunked, node, fx.factors);
    CHECK(chunked_ms > 6 * alone_ms);
    CHECK(chunked_ms < 0.7 * wave_ms);
    // The KV pool the benchmark sized (1000 blocks of 128 tokens) holds the run's 64 sequences of
    // 2048/2048 for ~41 of them: the same run with twice the pool waits less.
    const ServingRun& kv_bound = published_run(stem + "c64-2048x2048-ttft");
    ServingRun roomy = kv_bound;
    roomy.kv_cache_tokens = 2 * kv_bound.kv_cache_tokens;
    CHECK(predict_serving_run(roomy, node, fx.factors) <
          0.5 * predict_serving_run(kv_bound, node, fx.factors));
}
