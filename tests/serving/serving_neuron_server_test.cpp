// TGI and vLLM on Neuron devices: the Neuron SDK's compiled graphs and factors, scheduled as
// servers (continuous batching, each arriving prompt encoded alone, decode at the compiled batch,
// a host loop per step, the host's sampling where the graphs return logits).
#include "clusterplan/sim/serving_fit.h"
#include "clusterplan/sim/serving_plan.h"
#include "serving/serving_eval.h"
#include "serving/serving_model.h"
#include "serving_fixture.h"
#include "tolerance.h"

#include <catch2/catch.hpp>

using namespace cp::sim;

namespace {

ServingRun published(const std::string& id) {
    for (const auto& r : published_serving_runs().runs)
        if (r.id == id) return r;
    FAIL("no run " << id);
    throw;
}

// The 2025 optimum-neuron TGI run of Llama 3.1 8B (three TP8 copies of batch 32) at one client.
const std::string kRun =
    "optneuron-tgi-inf2-llama3.1-8b-tp8x3-bs32-synchronous-2025-06-03-16-40-34";

double predict(const ServingRun& run) {
    auto& fx = cp::test::serving_fixture();
    return predict_serving_run(run, fx.node(run.instance), fx.factors);
}

// The run's model and types as one TP8 replica on `node`.
ServingSetup setup_tp8(const ServingRun& run, const NodeSpec& node) {
    return make_serving_setup(run.workload, node, run.engine, run.weights, run.kv_cache, 8, 1,
                              nullptr);
}

} // namespace

TEST_CASE("serving engines on Neuron devices: TGI and vLLM batch continuously on the neuron "
          "factors, other engines take the Neuron SDK's static profile") {
    for (ServingEngine e : {ServingEngine::tgi, ServingEngine::vllm}) {
        const EnginePolicy& p = engine_policy(e, true);
        CHECK(p.continuous_batching);
        CHECK_FALSE(p.gpu);
        CHECK(p.max_batch_tokens == 0); // one prompt per context-encoding pass
        CHECK(p.engine == e);
        CHECK(engine_policy(e, false).gpu);
    }
    CHECK_FALSE(engine_policy(ServingEngine::tensorrt_llm, true).continuous_batching);
    CHECK(factor_engine(ServingEngine::tgi, true) == ServingEngine::neuron);
    CHECK(factor_engine(ServingEngine::tgi, false) == ServingEngine::tgi);
    // The host loop per step is fitted on the Neuron servers' single-client steps.
    const EngineFactors& f = cp::test::serving_fixture().factors.of(ServingEngine::neuron);
    CHECK(f.k_of(ServingTerm::host_step_overhead) > 0);
}

TEST_CASE("a Neuron server encodes one client's prompt alone whatever its compiled batch, and "
          "decodes at the compiled batch") {
    const ServingRun ttft = published(kRun + "-ttft");
    ServingRun one_slot = ttft;
    one_slot.batch = 1;
    // The first token waits for one prompt's encoding (and the server's per-request work), not
    // the batch's: the same within the prompt queue's small share of the cycle.
    CHECK_REL(predict(ttft), predict(one_slot), 0.05);
    // The Neuron SDK's static profile encodes the whole compiled batch before the first token.
    ServingRun static_batch = ttft;
    static_batch.engine = ServingEngine::neuron;
    CHECK(predict(static_batch) > 10 * predict(ttft));

    const ServingRun step = published(kRun + "-itl");
    ServingRun small = step;
    small.batch = 1;
    // Empty slots are padded: 32 slots' KV cache and logits cost more than one.
    CHECK(predict(step) > 1.1 * predict(small));
}

TEST_CASE("copies behind a load balancer with one client: one copy busy, its own throughput") {
    const ServingRun out = published(kRun + "-out");
    REQUIRE(out.replicas == 3);
    ServingRun one = out;
    one.replicas = 1;
    CHECK_REL(predict(out), predict(one), 1e-9);
}

