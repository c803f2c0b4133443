// The serving step model's mechanisms: KV bytes with GQA, weight storage types, NeuronCores,
// memory-bound vs compute-bound decode, the TP all-reduce latency, KV capacity capping the batch,
// queueing raising TTFT with the request rate, and the CNN forward pass (convolutions as GEMMs,
// feature maps in L2 or HBM).
#include "clusterplan/sim/presets.h"
#include "clusterplan/sim/serving_plan.h"
#include "serving/serving_eval.h"
#include "serving/serving_model.h"
#include "serving/serving_queue.h"
#include "serving_fixture.h"
#include "tolerance.h"

#include <catch2/catch.hpp>

using namespace cp::sim;

namespace {

Workload preset(const char* id) {
    return cp::test::preset_workload(id);
}

} // namespace

TEST_CASE("serving: KV-cache bytes per token follow the KV heads (GQA) and the cache type") {
    const Workload llama3 = preset("llama3-8b");
    // 2 (K and V) x 32 layers x 8 KV heads x 128 head dim x 2 bytes.
    CHECK(kv_bytes_per_token(llama3.shape, StorageType::fp16) == 131072.0);
    CHECK(kv_bytes_per_token(llama3.shape, StorageType::fp8) == 65536.0);
    const Workload llama2 = preset("llama2-7b"); // no GQA: 32 KV heads
    CHECK(kv_bytes_per_token(llama2.shape, StorageType::fp16) == 4 * 131072.0);
    // KV heads are replicated once tp exceeds them.
    CHECK(kv_heads_per_rank(llama3.shape, 4) == 2.0);
    CHECK(kv_heads_per_rank(llama3.shape, 16) == 1.0);
}

TEST_CASE("serving: weight bytes by storage type (16-bit embeddings and output layer kept)") {
    const Workload w = preset("llama3-8b");
    // Llama 3 8B: 8.03 B parameters (Meta model card); fp16 = 2 bytes each.
    CHECK_REL(serving_weight_bytes(w, StorageType::bf16), 2.0 * 8.03e9, 0.02);
    const double fp8 = serving_weight_bytes(w, StorageType::fp8);
    const double int4 = serving_weight_bytes(w, StorageType::int4);
    CHECK(fp8 < 0.6 * serving_weight_bytes(w, StorageType::bf16));
    CHECK(int4 < fp8);
    CHECK(int4 > 0.25 * serving_weight_bytes(w, StorageType::bf16)); // embeddings stay 16-bit
}

TEST_CASE("serving: Neuron devices are NeuronCores (2 per Inferentia2 chip)") {
    auto& fx = cp::test::serving_fixture();
    const ServingHardware hw = serving_hardware(fx.node("inf2.48xlarge"));
    CHECK(hw.cores_per_chip == 2);
    CHECK(hw.devices_per_node == 24);
    CHECK(hw.device.memory_gib == 16.0);
    const ServingHardware gpu = serving_hardware(fx.node("p5.48xlarge"));
    CHECK(gpu.cores_per_chip == 1);
    CHECK(gpu.devices_per_node == 8);
}

TEST_CASE("serving: a decode step is memory-bound at batch 1 and compute-bound at a large batch") {
    auto& fx = cp::test::serving_fixture();
    const Workload w = preset("llama3-8b");
    const ServingSetup st =
        make_serving_setup(w, fx.node("p5.48xlarge"), ServingEngine::tensorrt_llm, StorageType::fp8,
                           StorageType::fp8, 1, 1, nullptr);
    REQUIRE(serving_hardware_gap(st).empty());
    const ServingTerms one = decode_step_terms(st, 1, 1000);
    CHECK(one[ServingTerm::weights] > 10 * one[ServingTerm::compute]);
    // Streaming ~8 GB of fp8 weights (+ 16-bit embeddings) at 3.35 TB/s takes a few milliseconds.
    CHECK(one[ServingTerm::weights] > 2e-3);
    CHECK(one[ServingTerm::weights] < 5e-3);
    const ServingTerms big = decode_step_terms(st, 1024, 1000);
    CHECK(big[ServingTerm::compute] > big[ServingTerm::weights]);
    // Every sequence's cache is read each step: KV time grows with batch x context.
    CHECK(big[ServingTerm::kv_cache] > 500 * one[ServingTerm::kv_cache]);
}

