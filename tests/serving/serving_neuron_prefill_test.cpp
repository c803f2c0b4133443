// Neuron context encoding and collectives: materialised attention over the whole s x s square,
// the flash-attention kernel on Trainium2, compiled context buckets a run states, sequence
// parallelism, the TP all-reduce over chips (ring, chain or torus), and forward passes of an engine
// fitted on generation runs alone (and TensorRT / TensorRT-LLM, which do not stand in for each
// other), and the fixed cost per layer of a decode step on NeuronCore-v3.
#include "clusterplan/sim/presets.h"
#include "clusterplan/sim/serving_fit.h"
#include "engine/collectives.h"
#include "engine/transformer_work.h"
#include "serving/serving_eval.h"
#include "serving/serving_model.h"
#include "serving_fixture.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <string>

using namespace cp::sim;

namespace {

Workload preset(const char* id) {
    return cp::test::preset_workload(id);
}

ServingSetup neuron_setup(const Workload& w, const char* instance, int tp) {
    auto& fx = cp::test::serving_fixture();
    return make_serving_setup(w, fx.node(instance), ServingEngine::neuron, StorageType::bf16,
                              StorageType::bf16, tp, 1, nullptr);
}

} // namespace

TEST_CASE("Neuron context encoding: materialised scores on NeuronCore-v2 run both products over "
          "the whole square, Trainium2's flash kernel the causal half without score traffic") {
    const Workload w = preset("llama3-8b");
    ServingSetup st = neuron_setup(w, "inf2.48xlarge", 24);
    CHECK_FALSE(st.fused_attention);
    const ServingTerms materialised = prefill_terms(st, 1, 4096, 0);
    st.fused_attention = true;
    const ServingTerms fused = prefill_terms(st, 1, 4096, 0);
    CHECK(materialised[ServingTerm::attention] > 0);
    CHECK(fused[ServingTerm::attention] == 0);
    // Only the score products differ: the fused pass computes half of what the square costs.
    const GemmShape scores{4096, 4096, double(w.shape.attention_head_dim()),
                           heads_per_rank(w.shape, 24)};
    const double square_s = w.shape.layers * 2.0 * gemm_compute_time_s(st.rates, scores);
    CHECK_REL(materialised[ServingTerm::prefill_compute] - fused[ServingTerm::prefill_compute],
              0.5 * square_s, 1e-9);
    CHECK(neuron_setup(w, "trn2.48xlarge", 64).fused_attention);
}

TEST_CASE("Neuron buckets: a prompt runs in the smallest compiled context bucket that holds it, a "
          "decode step in its stated token-generation bucket") {
    const Workload w = preset("llama3-70b");
    ServingSetup st = neuron_setup(w, "trn2.48xlarge", 64);
    const double default_s = serving_time_s(prefill_terms(st, 1, 10000, 0), EngineFactors{});
    const double at_16384 = serving_time_s(prefill_terms(st, 1, 16384, 0), EngineFactors{});
    CHECK_REL(default_s, at_16384, 1e-12);
    st.context_buckets = {2048, 4096, 8192, 12288};
    const double stated_s = serving_time_s(prefill_terms(st, 1, 10000, 0), EngineFactors{});
    const double at_12288 = serving_time_s(prefill_terms(st, 1, 12288, 0), EngineFactors{});
    CHECK_REL(stated_s, at_12288, 1e-12);
    CHECK(stated_s < 0.8 * default_s);
    // A prompt beyond every stated bucket falls back to the power-of-two default.
    const double beyond_s = serving_time_s(prefill_terms(st, 1, 13000, 0), EngineFactors{});
    CHECK_REL(beyond_s, at_16384, 1e-12);
    // Decode steps attend over the stated token-generation bucket of each position: 10000 ->
    // 11000 runs in 12800, not 16384; 1500 steps from 10000 cross none.
    CHECK_REL(decode_context_tokens(st, 10000, 1000), 16384.0, 1e-12);
    st.generation_buckets = {2048, 4096, 8192, 12800};
    CHECK_REL(decode_context_tokens(st, 10000, 1000), 12800.0, 1e-12);
    // 12000 -> 14000: 800 steps in 12800, then 1200 beyond it in the power-of-two 16384.
    CHECK_REL(decode_context_tokens(st, 12000, 2000), (800 * 12800.0 + 1200 * 16384.0) / 2000,
              1e-12);
}