TEST_CASE("serve plans TGI on Inferentia2 as a Neuron server, and other GPU engines as the "
          "Neuron SDK") {
    auto& fx = cp::test::serving_fixture();
    ServingRequest req;
    req.workload = published(kRun + "-ttft").workload;
    req.spec.input_tokens = 1500;
    req.spec.output_tokens = 250;
    req.spec.tp = 8;
    req.spec.engine = ServingEngine::tgi;
    const ServingPlan tgi = plan_serving(req, fx.node("inf2.48xlarge"), fx.factors, nullptr);
    REQUIRE(tgi.valid);
    CHECK(tgi.engine == ServingEngine::tgi);
    CHECK(tgi.neuron);
    req.spec.engine = ServingEngine::tensorrt_llm;
    const ServingPlan trt = plan_serving(req, fx.node("inf2.48xlarge"), fx.factors, nullptr);
    CHECK(trt.engine == ServingEngine::neuron);
}

TEST_CASE("a prompt on Neuron is encoded at the next power-of-two bucket, on a GPU at its length") {
    const ServingRun run = published(kRun + "-ttft");
    auto& fx = cp::test::serving_fixture();
    for (const char* instance : {"inf2.48xlarge", "p4d.24xlarge"}) {
        const ServingSetup st = setup_tp8(run, fx.node(instance));
        const double at_1500 = serving_time_s(prefill_terms(st, 1, 1500, 0), EngineFactors{});
        const double at_2048 = serving_time_s(prefill_terms(st, 1, 2048, 0), EngineFactors{});
        INFO(instance);
        if (neuron_devices(st.hw))
            CHECK_REL(at_1500, at_2048, 1e-12);
        else
            CHECK(at_1500 < 0.9 * at_2048);
    }
}

TEST_CASE("a Neuron decode step reads its whole compiled KV bucket, a GPU's the filled cache") {
    const ServingRun run = published(kRun + "-ttft");
    auto& fx = cp::test::serving_fixture();
    for (const char* instance : {"inf2.48xlarge", "p4d.24xlarge"}) {
        const ServingSetup st = setup_tp8(run, fx.node(instance));
        INFO(instance);
        if (neuron_devices(st.hw)) {
            // 1100 -> 1300: every step runs in the 2048 bucket; 128 -> 384: 128 steps in the
            // 256 bucket, 128 in the 512 one.
            CHECK_REL(decode_context_tokens(st, 1100, 200), 2048.0, 1e-12);
            CHECK_REL(decode_context_tokens(st, 128, 256), 384.0, 1e-12);
            CHECK_REL(decode_context_tokens(st, 10, 0), 128.0, 1e-12);
            const double short_s = serving_time_s(
                decode_step_terms(st, 8, decode_context_tokens(st, 1100, 20)), EngineFactors{});
            const double long_s = serving_time_s(
                decode_step_terms(st, 8, decode_context_tokens(st, 2000, 20)), EngineFactors{});
            CHECK_REL(short_s, long_s, 1e-12);
        } else {
            CHECK_REL(decode_context_tokens(st, 1100, 200), 1200.0, 1e-12);
        }
    }
}

TEST_CASE("published serving runs: the Neuron backends of TGI and vLLM read as those servers") {
    const ServingRunSet set = parse_serving_runs(R"({
        "schema": "clusterplan.serving_runs/1", "sources": {"s": "a table"},
        "models": {"m": {"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8,
                         "ffn_hidden": 14336, "gated_mlp": true, "vocab": 128256}},
        "runs": [{"id": "a", "source": "s", "engine": "neuronx-tgi", "model": "m",
                  "accelerator": "Inferentia2", "instance": "inf2.48xlarge", "tp": 8,
                  "weights": "bf16", "input_tokens": 1500, "output_tokens": 250,
                  "metric": "ttft_ms", "value": 300},
                 {"id": "b", "source": "s", "engine": "vllm-neuron", "model": "m",
                  "accelerator": "Inferentia2", "instance": "inf2.48xlarge", "tp": 8,
                  "weights": "bf16", "input_tokens": 1500, "output_tokens": 250,
                  "metric": "ttft_ms", "value": 300}]})");
    REQUIRE(set.runs.size() == 2);
    CHECK(set.runs[0].engine == ServingEngine::tgi);
    CHECK(set.runs[1].engine == ServingEngine::vllm);
}

