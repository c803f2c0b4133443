// The serving step model: decode steps, prefill passes, encoder and CNN forward passes, timed
// per term at datasheet rates (roofline per kernel: a GEMM is compute- or memory-bound, kernels
// run one after another, so their times add), plus the memory that caps the batch.
// Sources: Pope et al. 2022 "Efficiently Scaling Transformer Inference"; Kwon et al. 2023
// (PagedAttention/vLLM); Agrawal et al. 2024 (Sarathi-Serve, chunked prefill); LLMCompass
// (ISCA'24).
#pragma once

#include "clusterplan/sim/calibration_profile.h"
#include "clusterplan/sim/serving.h"
#include "clusterplan/sim/serving_engine.h"
#include "clusterplan/sim/workload.h"
#include "engine/collectives.h"
#include "engine/compute_rates.h"
#include "engine/transformer_work.h"

#include <array>
#include <vector>

namespace cp::sim {

// NeuronCores per chip as the Neuron SDK counts them for TP (AWS Neuron architecture docs:
// Inferentia2 and Trainium1 2 x NeuronCore-v2, Inferentia1 4 x NeuronCore-v1; Trainium2 8 x
// NeuronCore-v3 paired into 4 logical cores by the default Logical NeuronCore configuration 2,
// "64 ranks per instance" on trn2.48xlarge); 1 for GPUs.
int neuron_cores_per_chip(const AcceleratorSpec& accelerator);

// What one replica runs on: devices are GPUs, or NeuronCores (a chip's compute, memory and
// bandwidth split evenly over its cores; TP is counted in cores as the Neuron SDK does).
struct ServingHardware {
    NodeSpec node;            // the instance (prices, links)
    AcceleratorSpec device;   // one device (a GPU or one NeuronCore)
    int devices_per_node = 1; // GPUs or NeuronCores in one instance
    int cores_per_chip = 1;
    // Trainium2's NeuronCore-v3: flash-attention context encoding and its own fixed cost per
    // layer (ServingTerm::overhead_v3).
    bool neuron_core_v3 = false;
    // A GPU's SM count and clock (model_constants.h kSmFigures); zero where the table has none.
    double sms = 0, sm_clock_mhz = 0;
    double l2_bytes = 0; // the GPU's L2 cache (same table); zero where unknown
};
ServingHardware serving_hardware(const NodeSpec& node);
// Whether the devices are NeuronCores (Inferentia, Trainium) rather than GPUs.
inline bool neuron_devices(const NodeSpec& node) {
    return !node.accelerator.is_gpu;
}
inline bool neuron_devices(const ServingHardware& hw) {
    return !hw.device.is_gpu;
}

// One deployment's fixed facts, resolved once and reused by every step evaluation.
struct ServingSetup {
    const Workload* workload = nullptr;
    ServingHardware hw;
    ServingEngine engine = ServingEngine::tensorrt_llm;
    StorageType weights = StorageType::fp16;
    StorageType kv_cache = StorageType::fp16;
    Precision compute = Precision::fp16; // matrix precision (fp8 for fp8 weights where supported)
    bool fused_attention = true;         // else prefill writes and reads the s x s scores
    bool int8_compute = false;           // int8 GEMMs at the int8 peak (TensorRT; W8A8 servers)
    bool int8_activations = false;       // int8 tensors between kernels (TensorRT int8 engines)
    int tp = 1, pp = 1;
    ComputeRates rates;
    LinkTier tp_tier; // the network one TP group's all-reduces use
    bool tp_network_known = true;
    // Sequences every decode step computes whatever the running batch: a server on Neuron runs
    // the token-generation graph compiled for its batch, empty slots padded (0 = the batch).
    int compiled_decode_batch = 0;
    // Context-encoding buckets the Neuron graphs were compiled for, ascending (empty: powers of
    // two from 128, NxD Inference's auto-bucketing default).
    std::vector<int> context_buckets;
    // Token-generation buckets (KV positions a decode step attends over), ascending (empty:
    // powers of two from 128).
    std::vector<int> generation_buckets;
    // Context encoding with sequence parallelism: norms and residual adds on 1/tp of the tokens.
    bool sequence_parallel = false;
    // L2 that keeps one kernel's activations for the next (a GPU's encoder forward pass, as a
    // CNN's feature maps): what a kernel reads and writes beyond it goes through HBM
    // (l2_spill_share); 0: every activation byte goes through HBM.
    double activation_l2_bytes = 0;
    // Compiled by transformers-neuronx rather than NxD Inference (Neuron devices only): its KV-head
    // sharding, and a server's steps run through its generation loop (see decode_step_terms).
    bool transformers_neuronx = false;
    // Kernels launched one by one from the host, without CUDA graphs (TGI before pull request
    // 1703, 2024-04: graphs opt-in; a TorchScript model on Triton's LibTorch backend): a decode
    // step or an encoder's forward pass lasts at least the host's time to issue its layers
    // (eager_issue_floor_s).
    bool eager_decode = false;
    // The prompt's last token is left to the first decode step, which samples the first token
    // (lmdeploy v0.1.0a1's TurboMind: LlamaBatch::ContextDecode encodes input_length - 1 tokens,
    // "-1 since we skip last token"): a first token costs that prefill and one decode step.
    bool first_token_from_decode_step = false;
    // Decode attention reads each KV head once for all the query heads that share it (a GQA
    // kernel: TensorRT-LLM's XQA, FlashAttention, paged attention); false: one masked-MHA pass per
    // query head, each re-reading its group's K and V (TensorRT-LLM before XQA was on by default).
    bool gqa_shared_kv_reads = true;
    // A Neuron server that schedules one step ahead (the vLLM Neuron plugin's async scheduling, on
    // by default with on-device sampling): the host loop of one step runs while the device runs
    // the previous one, so a decode step lasts the longer of the two (decode_step_s).
    bool async_host_loop = false;
    // The graphs return each step's logits, all-gathered over the TP ranks and cast to fp32, and
    // the host samples them (optimum-neuron's NxD backend with on_device_sampling off: runner.py
    // _get_next_tokens hands the logits to NeuronSampler, vllm/sampler.py @ 213224e6); the next
    // step's input is the host's sample, so no step overlaps it (vllm-neuron
    // docs/design/framework/async_execution.md @ 81ce03ae: "CPU Sampling (Cannot Use Async)").
    bool host_sampling = false;
    // Whether a step waits for the host's sampling (ServingSetup::host_sampling): a server on
    // NxD; transformers-neuronx servers' fitted steps already hold their host sampling.
    bool samples_on_host() const {
        return host_sampling && neuron_devices(hw) && !transformers_neuronx &&
               policy().continuous_batching;
    }
    const EnginePolicy& policy() const { return engine_policy(engine, neuron_devices(hw)); }
    // Whether the host loop overlaps the device's step: a Neuron server that schedules ahead
    // (GPU engines' fitted steps already carry their own host overlap).
    bool host_loop_overlapped() const {
        return async_host_loop && neuron_devices(hw) && !samples_on_host();
    }
};

// Per-term times of one unit of work at datasheet rates (overhead: layer-passes counted).
struct ServingTerms {
    std::array<double, kServingTermCount> x{};
    double& operator[](ServingTerm t) { return x[static_cast<int>(t)]; }
    double operator[](ServingTerm t) const { return x[static_cast<int>(t)]; }
    ServingTerms& operator+=(const ServingTerms& o);
    ServingTerms scaled(double factor) const;
};

// The least time of an m x n x k GEMM on a GPU from its output tiles alone: whole waves of tiles,
// one per SM, each at one SM's share of the sustained peak (0 where the SM count is unknown).
double gemm_wave_floor_s(const ServingSetup& setup, double m, double n, double k);

// Seconds for `terms` under `factors`, and the same split by term.
double serving_time_s(const ServingTerms& terms, const EngineFactors& factors);
// The least time of one pass over the layers (a decode step, an encoder's forward pass) whose
// kernels the engine issues eagerly from the host: the host's time to issue its layers (0 where
// the engine replays a captured graph).
double eager_issue_floor_s(const ServingSetup& setup);
// Seconds of one decode step whose work is `step` (decode_step_terms): its device time, or where
// the engine issues the step's kernels eagerly from the host, the host's issue time if longer.
double decode_step_s(const ServingSetup& setup, const ServingTerms& step,
                     const EngineFactors& factors);
// Seconds one step or prompt pass waits for the host to sample its logits (0 where the device
// samples: ServingSetup::samples_on_host).
double host_sampling_s(const ServingSetup& setup, const EngineFactors& factors);
ServingStepBreakdown serving_breakdown(const ServingTerms& terms, const EngineFactors& factors);

// Whether the replica's hardware has the figures the model needs; else a reason sentence.
std::string serving_hardware_gap(const ServingSetup& setup);
ServingSetup make_serving_setup(const Workload& workload, const NodeSpec& node,
                                ServingEngine engine, StorageType weights, StorageType kv_cache,
                                int tp, int pp, const CalibrationProfile* calibration);

// Layers on the fullest pipeline stage, ⌈layers / pp⌉: where pp does not divide the layers
// vLLM's default split (vllm/distributed/utils.py get_pp_indices; VLLM_PP_LAYER_PARTITION sets
// others, e.g. 33,28 for DeepSeek-V3's 61 layers on pp 2) leaves stages one layer apart, and the
// fullest sets a device's weights and KV cache and paces the pipeline.
double layers_per_stage(const ServingSetup& setup);
// The fullest stage's share of the layer weights (1 / pp when pp divides the layers).
double stage_weight_share(const ServingSetup& setup);

// Bytes of the weights of the whole model as stored (layers in `weights` type; embedding and
// output layer kept at 16 bit, as quantised checkpoints keep them; int4 adds one fp16 scale per
// 128 weights, the AWQ/GPTQ group size).
double serving_weight_bytes(const Workload& workload, StorageType weights);

// Roofline of one GEMM on a weight matrix stored at `weight_bytes` per element, `count` times:
// its time goes to `compute_term` or to the weights term, whichever bounds it.
void add_weight_gemm(const ServingSetup& setup, const GemmShape& gemm, double weight_bytes,
                     double count, ServingTerms& terms,
                     ServingTerm compute_term = ServingTerm::compute);
// Whether int8 weights run as int8 x int8 tensor-core GEMMs at the part's int8 peak (else they
// are dequantised into 16-bit GEMMs; serving_dequant.cpp).
bool runs_int8_gemms(ServingEngine engine, const AcceleratorSpec& device);
// One linear layer's GEMM on the deployment's stored weights, through the engine's kernel for
// that storage (serving_dequant.cpp).
void add_dense_weight_gemm(const ServingSetup& setup, const GemmShape& gemm, double count,
                           ServingTerms& terms);

// Mixture-of-Experts layers (serving_moe.cpp): the share of layers that are MoE, the MLP width a
// token writes in a layer, and the routed and shared experts' GEMMs for `tokens` rows.
double moe_layer_share(const TransformerShape& shape);
double mlp_width(const TransformerShape& shape);
void add_moe_gemms(const ServingSetup& setup, double tokens, double count, ServingTerms& terms,
                   bool context_encoding);
// KV-cache bytes per token of the whole model (2 x layers x kv_heads x head_dim x bytes).
double kv_bytes_per_token(const TransformerShape& shape, StorageType kv_cache);
// Attention heads the busiest TP rank computes: ranks hold whole heads, so where TP does not
// divide the head count (Llama 2 13B's 40 heads on 24 or 32 NeuronCores) some ranks hold one
// more, and every layer waits for them; GPU engines run divisible splits (heads / tp).
double heads_per_rank(const TransformerShape& shape, int tp);
// KV heads each TP rank holds: whole heads, at least one (heads are replicated when tp > kv).
double kv_heads_per_rank(const TransformerShape& shape, int tp);
// The same under the deployment's library. Where the KV heads of a grouped-query model go when they
// do not split evenly over the TP ranks:
// GPU engines replicate each KV head to the ranks of its query heads (at least one per rank). NxD
// Inference replicates them to one per rank where the TP degree is a multiple of their count and
// otherwise converts the model to multi-head attention, one KV head per (padded) query head
// (neuronx-distributed-inference modules/attention/gqa.py, get_shardable_head_counts, which
// optimum-neuron's NxD backend adapts). transformers-neuronx (Neuron 2.18-2.26) shards them only
// where their count is a multiple of the TP degree and otherwise replicates them to the query
// heads ("KV head replication will be enabled since the number of KV heads is not evenly
// divisible by the tensor parallel degree": GQA.REPLICATED_HEADS, decoder.py @ 0.10.0.332), so
// Llama 3's 8 KV heads on 24 or 32 NeuronCores are read as 2-3 per core, not 1.
double kv_heads_per_rank(const ServingSetup& setup);

// The smallest of `compiled` (ascending) that holds `tokens`, else the power-of-two default
// (Neuron's static shapes: serving_buckets.cpp).
double compiled_bucket_tokens(const std::vector<int>& compiled, double tokens);
// KV positions a decode step attends over, on average over the `output_tokens` generated after
// an `input_tokens` prompt: the cache's fill on GPUs (input + output / 2); on Neuron the length
// of the compiled token-generation bucket each step runs in (static shapes: a step reads and
// attends over its whole bucket, padding masked, not the filled positions). With a `quantile`
// (0.5: a p50 TPOT), the step at that fraction of the generated positions instead of the mean:
// on Neuron the bucket holding it; on GPUs the cache grows linearly, so the median step's fill is
// the mean.
double decode_context_tokens(const ServingSetup& setup, double input_tokens, double output_tokens,
                             double quantile = kUnknown);
// One decode step of `batch` sequences whose caches hold `context` tokens on average.
ServingTerms decode_step_terms(const ServingSetup& setup, double batch, double context);
// A prefill of `requests` prompts of `tokens` each, run in passes of at most `chunk_tokens`
// (0 = one pass); with `lm_head` the first token's logits are computed.
ServingTerms prefill_terms(const ServingSetup& setup, double requests, double tokens,
                           double chunk_tokens, bool lm_head = true);
// One encoder forward pass (bidirectional attention, no generation) of `batch` x `tokens`. On a
// GPU with SM figures (model_constants.h kSmFigures) the fused attention is timed by its launch
// shape (the attention term); elsewhere at the GEMM rate. On Neuron the linear layers run at the
// NeuronCore's flat matmul rate (serving_neuron_forward.cpp).
ServingTerms encoder_terms(const ServingSetup& setup, double batch, double tokens);
// One encoder layer's linear layers over `tokens` rows on one NeuronCore, at its matmul rate.
double neuron_encoder_matmul_s(const ServingSetup& setup, double tokens);
// The time to read a forward pass's weights once from device memory (its lower bound).
double forward_weight_stream_s(const ServingSetup& setup);
// One TP all-reduce of `bytes` over the NeuronLinks of `chips` chips, by how the instance wires
// them (serving_neuron_link.cpp).
double neuronlink_all_reduce_s(const ServingSetup& setup, int chips, double bytes);
// One CNN forward pass of `batch` samples (generic model: forward = flops_per_sample / 3;
// serving_cnn.cpp): on a GPU ResNet-50's convolutions as implicit GEMMs with their feature-map
// traffic, on Neuron the whole-model rate.
ServingTerms cnn_terms(const ServingSetup& setup, double batch);
// FLOPs of one ResNet-50 v1.5 forward pass of one 224x224 image from its layers (4.1 GMAC).
double resnet50_forward_flops();
// HBM time of `bytes` moved by kernels of `bytes_per_kernel` each (size-dependent efficiency).
double hbm_s(const ServingSetup& setup, double bytes, double bytes_per_kernel);
// Share of a kernel's activation traffic (`maps_bytes` read and written) that goes through HBM
// when an L2 of `l2_bytes` holds what its predecessor wrote and its successor reads (the L2 is
// write-back): none where they fit together, else the part beyond the L2.
double l2_spill_share(double maps_bytes, double l2_bytes);

} // namespace cp::sim