TEST_CASE("context encoding with sequence parallelism norms 1/tp of the tokens on each rank") {
    const Workload w = preset("llama3-70b");
    ServingSetup st = neuron_setup(w, "trn2.48xlarge", 64);
    const ServingTerms plain = prefill_terms(st, 1, 8192, 0);
    st.sequence_parallel = true;
    const ServingTerms sp = prefill_terms(st, 1, 8192, 0);
    // Only the elementwise traffic (in the weights term) changes, and it shrinks.
    CHECK(sp[ServingTerm::weights] < 0.5 * plain[ServingTerm::weights]);
    CHECK_REL(sp[ServingTerm::prefill_compute], plain[ServingTerm::prefill_compute], 1e-12);
    CHECK_REL(sp[ServingTerm::tp_comm], plain[ServingTerm::tp_comm], 1e-12);
    // Decode steps are unchanged (NxD Inference applies it to context encoding).
    CHECK_REL(serving_time_s(decode_step_terms(st, 1, 8192), EngineFactors{}),
              serving_time_s(decode_step_terms(neuron_setup(w, "trn2.48xlarge", 64), 1, 8192),
                             EngineFactors{}),
              1e-12);
}

TEST_CASE("Neuron TP all-reduce: the cores of a chip reduce together and the ring runs over the "
          "chips") {
    const Workload w = preset("llama3-8b");
    const ServingSetup st = neuron_setup(w, "inf2.48xlarge", 24);
    const ServingTerms step = decode_step_terms(st, 1, 128);
    const double bytes = w.shape.hidden * 2.0;
    // 24 NeuronCores are 12 Inferentia2 chips on the NeuronLink ring.
    CHECK_REL(step[ServingTerm::tp_comm],
              2.0 * w.shape.layers * ring_all_reduce_s(st.tp_tier, 12, bytes), 1e-12);
    CHECK(ring_all_reduce_s(st.tp_tier, 12, bytes) < ring_all_reduce_s(st.tp_tier, 24, bytes));
}

TEST_CASE("NeuronLink all-reduce: part of inf2's ring runs as a chain at half its bandwidth, and "
          "trn1's 16 chips reduce over their 4 x 4 torus in fewer steps than one ring") {
    auto& fx = cp::test::serving_fixture();
    CHECK(fx.node("inf2.48xlarge").intra_torus_side == 0);
    CHECK(fx.node("trn1.32xlarge").intra_torus_side == 4);
    CHECK(fx.node("trn2.48xlarge").intra_torus_side == 4);
    const Workload w = preset("llama3-8b");
    const double big = 64e6, small = 8e3;
    // TP8 on inf2: 4 of the 12 chips, a chain; on trn1, one closed row of the torus.
    const ServingSetup inf2 = neuron_setup(w, "inf2.48xlarge", 8);
    const ServingSetup trn1 = neuron_setup(w, "trn1.32xlarge", 8);
    LinkTier chain = inf2.tp_tier;
    chain.bus_bytes_per_s *= 0.5;
    CHECK_REL(neuronlink_all_reduce_s(inf2, 4, big), ring_all_reduce_s(chain, 4, big), 1e-12);
    CHECK_REL(neuronlink_all_reduce_s(trn1, 4, big), ring_all_reduce_s(trn1.tp_tier, 4, big),
              1e-12);
    // The whole ring of inf2.48xlarge closes.
    const ServingSetup inf2_all = neuron_setup(w, "inf2.48xlarge", 24);
    CHECK_REL(neuronlink_all_reduce_s(inf2_all, 12, big),
              ring_all_reduce_s(inf2_all.tp_tier, 12, big), 1e-12);
    // TP32 on trn1: 2 x 3 + 2 x 3 steps over the torus, not the 30 of a 16-chip ring.
    const ServingSetup trn1_all = neuron_setup(w, "trn1.32xlarge", 32);
    CHECK(neuronlink_all_reduce_s(trn1_all, 16, small) <
          ring_all_reduce_s(trn1_all.tp_tier, 16, small));
    CHECK_REL(neuronlink_all_reduce_s(trn1_all, 16, small) - trn1_all.tp_tier.launch_s,
              12.0 * trn1_all.tp_tier.step_s + 1.875 * small / trn1_all.tp_tier.bus_bytes_per_s,
              1e-9);
}

TEST_CASE("Neuron forward passes keep datasheet rates when only generation runs are fitted") {
    auto& fx = cp::test::serving_fixture();
    // With the encoder tables, forward passes have factors of their own.
    CHECK_FALSE(fx.factors.forward_datasheet[static_cast<int>(ServingEngine::neuron)]);
    const ServingFactors without =
        fit_serving_factors(published_serving_runs(), fx.resolve, "neuron-encoder-cnn");
    CHECK(without.forward_datasheet[static_cast<int>(ServingEngine::neuron)]);
    const EngineFactors& f = without.of(ServingEngine::neuron, false);
    CHECK(f.k_of(ServingTerm::overhead) == 0);
    CHECK(f.k_of(ServingTerm::compute) == 1);
    // Generation keeps the decoder fit.
    CHECK(without.of(ServingEngine::neuron, true).k_of(ServingTerm::overhead) > 0);
}