TEST_CASE("serving: without a GQA decode kernel each query head re-reads its group's KV cache") {
    auto& fx = cp::test::serving_fixture();
    const Workload w = preset("llama3-8b"); // 32 query heads, 8 KV heads
    ServingSetup st = make_serving_setup(w, fx.node("p5.48xlarge"), ServingEngine::tensorrt_llm,
                                         StorageType::fp8, StorageType::fp8, 1, 1, nullptr);
    const double shared = decode_step_terms(st, 64, 2000)[ServingTerm::kv_cache];
    st.gqa_shared_kv_reads = false;
    CHECK_REL(decode_step_terms(st, 64, 2000)[ServingTerm::kv_cache], 4.0 * shared, 1e-9);
    // Without GQA (MHA) there is nothing to share.
    const Workload llama2 = preset("llama2-7b");
    ServingSetup mha =
        make_serving_setup(llama2, fx.node("p5.48xlarge"), ServingEngine::tensorrt_llm,
                           StorageType::fp8, StorageType::fp8, 1, 1, nullptr);
    const double mha_shared = decode_step_terms(mha, 64, 2000)[ServingTerm::kv_cache];
    mha.gqa_shared_kv_reads = false;
    CHECK(decode_step_terms(mha, 64, 2000)[ServingTerm::kv_cache] == mha_shared);
}

TEST_CASE("serving: a MoE decoder holds every expert but a small batch reads only the experts "
          "its tokens reach") {
    auto& fx = cp::test::serving_fixture();
    const Workload mixtral = preset("mixtral-8x7b");
    // Mixtral 8x7B: 46.7B parameters (Jiang et al. 2024), all resident; output layer and
    // embedding at 16 bit.
    CHECK_REL(serving_weight_bytes(mixtral, StorageType::bf16), 2.0 * 46.7e9, 0.02);
    const ServingSetup st =
        make_serving_setup(mixtral, fx.node("p5.48xlarge"), ServingEngine::tensorrt_llm,
                           StorageType::fp8, StorageType::fp8, 2, 1, nullptr);
    REQUIRE(serving_hardware_gap(st).empty());
    // One token reaches 2 of 8 experts: it streams ~12.9B active parameters' worth of weights,
    // not 46.7B; a batch of 64 tokens reaches all 8 (1 - (3/4)^64 ~ 1).
    const double one = decode_step_terms(st, 1, 512)[ServingTerm::weights];
    const double many = decode_step_terms(st, 64, 512)[ServingTerm::weights];
    const double all_gb = serving_weight_bytes(mixtral, StorageType::fp8) / 2 / 1e9;
    CHECK(one * 3.35e12 / 1e9 < 0.45 * all_gb);
    CHECK(many > 2.5 * one);
    // The routed experts' matrix work is its own term (MoE kernels), the attention GEMMs dense.
    const ServingTerms big = decode_step_terms(st, 2048, 512);
    CHECK(big[ServingTerm::expert_compute] > big[ServingTerm::compute]);
    // Until MoE runs fit the expert term, it takes the engine's dense compute factor.
    EngineFactors f;
    f.k[static_cast<int>(ServingTerm::compute)] = 1.3;
    CHECK(f.k_of(ServingTerm::expert_compute) == 1.3);
    f.fitted[static_cast<int>(ServingTerm::expert_compute)] = true;
    f.k[static_cast<int>(ServingTerm::expert_compute)] = 1.5;
    CHECK(f.k_of(ServingTerm::expert_compute) == 1.5);
    // A dense model of the same total size streams all of it at batch 1.
    Workload dense = mixtral;
    dense.shape.moe = {};
    dense.shape.ffn_hidden = 8 * 14336;
    const ServingSetup dst =
        make_serving_setup(dense, fx.node("p5.48xlarge"), ServingEngine::tensorrt_llm,
                           StorageType::fp8, StorageType::fp8, 2, 1, nullptr);
    CHECK(decode_step_terms(dst, 1, 512)[ServingTerm::weights] > 2.5 * one);
}