TEST_CASE("published serving runs: a Neuron decoder run measured through clients is a server's") {
    const ServingRunSet set = parse_serving_runs(R"({
        "schema": "clusterplan.serving_runs/1", "sources": {"s": "a table"},
        "models": {"m": {"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8,
                         "ffn_hidden": 14336, "gated_mlp": true, "vocab": 128256}},
        "runs": [{"id": "a", "source": "s", "engine": "optimum-neuron", "model": "m",
                  "accelerator": "Inferentia2", "instance": "inf2.48xlarge", "tp": 8, "batch": 32,
                  "weights": "bf16", "concurrency": 1, "input_tokens": 1500,
                  "output_tokens": 250, "metric": "ttft_ms", "value": 300},
                 {"id": "b", "source": "s", "engine": "transformers-neuronx", "model": "m",
                  "accelerator": "Inferentia2", "instance": "inf2.48xlarge", "tp": 8, "batch": 32,
                  "weights": "bf16", "input_tokens": 1500, "output_tokens": 250,
                  "metric": "ttft_ms", "value": 300}]})");
    REQUIRE(set.runs.size() == 2);
    CHECK(set.runs[0].engine == ServingEngine::tgi);
    CHECK(set.runs[1].engine == ServingEngine::neuron);
    // Its first token is one prompt's encoding, not the compiled batch's.
    auto& fx = cp::test::serving_fixture();
    const double served = predict_serving_run(set.runs[0], fx.node("inf2.48xlarge"), fx.factors);
    const double static_batch =
        predict_serving_run(set.runs[1], fx.node("inf2.48xlarge"), fx.factors);
    CHECK(static_batch > 10 * served);
}

TEST_CASE("serving: KV heads per NeuronCore follow the decoder library's GQA sharding") {
    auto& fx = cp::test::serving_fixture();
    const Workload w = cp::test::preset_workload("llama3-8b"); // 32 query, 8 KV heads
    auto heads = [&](const char* instance, int tp, bool transformers_neuronx) {
        ServingSetup st = make_serving_setup(w, fx.node(instance), ServingEngine::neuron,
                                             StorageType::bf16, StorageType::bf16, tp, 1, nullptr);
        st.transformers_neuronx = transformers_neuronx;
        return kv_heads_per_rank(st);
    };
    // 8 KV heads over 24 cores: transformers-neuronx replicates them to the padded query heads
    // (48 / 24 = 2 per core); NxD Inference to one per rank (24 is a multiple of 8).
    CHECK(heads("inf2.48xlarge", 24, true) == 2.0);
    CHECK(heads("inf2.48xlarge", 24, false) == 1.0);
    // Where the KV heads split evenly both libraries shard them.
    CHECK(heads("inf2.48xlarge", 8, true) == 1.0);
    CHECK(heads("inf2.48xlarge", 4, true) == 2.0);
    // 8 KV heads over 12 ranks: neither divides the other, NxD Inference converts to MHA.
    CHECK(heads("inf2.48xlarge", 12, false) == 3.0);
    // GPU engines keep one per rank.
    const ServingSetup gpu =
        make_serving_setup(w, fx.node("p5.48xlarge"), ServingEngine::tensorrt_llm,
                           StorageType::bf16, StorageType::bf16, 16, 1, nullptr);
    CHECK(kv_heads_per_rank(gpu) == 1.0);

    const ServingRunSet set = parse_serving_runs(R"({
        "schema": "clusterplan.serving_runs/1", "sources": {"s": "a table"},
        "models": {"m": {"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8,
                         "ffn_hidden": 14336, "gated_mlp": true, "vocab": 128256}},
        "runs": [{"id": "a", "source": "s", "engine": "neuron", "model": "m",
                  "neuron_library": "transformers-neuronx", "accelerator": "Inferentia2",
                  "instance": "inf2.48xlarge", "tp": 24, "batch": 8, "weights": "bf16",
                  "input_tokens": 128, "output_tokens": 3968, "metric": "tpot_ms", "value": 10},
                 {"id": "b", "source": "s", "engine": "neuron", "model": "m",
                  "accelerator": "Inferentia2", "instance": "inf2.48xlarge", "tp": 24,
                  "batch": 8, "weights": "bf16", "input_tokens": 128, "output_tokens": 3968,
                  "metric": "tpot_ms", "value": 10}]})");
    REQUIRE(set.runs.size() == 2);
    CHECK(set.runs[0].transformers_neuronx);
    CHECK_FALSE(set.runs[1].transformers_neuronx);
    // The replicated heads are read every step: the transformers-neuronx step is the longer.
    CHECK(predict_serving_run(set.runs[0], fx.node("inf2.48xlarge"), fx.factors) >
          predict_serving_run(set.runs[1], fx.node("inf2.48xlarge"), fx.factors));
}