TEST_CASE("left out, TensorRT and TensorRT-LLM keep datasheet rates rather than each other's "
          "factors") {
    auto& fx = cp::test::serving_fixture();
    const ServingFactors no_bert =
        fit_serving_factors(published_serving_runs(), fx.resolve, "tensorrt-demobert");
    CHECK(no_bert.of(ServingEngine::tensorrt).borrowed_from.empty());
    CHECK(no_bert.of(ServingEngine::tensorrt).k_of(ServingTerm::overhead) == 0);
    const ServingFactors no_trtllm =
        fit_serving_factors(published_serving_runs(), fx.resolve, "trtllm-0.17-offline");
    CHECK(no_trtllm.of(ServingEngine::tensorrt_llm).borrowed_from.empty());
    CHECK(no_trtllm.of(ServingEngine::tensorrt_llm).k_of(ServingTerm::overhead) == 0);
    // Engines without runs of their own still take TensorRT-LLM's generation factors.
    CHECK(fx.factors.of(ServingEngine::tgi).borrowed_from == "tensorrt-llm");
}

TEST_CASE("a decode step on Trainium2 counts its layers as NeuronCore-v3 fixed cost, on "
          "Inferentia2 and Trainium1 as NeuronCore-v2's") {
    const Workload w = preset("llama3-70b");
    for (const char* instance : {"inf2.48xlarge", "trn1.32xlarge", "trn2.48xlarge"}) {
        const ServingSetup st = neuron_setup(w, instance, 16);
        const ServingTerms step = decode_step_terms(st, 1, 1024);
        const bool v3 = std::string(instance).starts_with("trn2");
        CHECK(step[ServingTerm::overhead_v3] == (v3 ? w.shape.layers : 0));
        CHECK(step[ServingTerm::overhead] == (v3 ? 0 : w.shape.layers));
    }
    // Unfitted, NeuronCore-v3 takes the engine's per-layer cost.
    EngineFactors f;
    f.k[static_cast<int>(ServingTerm::overhead)] = 1e-4;
    CHECK(f.k_of(ServingTerm::overhead_v3) == 1e-4);
}

TEST_CASE("NeuronCore-v3's per-layer cost is fitted on the Trainium2 decode steps alone, every "
          "other Neuron factor on the NeuronCore-v2 runs") {
    auto& fx = cp::test::serving_fixture();
    ServingRunSet v2_only = published_serving_runs();
    std::erase_if(v2_only.runs, [](const ServingRun& r) { return r.accelerator == "Trainium2"; });
    const EngineFactors& all = fx.factors.of(ServingEngine::neuron);
    const EngineFactors v2 = fit_serving_factors(v2_only, fx.resolve).of(ServingEngine::neuron);
    constexpr int v3 = static_cast<int>(ServingTerm::overhead_v3);
    CHECK(all.fitted[v3]);
    CHECK_FALSE(v2.fitted[v3]);
    CHECK(all.k[v3] >= 0);
    for (int j = 0; j < kServingTermCount; ++j)
        if (j != v3) CHECK(all.k[j] == v2.k[j]);
    CHECK(all.request_overhead_s == v2.request_overhead_s);
}

TEST_CASE("a forward pass lasts at least the time to read its layers' weights once: four copies "
          "of BERT large on Inferentia1's shared DRAM are bound by it, on Inferentia2 not") {
    auto& fx = cp::test::serving_fixture();
    const Workload w = preset("bert-large");
    const EngineFactors& f = fx.factors.of(ServingEngine::neuron, false);
    const EnginePolicy policy = engine_policy(ServingEngine::neuron, true);
    const auto capacity = [&](const ServingSetup& st) {
        const BatchPlan plan = plan_batch(st, policy, 128, 0, 1);
        return serving_capacity(st, policy, f, plan, 128, 0);
    };
    const ServingSetup inf1 = neuron_setup(w, "inf1.xlarge", 1);
    // The embedding table is gathered row by row, not streamed.
    const double layer_bytes =
        serving_weight_bytes(w, StorageType::bf16) - 2.0 * transformer_embedding_params(w.shape);
    CHECK_REL(forward_weight_stream_s(inf1), layer_bytes / inf1.rates.hbm_bytes_per_s, 1e-12);
    const ServingCapacity on_inf1 = capacity(inf1);
    CHECK(serving_time_s(forward_terms(inf1, 1, 128), f) < forward_weight_stream_s(inf1));
    CHECK_REL(on_inf1.forward_s, forward_weight_stream_s(inf1), 1e-12);
    const ServingSetup inf2 = neuron_setup(w, "inf2.xlarge", 1);
    CHECK(capacity(inf2).forward_s > forward_weight_stream_s(inf2));
}