TEST_CASE("serving: TP all-reduces at decode are latency-bound, so alpha sets their cost") {
    auto& fx = cp::test::serving_fixture();
    const Workload w = preset("llama3-70b");
    // TGI reduces through NCCL: one call and a ring per all-reduce.
    ServingSetup st = make_serving_setup(w, fx.node("p5.48xlarge"), ServingEngine::tgi,
                                         StorageType::fp8, StorageType::fp8, 8, 1, nullptr);
    const double base = decode_step_terms(st, 1, 1000)[ServingTerm::tp_comm];
    CHECK(base > 0);
    const double alpha = st.tp_tier.launch_s;
    const double calls = 2.0 * w.shape.layers; // two all-reduces per layer per step
    // At batch 1 the 16 KB messages cost almost nothing on the wire: latency is most of it.
    CHECK(base > 0.9 * calls * alpha);
    st.tp_tier.launch_s *= 2.0;
    const double slower = decode_step_terms(st, 1, 1000)[ServingTerm::tp_comm];
    CHECK_REL(slower - base, calls * alpha, 0.01);
    const ServingSetup single =
        make_serving_setup(w, fx.node("p5.48xlarge"), ServingEngine::tensorrt_llm, StorageType::fp8,
                           StorageType::fp8, 1, 1, nullptr);
    CHECK(decode_step_terms(single, 1, 1000)[ServingTerm::tp_comm] == 0.0);
    // TensorRT-LLM's own one-/two-shot kernel on NVLink: one launch and two exchange steps, far
    // below NCCL's call and 14-step ring at batch 1.
    const ServingSetup custom =
        make_serving_setup(w, fx.node("p5.48xlarge"), ServingEngine::tensorrt_llm, StorageType::fp8,
                           StorageType::fp8, 8, 1, nullptr);
    const double own = decode_step_terms(custom, 1, 1000)[ServingTerm::tp_comm];
    CHECK(own > calls * 10e-6);
    CHECK(own < 0.5 * base);
}

TEST_CASE("serving: KV capacity caps the batch and more memory holds more sequences") {
    auto& fx = cp::test::serving_fixture();
    const Workload w = preset("llama3-70b");
    const EnginePolicy& p = engine_policy(ServingEngine::tensorrt_llm);
    const ServingSetup h100 =
        make_serving_setup(w, fx.node("p5.48xlarge"), ServingEngine::tensorrt_llm, StorageType::fp8,
                           StorageType::fp8, 1, 1, nullptr);
    const ServingSetup h200 =
        make_serving_setup(w, fx.node("p5e.48xlarge"), ServingEngine::tensorrt_llm,
                           StorageType::fp8, StorageType::fp8, 1, 1, nullptr);
    const BatchPlan a = plan_batch(h100, p, 128, 2048, std::nullopt);
    const BatchPlan b = plan_batch(h200, p, 128, 2048, std::nullopt);
    CHECK(a.kv_bound);
    CHECK(a.batch > 0);
    CHECK(b.batch > 4 * a.batch);
    // A longer output needs more cache per sequence, so fewer fit.
    CHECK(plan_batch(h100, p, 128, 4096, std::nullopt).batch < a.batch);
    // 16-bit weights (141 GB) do not fit one 80 GiB device at all.
    const ServingSetup bf16 =
        make_serving_setup(w, fx.node("p5.48xlarge"), ServingEngine::tensorrt_llm,
                           StorageType::bf16, StorageType::bf16, 1, 1, nullptr);
    const BatchPlan none = plan_batch(bf16, p, 128, 2048, std::nullopt);
    CHECK_FALSE(none.weights_fit);
    CHECK_FALSE(none.fits);
}

TEST_CASE("serving: TTFT grows with the request rate (M/D/1 queue) and the queue overflows past "
          "capacity") {
    auto& fx = cp::test::serving_fixture();
    const Workload w = preset("llama3-8b");
    const ServingSetup st =
        make_serving_setup(w, fx.node("p5.48xlarge"), ServingEngine::tensorrt_llm,
                           StorageType::bf16, StorageType::bf16, 1, 1, nullptr);
    const EnginePolicy& p = engine_policy(ServingEngine::tensorrt_llm);
    const EngineFactors& f = fx.factors.of(ServingEngine::tensorrt_llm);
    const BatchPlan plan = plan_batch(st, p, 467, 256, std::nullopt);
    const ServingCapacity cap = serving_capacity(st, p, f, plan, 467, 256);
    REQUIRE(cap.requests_per_s > 0);
    double previous_ttft = 0, previous_tpot = 0;
    for (double share : {0.1, 0.5, 0.8, 0.95}) {
        const ServingLoad l =
            serving_load(st, p, f, plan, cap, 467, 256, share * cap.requests_per_s, kUnknown);
        CHECK_FALSE(l.overloaded);
        CHECK(l.ttft_ms > previous_ttft);
        CHECK(l.tpot_ms >= previous_tpot);
        previous_ttft = l.ttft_ms;
        previous_tpot = l.tpot_ms;
    }
    CHECK(
        serving_load(st, p, f, plan, cap, 467, 256, 1.2 * cap.requests_per_s, kUnknown).overloaded);
}