TEST_CASE("NxD's expert MLPs on Neuron devices have static shapes: a decode step runs every expert "
          "once its routed rows reach the expert count, and a long prompt runs padded blocks") {
    auto& fx = cp::test::serving_fixture();
    const ServingRun run =
        published("optneuron-vllm-trn2-qwen3-30b-a3b-tp4-bs16-synchronous-2025-10-16-15-34-34-itl");
    ServingSetup st = make_serving_setup(run.workload, fx.node(run.instance), run.engine,
                                         run.weights, run.kv_cache, run.tp, 1, nullptr);
    // 128 experts, 8 per token: batch 8 routes 64 rows (one expert load each), batch 16 routes
    // 128 and runs all 128 experts, batch 32 still all 128. Reached experts would grow evenly
    // (52, 82, 112).
    auto weights_s = [&](int batch) {
        st.compiled_decode_batch = batch;
        return decode_step_terms(st, 1, 2048)[ServingTerm::weights];
    };
    const double w8 = weights_s(8), w16 = weights_s(16), w32 = weights_s(32);
    CHECK(w16 - w8 > 4.0 * (w32 - w16));
    // 2048 prompt tokens route 16,384 rows into 159 blocks of 512, 1024 tokens 8,192 rows into
    // 143: nearly the same expert work for half the tokens.
    const double e1024 = prefill_terms(st, 1, 1024, 0, true)[ServingTerm::expert_compute];
    const double e2048 = prefill_terms(st, 1, 2048, 0, true)[ServingTerm::expert_compute];
    CHECK_REL(e1024 / e2048, 143.0 / 159.0, 0.05);
    // Each rank gathers and accumulates every block over the whole hidden width: 3 x 512 x 2048
    // x 2 bytes per block and layer, the same on 4 ranks as on 32, where the experts' own
    // weights split over the ranks.
    // (The rest of the memory term, weights and elementwise rows, is under a tenth of it.)
    auto memory_s = [&](int tp) {
        ServingSetup s = st;
        s.tp = tp;
        return prefill_terms(s, 1, 2048, 0, true)[ServingTerm::weights];
    };
    const double block_s = 48.0 * 159.0 * 3.0 * 512.0 * 2048.0 * 2.0 / st.rates.hbm_bytes_per_s;
    CHECK(memory_s(4) > block_s);
    CHECK(memory_s(32) > block_s);
}

