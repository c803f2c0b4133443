#include "serving/serving_model.h"

#include "clusterplan/sim/framework.h"
#include "clusterplan/sim/scenario.h"
#include "engine/model_constants.h"
#include "engine/model_state.h"
#include "engine/transformer_work.h"

#include <algorithm>
#include <cmath>

namespace cp::sim {

namespace {

// Activations move between kernels as 16-bit values, except in TensorRT's int8 engines, whose
// fused kernels (demoBERT's int8 skip-layernorm, GELU and attention plugins) read and write int8
// tensors between layers (an LLM server's W8A8 GEMMs quantise their 16-bit input per token).
double activation_bytes(const ServingSetup& st) {
    return st.int8_activations ? 1.0 : 2.0;
}
// Output-tile width for the n dimension (model_constants.h kGemmTileWidth); decode GEMMs with a
// small m run as GEMV-like kernels, so m is not rounded up.
double n_quantisation(double n) {
    const double tile = model::kGemmTileWidth;
    return n / (std::ceil(n / tile) * tile);
}

// Dense 16-bit peak of the A100 SXM4 (NVIDIA A100 datasheet), the part the GEMM size curve's
// shape was taken from (model_constants.h kGemmSizeCurve, after Calculon's A100 figures).
constexpr double kSizeCurveReferenceFlops = 312e12;

double head_dim(const TransformerShape& s) {
    return s.attention_head_dim();
}

// Launch and synchronisation of an engine's custom one-shot all-reduce kernel on NVLink: 6-15 us
// measured on 8 H100s for small messages (PyTorch PR 114001's intra-node one-shot kernels; 17 us
// in pytorch issue 131739), ~6 us for NCCL's NVLS on 2 (NVIDIA/nccl issue 1259).
constexpr double kCustomAllReduceLaunchS = 10e-6;

double all_reduce_s(const ServingSetup& st, double bytes) {
    if (st.tp <= 1 || bytes <= 0) return 0;
    const IntraNodeLink link = st.hw.node.intra_link;
    if (st.policy().custom_all_reduce && st.tp <= st.hw.devices_per_node &&
        (link == IntraNodeLink::nvlink || link == IntraNodeLink::nvswitch)) {
        // Two exchange steps (the two-shot form: reduce-scatter then all-gather of 1/n each), the
        // ring's bandwidth term for large messages.
        const double n = st.tp;
        return kCustomAllReduceLaunchS + 2.0 * st.tp_tier.step_s +
               2.0 * (n - 1.0) / n * bytes / st.tp_tier.bus_bytes_per_s;
    }
    if (neuron_devices(st.hw) && st.hw.cores_per_chip > 1 && st.tp > st.hw.cores_per_chip)
        return neuronlink_all_reduce_s(
            st, (st.tp + st.hw.cores_per_chip - 1) / st.hw.cores_per_chip, bytes);
    return ring_all_reduce_s(st.tp_tier, st.tp, bytes);
}

// The linear layers of one transformer layer for `tokens` rows on one TP rank.
void add_layer_gemms(const ServingSetup& st, double tokens, double count, ServingTerms& t,
                     bool context_encoding = false) {
    const TransformerShape& s = st.workload->shape;
    const double h = s.hidden, tp = st.tp, f = s.ffn_width();
    const double q = heads_per_rank(s, st.tp) * head_dim(s);
    const double kv_cols = 2.0 * kv_heads_per_rank(st) * head_dim(s);
    add_dense_weight_gemm(st, {tokens, q + kv_cols, h, 1}, count, t); // QKV
    add_dense_weight_gemm(st, {tokens, h, q, 1}, count, t);           // output proj.
    const double moe = moe_layer_share(s), dense = count * (1.0 - moe);
    add_dense_weight_gemm(st, {tokens, (s.gated_mlp ? 2.0 : 1.0) * f / tp, h, 1}, dense,
                          t);                                    // up(+gate)
    add_dense_weight_gemm(st, {tokens, h, f / tp, 1}, dense, t); // down
    if (moe > 0) add_moe_gemms(st, tokens, count * moe, t, context_encoding);
}

// Layernorms, residual adds, rotary/bias and the MLP activation: read and write once each; an
// engine that fuses them into two residual + norm kernels and the GEMM epilogues moves 2 x 3 h.
// With sequence parallelism (Korthikanti et al. 2022; NxD Inference --sequence-parallel-enabled,
// context encoding only) each rank norms and adds the residual of its 1/tp share of the tokens
// between a reduce-scatter and an all-gather, instead of every rank doing all of them.
double elementwise_bytes(const ServingSetup& st, double tokens, bool sequence_parallel = false) {
    const TransformerShape& s = st.workload->shape;
    if (st.policy().fused_layer_epilogues) return tokens * 6.0 * s.hidden * activation_bytes(st);
    const double full_h_share = sequence_parallel ? 1.0 / st.tp : 1.0;
    return tokens * (10.0 * s.hidden * full_h_share + 3.0 * mlp_width(s) / st.tp) *
           activation_bytes(st);
}

// Unfused attention writes the a x s x s scores, runs the softmax over them and reads them for
// P x V (Megatron's materialised attention: (4 x 2 + 1) bytes per score, transformer_work.cpp).
double scores_traffic_s(const ServingSetup& st, double sequences, double tokens) {
    if (st.fused_attention) return 0;
    const double heads = heads_per_rank(st.workload->shape, st.tp);
    const double bytes = (4.0 * activation_bytes(st) + 1.0) * sequences * heads * tokens * tokens;
    return hbm_s(st, bytes, bytes / std::max(1.0, sequences * heads));
}

// The context-encoding bucket of a prompt: the smallest of the buckets the deployment compiled
// (NxD Inference --context-encoding-buckets) that holds it, else the power-of-two default.
double prompt_bucket_tokens(const ServingSetup& st, double tokens) {
    return compiled_bucket_tokens(st.context_buckets, tokens);
}

} // namespace

double layers_per_stage(const ServingSetup& st) {
    // The fullest stage holds ceil(layers / pp) layers (vLLM get_pp_indices).
    return std::ceil(double(st.workload->shape.layers) / std::max(1, st.pp));
}

double stage_weight_share(const ServingSetup& st) {
    const int layers = st.workload->shape.layers;
    return layers > 0 ? layers_per_stage(st) / layers : 1.0 / std::max(1, st.pp);
}

// HBM time of `bytes` moved by kernels of `bytes_per_kernel` each (size-dependent efficiency).
double hbm_s(const ServingSetup& st, double bytes, double bytes_per_kernel) {
    if (bytes <= 0) return 0;
    return bytes /
           (st.rates.hbm_bytes_per_s * interpolate_log(model::kHbmSizeCurve, bytes_per_kernel));
}

double l2_spill_share(double maps_bytes, double l2_bytes) {
    if (!(l2_bytes > 0)) return 1.0;
    return maps_bytes > l2_bytes ? 1.0 - l2_bytes / maps_bytes : 0.0;
}

// Roofline of one GEMM whose B operand is a weight matrix stored at `weight_bytes` per element
// (g.batch > 1: a grouped GEMM of that many such matrices, each running at its own size's rate):
// the time goes to the compute or the weights term, whichever bounds it.
void add_weight_gemm(const ServingSetup& st, const GemmShape& g, double weight_bytes, double count,
                     ServingTerms& t, ServingTerm compute_term) {
    const double flops = g.flops();
    if (flops <= 0 || count <= 0) return;
    const double compute_s =
        flops / (gemm_flops_per_s(st.rates, flops / g.batch) * n_quantisation(g.n));
    const double maps = g.batch * (g.m * g.k + g.m * g.n) * activation_bytes(st);
    const double bytes =
        g.batch * g.k * g.n * weight_bytes + maps * l2_spill_share(maps, st.activation_l2_bytes);
    const double memory_s = hbm_s(st, bytes, bytes);
    if (compute_s >= memory_s)
        t[compute_term] += count * compute_s;
    else
        t[ServingTerm::weights] += count * memory_s;
}

int neuron_cores_per_chip(const AcceleratorSpec& a) {
    if (a.is_gpu) return 1;
    if (a.id.starts_with("Inferentia2") || a.id.starts_with("Trainium1")) return 2;
    if (a.id.starts_with("Inferentia1")) return 4;
    if (a.id.starts_with("Trainium2")) return 4;
    return 1;
}

ServingHardware serving_hardware(const NodeSpec& node) {
    ServingHardware hw;
    hw.node = node;
    hw.device = node.accelerator;
    hw.cores_per_chip = neuron_cores_per_chip(node.accelerator);
    hw.neuron_core_v3 = node.accelerator.id.starts_with("Trainium2");
    if (const model::SmFigures* sm = model::sm_figures(node.accelerator.id);
        sm && node.accelerator.is_gpu) {
        hw.sms = sm->sms;
        hw.sm_clock_mhz = sm->clock_mhz;
        hw.l2_bytes = sm->l2_mib * 1024.0 * 1024.0;
    }
    const double c = hw.cores_per_chip;
    if (c > 1) {
        for (double& p : hw.device.peak_tflops)
            p /= c;
        hw.device.int8_tops /= c;
        hw.device.memory_gib /= c;
        hw.device.hbm_gbytes_per_s /= c;
    }
    hw.devices_per_node = std::max(1, node.accelerators_per_node) * hw.cores_per_chip;
    return hw;
}

ServingTerms& ServingTerms::operator+=(const ServingTerms& o) {
    for (int i = 0; i < kServingTermCount; ++i)
        x[i] += o.x[i];
    return *this;
}

ServingTerms ServingTerms::scaled(double factor) const {
    ServingTerms r = *this;
    for (double& v : r.x)
        v *= factor;
    return r;
}

double serving_time_s(const ServingTerms& terms, const EngineFactors& factors) {
    double s = 0;
    for (int i = 0; i < kServingTermCount; ++i)
        s += terms.x[i] * factors.k_of(static_cast<ServingTerm>(i));
    return s;
}

ServingStepBreakdown serving_breakdown(const ServingTerms& t, const EngineFactors& f) {
    ServingStepBreakdown b;
    b.compute_s = t[ServingTerm::compute] * f.k_of(ServingTerm::compute) +
                  t[ServingTerm::cnn_compute] * f.k_of(ServingTerm::cnn_compute) +
                  t[ServingTerm::prefill_compute] * f.k_of(ServingTerm::prefill_compute) +
                  t[ServingTerm::expert_compute] * f.k_of(ServingTerm::expert_compute);
    b.weights_s = t[ServingTerm::weights] * f.k_of(ServingTerm::weights) +
                  t[ServingTerm::attention] * f.k_of(ServingTerm::attention) +
                  t[ServingTerm::feature_maps] * f.k_of(ServingTerm::feature_maps);
    b.kv_cache_s = t[ServingTerm::kv_cache] * f.k_of(ServingTerm::kv_cache);
    b.tp_comm_s = t[ServingTerm::tp_comm] * f.k_of(ServingTerm::tp_comm);
    b.overhead_s = t[ServingTerm::overhead] * f.k_of(ServingTerm::overhead) +
                   t[ServingTerm::overhead_v3] * f.k_of(ServingTerm::overhead_v3) +
                   t[ServingTerm::prefill_overhead] * f.k_of(ServingTerm::prefill_overhead) +
                   t[ServingTerm::pass_overhead] * f.k_of(ServingTerm::pass_overhead) +
                   t[ServingTerm::host_step_overhead] * f.k_of(ServingTerm::host_step_overhead) +
                   t[ServingTerm::host_seq_overhead] * f.k_of(ServingTerm::host_seq_overhead);
    return b;
}

double storage_bytes(StorageType type) {
    switch (type) {
    case StorageType::fp32:
        return 4.0;
    case StorageType::fp16:
    case StorageType::bf16:
        return 2.0;
    case StorageType::fp8:
    case StorageType::int8:
        return 1.0;
    case StorageType::int4:
        return 0.5 + 2.0 / 128.0;
    }
    return 2.0;
}

double heads_per_rank(const TransformerShape& s, int tp) {
    return std::ceil(double(s.heads) / std::max(1, tp));
}

double kv_heads_per_rank(const TransformerShape& s, int tp) {
    const double kv = s.kv_heads > 0 ? s.kv_heads : s.heads;
    return std::ceil(kv / std::max(1, tp));
}

double kv_heads_per_rank(const ServingSetup& st) {
    const TransformerShape& s = st.workload->shape;
    const int kv = s.kv_heads > 0 ? s.kv_heads : s.heads;
    const int tp = std::max(1, st.tp);
    const bool splits =
        kv % tp == 0 || !neuron_devices(st.hw) || (!st.transformers_neuronx && tp % kv == 0);
    return splits ? kv_heads_per_rank(s, tp) : heads_per_rank(s, tp);
}

double kv_bytes_per_token(const TransformerShape& s, StorageType kv_cache) {
    const double kv = s.kv_heads > 0 ? s.kv_heads : s.heads;
    return 2.0 * s.layers * kv * head_dim(s) * storage_bytes(kv_cache);
}

double serving_weight_bytes(const Workload& w, StorageType weights) {
    if (w.kind == WorkloadKind::generic) return w.params * storage_bytes(weights);
    const TransformerShape& s = w.shape;
    const double embedding = transformer_embedding_params(s);
    // Decoders keep a separate output matrix (Llama, Mistral, GPT-J checkpoints are untied);
    // a model marked untied already counts it in its embedding parameters.
    const double head = (s.encoder_only || !s.tied_embeddings) ? 0.0 : double(s.vocab) * s.hidden;
    // A MoE layer holds every expert, the router and the shared experts in place of a dense MLP.
    const LayerPieces p = layer_pieces(s, FineTuning{});
    const double moe_layers = s.moe.moe_layers(s.layers);
    const double layers = transformer_params(s) - embedding +
                          moe_layers * (p.experts * p.expert + p.router + p.shared - p.dense_mlp);
    return layers * storage_bytes(weights) + (embedding + head) * 2.0;
}

ServingSetup make_serving_setup(const Workload& workload, const NodeSpec& node,
                                ServingEngine engine, StorageType weights, StorageType kv_cache,
                                int tp, int pp, const CalibrationProfile* calibration) {
    ServingSetup st;
    st.workload = &workload;
    st.hw = serving_hardware(node);
    st.engine = engine;
    st.weights = weights;
    st.kv_cache = kv_cache;
    st.tp = std::max(1, tp);
    st.pp = std::max(1, pp);
    const AcceleratorSpec& d = st.hw.device;
    // Matrix precision: fp8 weights run fp8 GEMMs where the part has them (W8A8); int8 runs int8
    // kernels only in TensorRT (encoders, PTQ); other quantised weights are dequantised into
    // 16-bit GEMMs (weight-only W8A16/W4A16). 16-bit: bf16 unless the part lacks it.
    const bool has_bf16 = is_known(d.peak(Precision::bf16));
    st.compute = has_bf16 ? Precision::bf16 : Precision::fp16;
    if (weights == StorageType::fp8 && is_known(d.peak(Precision::fp8)))
        st.compute = Precision::fp8;
    if (weights == StorageType::fp32 && !has_bf16 && !is_known(d.peak(Precision::fp16)))
        st.compute = Precision::fp32;
    st.rates = make_compute_rates(d, st.compute, calibration);
    // An 8-bit GEMM runs the tiles of a 16-bit one at twice the rate: its fixed latency weighs as
    // in a 16-bit GEMM of half the FLOPs (compute_rates.h size_curve_flops_scale).
    if (st.compute == Precision::fp8)
        st.rates.size_curve_flops_scale = d.peak_16bit() / d.peak(Precision::fp8);
    // Trainium2 serves through NxD Inference only (transformers-neuronx, which materialises the
    // scores, ended with Neuron 2.26 and never ran on Trn2), and NxD Inference enables its flash
    // attention kernel for context encoding at every bucket of 256 tokens or more under LNC 2
    // (NxD Inference trn2 Llama 3.1 405B tutorial, "Flash attention"; under LNC 1, on
    // NeuronCore-v2, only from 4096 tokens).
    st.fused_attention = st.policy().fused_attention || st.hw.neuron_core_v3;
    if (weights == StorageType::int8 && runs_int8_gemms(engine, d)) {
        st.int8_compute = true;
        st.int8_activations = engine == ServingEngine::tensorrt;
        st.rates.size_curve_flops_scale = st.rates.peak_flops / (d.int8_tops * 1e12);
        st.rates.peak_flops = d.int8_tops * 1e12;
        st.rates.measured_gemm = nullptr;
    }
    // The size curve describes GPUs of ~100 SMs, filled in waves of output tiles; a NeuronCore's
    // tensor engine is one 128 x 128 systolic array, which a GEMM fills once its rows and columns
    // reach the array's. Such a part reads the curve by the GEMM's time at its own peak: at the
    // FLOPs that take as long on the A100 the curve was drawn from (a NeuronCore-v2's 95 dense
    // bf16 TFLOPS: 3.3x the FLOPs).
    if (!d.is_gpu && st.rates.peak_flops > 0)
        st.rates.size_curve_flops_scale = kSizeCurveReferenceFlops / st.rates.peak_flops;
    Network net;
    st.tp_network_known = make_network(st.hw.node, 1, calibration, net);
    // A GPU TP group wider than a node all-reduces over the instances' network (group_tier's
    // spanning tier: the NICs' share, the intra-node fabric for the hops inside a node); Neuron
    // keeps its TP on one instance.
    const int local = std::min(st.tp, net.devices_per_node);
    st.tp_tier = group_tier(net, neuron_devices(st.hw) ? local : st.tp, local);
    if (st.hw.cores_per_chip > 1 && st.tp <= st.hw.cores_per_chip) {
        // Both ranks sit on one chip: the all-reduce stays in on-chip memory.
        st.tp_tier.bus_bytes_per_s = st.hw.device.hbm_gbytes_per_s * 1e9;
        st.tp_network_known = true;
    }
    return st;
}

std::string serving_hardware_gap(const ServingSetup& st) {
    const AcceleratorSpec& d = st.hw.device;
    // Gaudi's catalog rate is derived from training runs, and no Gaudi serving engine
    // (optimum-habana, vLLM on HPU) has a profile fitted on published Gaudi serving figures.
    if (accelerator_generation(d) == AcceleratorGeneration::gaudi)
        return d.id + " serving is not modelled: no Gaudi serving engine profile is fitted on "
                      "published Gaudi serving runs (its catalog rate comes from training runs)";
    if (!(st.rates.peak_flops > 0))
        return d.id + " has no published " + std::string(enum_name(st.compute)) +
               " peak in the catalog (set cluster.custom or calibrate)";
    if (!(st.rates.hbm_bytes_per_s > 0))
        return d.id + " has no published memory bandwidth in the catalog";
    if (!is_known(d.memory_gib)) return d.id + " has no published memory size in the catalog";
    if (st.tp > 1 && !st.tp_network_known)
        return st.hw.node.instance_type +
               " has no known link bandwidth between its devices for tp " + std::to_string(st.tp);
    return {};
}

ServingTerms decode_step_terms(const ServingSetup& st, double running_batch, double context) {
    ServingTerms t;
    const double batch = std::max(running_batch, double(st.compiled_decode_batch));
    const TransformerShape& s = st.workload->shape;
    const double layers = layers_per_stage(st);
    add_layer_gemms(st, batch, layers, t);
    t[ServingTerm::weights] +=
        layers * hbm_s(st, elementwise_bytes(st, batch), batch * s.hidden * 2.0);
    // Attention reads every cached K and V of every sequence once per step (Pope et al. 2022).
    // Without a GQA kernel every query head streams its group's K and V itself.
    const double kv_reads = st.gqa_shared_kv_reads
                                ? kv_heads_per_rank(st)
                                : std::max(kv_heads_per_rank(st), heads_per_rank(s, st.tp));
    const double kv_layer =
        batch * context * 2.0 * kv_reads * head_dim(s) * storage_bytes(st.kv_cache);
    t[ServingTerm::kv_cache] += layers * hbm_s(st, kv_layer, kv_layer);
    // A cache regrown by concatenation is read and written whole again every step.
    if (st.policy().kv_cache_regrown_per_step) {
        const double stored = batch * context * 2.0 * kv_heads_per_rank(st) * head_dim(s) *
                              storage_bytes(st.kv_cache);
        t[ServingTerm::kv_cache] += layers * hbm_s(st, 2.0 * stored, 2.0 * stored);
    }
    // Logits of every sequence (output layer kept at 16 bit); last pipeline stage only.
    add_weight_gemm(st, {batch, double(s.vocab) / st.tp, double(s.hidden), 1}, 2.0, 1.0, t);
    // Two all-reduces of b x h activations per layer (after attention and after the MLP).
    t[ServingTerm::tp_comm] +=
        2.0 * layers * all_reduce_s(st, batch * s.hidden * activation_bytes(st));
    // Fixed cost per layer: NeuronCore-v3 (Trainium2) has its own, its collectives orchestrated
    // by CC-Cores rather than by the NeuronCores (serving_engine.h, overhead_v3).
    t[st.hw.neuron_core_v3 ? ServingTerm::overhead_v3 : ServingTerm::overhead] += layers;
    // A server on NxD Inference adds its host loop to every step (schedule, prepare the inputs,
    // read back the sampled tokens, detokenize and stream them), which the Neuron SDK's own
    // benchmark loop, whose runs the neuron factors are otherwise fitted on, has none of. A server
    // on transformers-neuronx steps as that loop does (optimum-neuron's 2024 TGI generator calls
    // the model's forward, which returns the logits to the host, and samples each live slot there,
    // as the library's sample() loop does: generator.py _generate_token), so the fitted steps hold
    // its host work.
    if (neuron_devices(st.hw) && st.policy().continuous_batching && !st.transformers_neuronx)
        t[ServingTerm::host_step_overhead] += 1.0 / st.pp;
    // A GPU server with a Python scheduler spends host time on every sequence of every step.
    if (st.policy().python_host_loop) t[ServingTerm::host_seq_overhead] += batch / st.pp;
    // A token passes every stage in turn (no overlap between stages for one step).
    return t.scaled(st.pp);
}

ServingTerms prefill_terms(const ServingSetup& st, double requests, double prompt_tokens,
                           double chunk_tokens, bool lm_head) {
    ServingTerms t;
    const double tokens =
        neuron_devices(st.hw) ? prompt_bucket_tokens(st, prompt_tokens) : prompt_tokens;
    const TransformerShape& s = st.workload->shape;
    const double layers = layers_per_stage(st);
    const double all_tokens = requests * tokens;
    if (all_tokens <= 0) return t;
    const double pass_tokens = chunk_tokens > 0 ? std::min(all_tokens, chunk_tokens) : all_tokens;
    const double passes = all_tokens / pass_tokens;
    add_layer_gemms(st, pass_tokens, layers * passes, t, true);
    t[ServingTerm::weights] += layers * passes *
                               hbm_s(st, elementwise_bytes(st, pass_tokens, st.sequence_parallel),
                                     pass_tokens * s.hidden * 2.0);
    // Causal attention with a fused kernel: Q*K^T and P*V over the lower triangle only. Where
    // the scores are materialised, both products run over the whole s x s square and the mask
    // only then removes the upper half (transformers-neuronx 0.10, Neuron 2.18: its context
    // encoding computes score = Q @ K over all positions, masks it, and context_combined runs
    // softmax(S) @ V as plain dot_generals, llama/hlo.py and layers/attention.py).
    const double heads = heads_per_rank(s, st.tp), dh = head_dim(s);
    const double causal_share = st.fused_attention ? 0.5 : 1.0;
    GemmShape scores{tokens, tokens, dh, requests * heads};
    t[ServingTerm::compute] += layers * 2.0 * causal_share * gemm_compute_time_s(st.rates, scores);
    t[ServingTerm::attention] += layers * scores_traffic_s(st, requests, tokens);
    // The new K and V are written to the cache once.
    t[ServingTerm::weights] +=
        layers * hbm_s(st,
                       all_tokens * kv_bytes_per_token(s, st.kv_cache) / (s.layers * double(st.tp)),
                       1e8);
    if (lm_head)
        add_weight_gemm(st, {requests, double(s.vocab) / st.tp, double(s.hidden), 1}, 2.0, 1.0, t);
    t[ServingTerm::tp_comm] +=
        2.0 * layers * passes * all_reduce_s(st, pass_tokens * s.hidden * activation_bytes(st));
    // Context encoding runs its own kernels: its matrix work is scaled by the prefill factor, not
    // the decode step's. Its fixed cost per layer pass is the decode step's where one program runs
    // both (EnginePolicy::prefill_in_step_program), else its own.
    t[ServingTerm::prefill_compute] += t[ServingTerm::compute];
    t[ServingTerm::compute] = 0;
    t[st.policy().prefill_in_step_program ? ServingTerm::overhead
                                          : ServingTerm::prefill_overhead] += layers * passes;
    return t.scaled(st.pp);
}

ServingTerms encoder_terms(const ServingSetup& setup, double batch, double tokens) {
    ServingTerms t;
    const TransformerShape& s = setup.workload->shape;
    const double layers = layers_per_stage(setup);
    const double all_tokens = batch * tokens;
    const bool neuron = neuron_devices(setup.hw);
    // Back-to-back kernels of one pass hand their activations over in the GPU's L2 where they fit
    // (as a CNN's feature maps, serving_cnn.cpp): a GEMM's input and output, a norm's input,
    // skip and output.
    ServingSetup st = setup;
    if (neuron) {
        t[ServingTerm::compute] += layers * neuron_encoder_matmul_s(st, all_tokens);
    } else {
        st.activation_l2_bytes = st.hw.l2_bytes;
        add_layer_gemms(st, all_tokens, layers, t);
    }
    // The largest elementwise kernel: a fused residual add + norm (input, skip, output), else the
    // MLP activation's input and output.
    const double elementwise_maps =
        all_tokens * activation_bytes(st) *
        (st.policy().fused_layer_epilogues ? 3.0 * s.hidden
                                           : std::max(3.0 * s.hidden, 2.0 * mlp_width(s) / st.tp));
    t[ServingTerm::weights] +=
        layers * hbm_s(st,
                       elementwise_bytes(st, all_tokens) *
                           l2_spill_share(elementwise_maps, st.activation_l2_bytes),
                       all_tokens * s.hidden * 2.0);
    // Bidirectional attention: the full s x s scores, fused (TensorRT/Neuron attention kernels).
    // A GPU's fused kernel runs one block per head of one sequence, in waves over the SMs
    // (model_constants.h kFusedAttentionBlockFlopsPerClock).
    const double heads = heads_per_rank(s, st.tp), dh = head_dim(s);
    if (st.fused_attention && st.hw.sms > 0) {
        const double waves = std::ceil(batch * heads / st.hw.sms);
        const double block_flops = 2.0 * 2.0 * tokens * tokens * dh;
        t[ServingTerm::attention] +=
            layers * waves * block_flops /
            (model::kFusedAttentionBlockFlopsPerClock * st.hw.sm_clock_mhz * 1e6);
    } else {
        t[ServingTerm::compute] +=
            layers * 2.0 * gemm_compute_time_s(st.rates, {tokens, tokens, dh, batch * heads});
        t[ServingTerm::attention] += layers * scores_traffic_s(st, batch, tokens);
    }
    t[ServingTerm::tp_comm] +=
        2.0 * layers * all_reduce_s(st, all_tokens * s.hidden * activation_bytes(st));
    t[ServingTerm::overhead] += layers;
    t[ServingTerm::pass_overhead] += 1.0 / st.pp;
    return t.scaled(st.pp);
}

} // namespace cp::sim