TEST_CASE("serving: ResNet-50's convolutions add up to its 4.1 GMAC, and its feature maps stream "
          "through HBM at MLPerf's Offline batch but stay in a 48 MB L2 at batch 32") {
    // He et al. 2016 Table 1 (v1.5 as torchvision counts it: 4.09 GMAC per 224x224 image).
    CHECK_REL(resnet50_forward_flops(), 2 * 4.09e9, 0.02);
    auto& fx = cp::test::serving_fixture();
    const Workload w = preset("resnet50");
    const ServingSetup a100 =
        make_serving_setup(w, fx.node("p4de.24xlarge"), ServingEngine::tensorrt, StorageType::int8,
                           StorageType::int8, 1, 1, nullptr);
    const ServingTerms big = cnn_terms(a100, 2048);
    // The memory-bound 1x1 convolutions: 28 MB of int8 feature maps per image move through HBM.
    CHECK(big[ServingTerm::feature_maps] > 0.3 * big[ServingTerm::compute]);
    CHECK(big[ServingTerm::cnn_compute] == 0);
    const ServingSetup l4 = make_serving_setup(w, fx.node("g6.xlarge"), ServingEngine::tensorrt,
                                               StorageType::int8, StorageType::int8, 1, 1, nullptr);
    const ServingTerms small = cnn_terms(l4, 32);
    CHECK(small[ServingTerm::feature_maps] < 0.1 * small[ServingTerm::compute]);
    // One fixed cost per kernel launched, in units of an encoder layer's eight kernels.
    CHECK_REL(small[ServingTerm::overhead], 56.0 / 8.0, 0.05);
}

TEST_CASE("serving: a scenario whose engine has no GQA decode kernel decodes Llama 2 70B slower") {
    auto& fx = cp::test::serving_fixture();
    auto plan_for = [&](bool shared) {
        ServingRequest req;
        req.workload = cp::test::preset_workload("llama2-70b");
        req.spec.engine = ServingEngine::tensorrt_llm;
        req.spec.weights = StorageType::fp8;
        req.spec.tp = 4;
        req.spec.batch = 64;
        req.spec.input_tokens = 128;
        req.spec.output_tokens = 2048;
        req.spec.gqa_shared_kv_reads = shared;
        return plan_serving(req, fx.node("p5.48xlarge"), fx.factors, nullptr);
    };
    const ServingPlan xqa = plan_for(true);
    const ServingPlan mmha = plan_for(false);
    REQUIRE(xqa.valid);
    REQUIRE(mmha.valid);
    CHECK(mmha.tpot_ms > 1.2 * xqa.tpot_ms);
}

TEST_CASE("serving: 4-bit weights on transformers' exllama kernel convert per row below 8 rows "
          "and are rebuilt in FP16 from 8") {
    auto& fx = cp::test::serving_fixture();
    const Workload w = preset("llama2-7b");
    const auto setup = [&](StorageType weights) {
        return make_serving_setup(w, fx.node("p4de.24xlarge"), ServingEngine::pytorch, weights,
                                  StorageType::fp16, 1, 1, nullptr);
    };
    const ServingSetup q4 = setup(StorageType::int4), fp16 = setup(StorageType::fp16);
    // Below the threshold every activation row unpacks every weight again: the conversion time
    // grows with the rows while the packed weights are read once.
    const ServingTerms two = decode_step_terms(q4, 2, 512), four = decode_step_terms(q4, 4, 512);
    CHECK_REL(four[ServingTerm::compute], 2.0 * two[ServingTerm::compute], 0.05);
    CHECK(four[ServingTerm::weights] < decode_step_terms(fp16, 4, 512)[ServingTerm::weights]);
    // From 8 rows the matrix is written in FP16 and read back: more traffic than FP16 weights.
    const double rebuilt = decode_step_terms(q4, 8, 512)[ServingTerm::weights];
    const double plain = decode_step_terms(fp16, 8, 512)[ServingTerm::weights];
    CHECK(rebuilt > 2.0 * plain);
    // An engine with a fused kernel (threshold 0) keeps reading the packed weights once.
    const ServingSetup vllm =
        make_serving_setup(w, fx.node("p4de.24xlarge"), ServingEngine::vllm, StorageType::int4,
                           StorageType::fp16, 1, 1, nullptr);
    CHECK(decode_step_terms(vllm, 8, 512)[ServingTerm::weights] < plain);
}