TEST_CASE("a Neuron server with async scheduling runs its host loop beside the device's step") {
    auto& fx = cp::test::serving_fixture();
    const ServingRun run = published("vllmneuron-trn2-llama3.1-8b-tp8-seqs2-c2-512x128-tpot");
    REQUIRE(run.async_host_loop);
    ServingSetup st = setup_tp8(run, fx.node(run.instance));
    st.compiled_decode_batch = 2;
    const EngineFactors& f = fx.factors.of(ServingEngine::neuron);
    const ServingTerms step = decode_step_terms(st, 2, 640);
    REQUIRE(step[ServingTerm::host_step_overhead] == 1.0);
    ServingTerms device = step;
    device[ServingTerm::host_step_overhead] = 0;
    const double device_s = serving_time_s(device, f);
    const double host_s = f.k_of(ServingTerm::host_step_overhead);
    // Synchronous (the fitted optimum-neuron servers): the host loop follows the device's step.
    CHECK_REL(decode_step_s(st, step, f), device_s + host_s, 1e-9);
    // One step ahead: the longer of the two.
    st.async_host_loop = true;
    CHECK_REL(decode_step_s(st, step, f), std::max(device_s, host_s), 1e-9);
    ServingRun sync = run;
    sync.async_host_loop = false;
    CHECK(predict(sync) > predict(run));
    // The run's field is read from the fixture's "async_scheduling".
    const ServingRunSet set = parse_serving_runs(R"({
        "schema": "clusterplan.serving_runs/1", "sources": {"s": "a table"},
        "models": {"m": {"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8,
                         "ffn_hidden": 14336, "gated_mlp": true, "vocab": 128256}},
        "runs": [{"id": "a", "source": "s", "engine": "vllm", "model": "m",
                  "accelerator": "Trainium2", "instance": "trn2.48xlarge", "tp": 8, "batch": 2,
                  "weights": "bf16", "async_scheduling": true, "input_tokens": 512,
                  "output_tokens": 128, "metric": "tpot_ms", "value": 10}]})");
    REQUIRE(set.runs.size() == 1);
    CHECK(set.runs[0].async_host_loop);
}

TEST_CASE("a Neuron server sampling on the host waits for the sampler every step, never overlaps "
          "it, and its time is fitted on the host-sampled decode step alone") {
    auto& fx = cp::test::serving_fixture();
    const ServingRun run = published(
        "optneuron-vllm-cpusampling-inf2-llama3.1-8b-tp8-bs32-synchronous-2026-03-03-14-07-33-itl");
    REQUIRE(run.host_sampling);
    const EngineFactors& f = fx.factors.of(ServingEngine::neuron);
    CHECK(f.host_sampling_s > 0);
    ServingSetup st = setup_tp8(run, fx.node(run.instance));
    st.compiled_decode_batch = 32;
    const ServingTerms step = decode_step_terms(st, 1, 2048);
    const double device_s = decode_step_s(st, step, f);
    st.host_sampling = true;
    REQUIRE(st.samples_on_host());
    CHECK_REL(decode_step_s(st, step, f), device_s + f.host_sampling_s, 1e-9);
    // The next step's input is the host's sample: async scheduling cannot run ahead of it.
    st.async_host_loop = true;
    CHECK_FALSE(st.host_loop_overlapped());
    // transformers-neuronx servers' fitted steps already hold their host sampling.
    st.transformers_neuronx = true;
    CHECK_FALSE(st.samples_on_host());
    // Every other Neuron factor is what the runs sampling on device fit.
    ServingRunSet on_device = published_serving_runs();
    std::erase_if(on_device.runs, [](const ServingRun& r) { return r.host_sampling; });
    const EngineFactors without =
        fit_serving_factors(on_device, fx.resolve).of(ServingEngine::neuron);
    CHECK(without.host_sampling_s == 0);
    for (int j = 0; j < kServingTermCount; ++j)
        CHECK(without.k[j] == f.k[j]);
    CHECK(without.request_overhead_s == f.request_overhead_s);
    // The run's field is read from the fixture's "on_device_sampling".
    const ServingRunSet set = parse_serving_runs(R"({
        "schema": "clusterplan.serving_runs/1", "sources": {"s": "a table"},
        "models": {"m": {"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8,
                         "ffn_hidden": 14336, "gated_mlp": true, "vocab": 128256}},
        "runs": [{"id": "a", "source": "s", "engine": "vllm", "model": "m",
                  "accelerator": "Inferentia2", "instance": "inf2.48xlarge", "tp": 8, "batch": 32,
                  "weights": "bf16", "on_device_sampling": false, "input_tokens": 512,
                  "output_tokens": 128, "metric": "tpot_ms", "value": 10}]})");
    REQUIRE(set.runs.size() == 1);
    CHECK(set.runs[0].host_sampling);
}