TEST_CASE("serving: fused 4-bit kernels stream packed weights at small batches and run below the "
          "16-bit GEMM rate at large ones") {
    auto& fx = cp::test::serving_fixture();
    const Workload w = preset("llama3-8b");
    const auto setup = [&](StorageType weights) {
        return make_serving_setup(w, fx.node("p4de.24xlarge"), ServingEngine::vllm, weights,
                                  StorageType::bf16, 1, 1, nullptr);
    };
    const ServingSetup q4 = setup(StorageType::int4), bf16 = setup(StorageType::bf16);
    // Batch 1: the linear layers stream ~0.27x the bytes of 16-bit weights (embeddings and the
    // output layer stay 16-bit).
    const ServingTerms one = decode_step_terms(q4, 1, 512);
    CHECK(one[ServingTerm::compute] == 0);
    CHECK(one[ServingTerm::weights] < 0.4 * decode_step_terms(bf16, 1, 512)[ServingTerm::weights]);
    // A 4096-token prefill is compute-bound in both; the mixed-input kernel takes longer.
    const double q4_prefill = prefill_terms(q4, 1, 4096, 0)[ServingTerm::prefill_compute];
    const double bf16_prefill = prefill_terms(bf16, 1, 4096, 0)[ServingTerm::prefill_compute];
    CHECK(q4_prefill > 1.4 * bf16_prefill);
    CHECK(q4_prefill < 1.8 * bf16_prefill);
}

TEST_CASE("serving: int8 runs W8A8 GEMMs at the int8 peak where the part has int8 tensor cores") {
    auto& fx = cp::test::serving_fixture();
    const Workload w = preset("llama3-8b");
    const auto setup = [&](const char* node, ServingEngine e, StorageType weights) {
        return make_serving_setup(w, fx.node(node), e, weights, StorageType::bf16, 1, 1, nullptr);
    };
    const auto prefill_s = [](const ServingSetup& st) {
        return prefill_terms(st, 1, 4096, 0)[ServingTerm::prefill_compute];
    };
    const ServingSetup a100_int8 = setup("p4de.24xlarge", ServingEngine::vllm, StorageType::int8);
    CHECK(a100_int8.int8_compute);
    CHECK_FALSE(a100_int8.int8_activations); // 16-bit tensors between the kernels
    CHECK(prefill_s(a100_int8) <
          0.6 * prefill_s(setup("p4de.24xlarge", ServingEngine::vllm, StorageType::bf16)));
    // V100 has no int8 tensor cores, TGI's int8 is weight-only: both dequantise to 16 bit.
    CHECK_FALSE(setup("p3dn.24xlarge", ServingEngine::vllm, StorageType::int8).int8_compute);
    CHECK_FALSE(setup("p4de.24xlarge", ServingEngine::tgi, StorageType::int8).int8_compute);
}

TEST_CASE("a finite run past its slots: the first arrivals take the free slots, the rest wait for "
          "slots to free") {
    // 300 requests at 100/s on 128 slots freed at 16/s: 1/16 - 1/100 s more per request.
    const double per_request_s = 1.0 / 16 - 1.0 / 100;
    CHECK(finite_slot_wait_s(300, 128, 16, 100, 0.2) == 0.0); // rank 60 < the head start of 64
    CHECK(cp::test::within_rel(finite_slot_wait_s(300, 128, 16, 100, 0.5), 86 * per_request_s,
                               1e-12));
    CHECK(cp::test::within_rel(finite_slot_wait_s(300, 128, 16, 100, kUnknown),
                               236.0 * 236.0 / 600.0 * per_request_s, 1e-12));
    // Arrivals slower than the slots free up never wait.
    CHECK(finite_slot_wait_s(300, 128, 16, 10, 0.5) == 0.0);
}
