#include "engine/transformer_stage.h"

#include "engine/context_parallel.h"
#include "engine/layer_training.h"
#include "engine/model_constants.h"
#include "engine/moe.h"
#include "engine/pipeline_stages.h"

#include <algorithm>
#include <cmath>

namespace cp::sim {
namespace {

// An FP8 cast reads the 16-bit element (2 bytes) and writes its FP8 copy (1 byte)
// (Micikevicius et al. 2022, "FP8 Formats for Deep Learning": per-tensor scaled conversion before
// each FP8 GEMM; Transformer Engine fuses some casts into LayerNorm, which this does not credit).
constexpr double kFp8CastBytesPerElement = 3.0;

// Per layer and micro-batch, all passes.
struct LayerTimes {
    double fwd = 0, bwd = 0, rec = 0; // compute
    double tp = 0, cp = 0, host = 0;  // exposed communication, host-issue idle
    double ep = 0;                    // MoE all-to-all
    double total() const { return fwd + bwd + rec + tp + cp + host + ep; }
};

// Tensor-parallel collectives of one layer on b*s*h activations: forward, the extra backward
// all-gathers of sequence parallelism, and the recomputed forward's.
struct TpComm {
    double fwd = 0, bwd_extra = 0, rec = 0;
    double fwd_gather = 0; // the forward's all-gathers (sequence parallel), part of fwd
};

TpComm tp_comm(const TransformerShape& shape, const Layout& layout, const Network& net, double msg,
               const StageOptions& options) {
    TpComm c;
    const int tp = layout.tp;
    if (tp <= 1) return c;
    // Sequence-parallel inputs gathered per sublayer (attention, MLP), or once per column-parallel
    // projection (Layout::tp_gather_per_projection: q, k, v and gate, up); each gather's backward
    // is a reduce-scatter of the input gradient, so the backward mirrors the count.
    const double gathers =
        layout.tp_gather_per_projection ? 3.0 + (shape.gated_mlp ? 2.0 : 1.0) : 2.0;
    const LinkTier tier = group_tier(net, tp, std::min(tp, net.devices_per_node));
    // torchao's float8 tensor parallelism casts before it gathers: the all-gathers carry FP8
    // (1 byte), the reduce-scatters the 16-bit outputs and gradients.
    const double gathered =
        options.fp8 && options.fp8_tp_gather ? msg / options.bytes_per_element : msg;
    c.fwd_gather = layout.sequence_parallel ? gathers * all_gather_s(tier, tp, gathered) : 0.0;
    c.fwd = layout.sequence_parallel ? c.fwd_gather + 2.0 * reduce_scatter_s(tier, tp, msg)
                                     : 2.0 * ring_all_reduce_s(tier, tp, msg);
    // With sequence parallelism Megatron keeps the inputs of the two column-parallel GEMMs
    // sharded and all-gathers them again in backward for their weight gradients. DTensor keeps
    // the gathered input for autograd, so only an op-policy recompute (which saves the
    // reduce-scatters but not the all-gathers) gathers again.
    const bool regather = options.tp_regather ||
                          (layout.recompute == Recompute::selective && options.selective_op_policy);
    if (layout.sequence_parallel && regather)
        c.bwd_extra = gathers * all_gather_s(tier, tp, gathered);
    if (layout.recompute == Recompute::full) c.rec = c.fwd;
    // A checkpointed input kept split over the ranks is gathered whole before its layer reruns.
    if (layout.distribute_saved_activations) c.rec += all_gather_s(tier, tp, msg);
    return c;
}

// Extra forward time of the Llama reference code's separate projections over the fused QKV and
// gate/up GEMMs the layer work counts: each of q, k, v (and w1, w3) is its own GEMM on the same
// input, so the input is read again and the narrow K and V GEMMs run at their own, often
// memory-bound, rate (TransformerShape::llama_reference_code).
double separate_projections_extra_s(const TransformerShape& shape, const LayerWork& lw,
                                    const ComputeRates& rates, double e) {
    if (!shape.llama_reference_code || lw.gemm_count < 5) return 0;
    const GemmShape& qkv = lw.gemms[0];
    const double q = shape.query_width(), kv = shape.kv_width();
    const double per_column = qkv.n / (q + 2.0 * kv); // 1 / tp
    GemmShape wq = qkv, wk = qkv;
    wq.n = q * per_column;
    wk.n = kv * per_column;
    double extra =
        gemm_time_s(rates, wq, e) + 2.0 * gemm_time_s(rates, wk, e) - gemm_time_s(rates, qkv, e);
    if (shape.gated_mlp) {
        const GemmShape& up = lw.gemms[static_cast<std::size_t>(lw.gemm_count - 2)];
        GemmShape half = up;
        half.n = up.n / 2.0;
        extra += 2.0 * gemm_time_s(rates, half, e) - gemm_time_s(rates, up, e);
    }
    return std::max(0.0, extra);
}

} // namespace

double causal_tile_share(double span_tokens) {
    const double n = std::max(1.0, std::ceil(span_tokens / model::kFusedAttentionTileRows));
    return (n + 1.0) / (2.0 * n);
}

StageTimes slowest_stage(const TransformerShape& shape, const Layout& layout, const Network& net,
                         const ComputeRates& rates, const StageOptions& options) {
    const double e = options.bytes_per_element;
    const LayerWork lw = cp_layer_work(shape, layout, e);
    const auto core = static_cast<std::size_t>(lw.attention_core_begin);
    // Fused attention keeps the s*s scores on chip and runs at the fused kernel's own rate; a
    // decoder's causal mask lets it skip the tiles above the diagonal, and a FlashAttention-1
    // generation kernel takes longer over the same tiles.
    const double fused_time_scale =
        (lw.attention_fused && !shape.encoder_only
             ? causal_tile_share(shape.attention_span_tokens())
             : 1.0) *
        (lw.attention_fused && shape.flash_attention_v1 ? model::kFlashAttentionV1TimeRatio : 1.0);
    auto core_time = [&](std::size_t i) {
        return lw.attention_fused ? fused_time_scale * fused_attention_time_s(rates, lw.gemms[i])
                                  : gemm_time_s(rates, lw.gemms[i], e);
    };
    double linear_fwd = 0, cast_bytes = 0;
    for (std::size_t i = 0; i < static_cast<std::size_t>(lw.gemm_count); ++i) {
        if (i == core || i == core + 1) continue;
        linear_fwd += gemm_time_s(rates, lw.gemms[i], e);
        cast_bytes += kFp8CastBytesPerElement * lw.gemms[i].m * lw.gemms[i].k * lw.gemms[i].batch;
    }
    linear_fwd += separate_projections_extra_s(shape, lw, rates, e);
    // FP8 GEMMs take FP8 operands: each 16-bit activation input is read and written again as
    // FP8 (per-tensor scaled) before its GEMM; weights are cast once per step, not per pass.
    // In MoE layers the experts' inputs (k routed copies of every token) replace the dense MLP's.
    if (shape.moe.enabled() && lw.gemm_count >= 2) {
        const auto up = static_cast<std::size_t>(lw.gemm_count - 2), down = up + 1;
        const double dense_mlp =
            lw.gemms[up].m * lw.gemms[up].k + lw.gemms[down].m * lw.gemms[down].k;
        const double moe_share = double(shape.moe.moe_layers(shape.layers)) / shape.layers;
        cast_bytes += moe_share * kFp8CastBytesPerElement *
                      (moe_fp8_cast_elements(shape, layout) - dense_mlp);
    }
    const double cast_s = options.fp8 ? memory_time_s(rates, cast_bytes, lw.gemm_count - 2) : 0.0;
    const double core_gemm = core_time(core) + core_time(core + 1);
    const double core_mem = memory_time_s(rates, lw.attention_core_bytes, 2);
    const double mem_fwd = memory_time_s(rates, lw.replicated_bytes, lw.replicated_kernels) +
                           memory_time_s(rates, lw.sharded_bytes, lw.sharded_kernels) + core_mem +
                           cast_s;
    // MoE blocks, LoRA adapters, frozen and 4-bit base weights (layer_training.h).
    const LayerAdjust adj = layer_adjust(shape, options.finetune, layout, net, rates, lw, e,
                                         options.expert_gemm_streams);
    LayerTimes t;
    t.fwd = linear_fwd + core_gemm + mem_fwd + adj.forward_s;
    // dgrad + wgrad GEMMs, grads of each kernel (frozen weights: dgrad only)
    t.bwd = 2.0 * t.fwd + adj.backward_s;
    t.ep = adj.ep_comm_s + (layout.recompute == Recompute::full ? adj.ep_comm_forward_s : 0.0);
    // FlashAttention's backward recomputes the scores GEMM in every recompute mode.
    t.rec = lw.attention_fused ? core_time(core) : 0.0;
    if (layout.recompute == Recompute::full) t.rec += t.fwd;
    if (layout.recompute == Recompute::selective && options.selective_op_policy) {
        // PyTorch's op policy reruns the K and output projections, one MLP GEMM
        // (op_policy_recomputed_flops) and every memory-bound kernel of the forward, at the
        // rate of the layer's linear GEMMs.
        const double linear_flops = lw.gemm_flops - lw.attention_core_flops;
        t.rec += linear_fwd * op_policy_recomputed_flops(shape, lw) / linear_flops +
                 memory_time_s(rates, lw.replicated_bytes, lw.replicated_kernels) +
                 memory_time_s(rates, lw.sharded_bytes, lw.sharded_kernels);
    } else if (layout.recompute == Recompute::selective) {
        t.rec += core_gemm + core_mem;
    }

    // Megatron-Core's expert-parallel overlap (--overlap-moe-expert-parallel-comm, "combined
    // 1F1B", after DeepSeek-V3's DualPipe) runs one micro-batch's forward beside another's
    // backward in the steady 1F1B state, split per layer so each one's dispatch and combine run
    // during the other's attention and expert compute: what that compute cannot cover is exposed.
    if (layout.moe_a2a_overlap) t.ep = overlapped_comm_s(t.ep, t.fwd + t.bwd + t.rec);

    const TransformerShape local = cp_local_shape(shape, layout.cp);
    const double msg = double(layout.micro_batch) * local.seq_len * shape.hidden * e;
    const TpComm tp = tp_comm(shape, layout, net, msg, options);
    // Transformer Engine's userbuffer overlap (Megatron-Core --tp-comm-overlap, sequence
    // parallel only, NVLink inside a node) splits each all-gather / reduce-scatter into chunks
    // pipelined with the GEMM that consumes or produces them: what the GEMMs cannot cover stays.
    if (options.tp_comm_overlap && layout.sequence_parallel && layout.tp > 1 &&
        layout.tp <= net.devices_per_node) {
        const bool full = layout.recompute == Recompute::full;
        // PyTorch's async TP (torch.compile's micro-pipelined TP) speeds up the forward: its
        // authors measured Llama 3 70B's forward 20 % and the whole step 8 % faster, what a
        // forward and recomputed forward freed of their collectives give while the backward
        // keeps its own exposed (discuss.pytorch.org/t/209487, Aug 2024; torchtitan
        // benchmarks/asyncTP_llama3_h100_2025-06: 1.09 on the same 70B).
        const double backward = options.tp_overlap_forward_only
                                    ? tp.fwd + tp.bwd_extra
                                    : overlapped_comm_s(tp.fwd + tp.bwd_extra, 2.0 * linear_fwd);
        t.tp = overlapped_comm_s(tp.fwd, linear_fwd) + backward +
               (full ? overlapped_comm_s(tp.rec, linear_fwd) : 0.0);
    } else if (options.tp_async_backward && layout.sequence_parallel && layout.tp > 1) {
        // Transformer Engine's Linear without userbuffers (NVIDIA/TransformerEngine v1.9
        // transformer_engine/pytorch/module/linear.py, layernorm_linear.py backward): a
        // row-parallel layer gathers its output gradient before its GEMMs (the mirror of the
        // forward's reduce-scatters: waits); a column-parallel layer re-gathers its input
        // (async_op) while its dgrad GEMM runs and reduce-scatters the dgrad (async_op) while its
        // wgrad GEMM runs, so those hide behind the QKV and MLP-up backward GEMMs.
        const double row_grad_gathers = tp.fwd - tp.fwd_gather;
        const double column_bwd_s =
            2.0 * (gemm_time_s(rates, lw.gemms[0], e) +
                   gemm_time_s(rates, lw.gemms[static_cast<std::size_t>(lw.gemm_count - 2)], e));
        t.tp = tp.fwd + row_grad_gathers +
               overlapped_comm_s(tp.fwd_gather + tp.bwd_extra, column_bwd_s) + tp.rec;
    } else {
        t.tp = 2.0 * tp.fwd + tp.bwd_extra + tp.rec; // backward mirrors forward
    }
    // The K/V ring hides behind the attention of the chunk at hand (forward, then K/V and their
    // gradients in backward; again in a fully recomputed forward).
    const double core_fwd = core_gemm + core_mem;
    const int forward_passes = layout.recompute == Recompute::full ? 2 : 1;
    if (options.cp_all_gather) {
        const double core_bwd = 2.0 * core_fwd + (lw.attention_fused ? core_time(core) : 0.0);
        t.cp =
            cp_all_gather_ring_s(shape, layout, net, rates, e, core_fwd, core_bwd, forward_passes);
    } else if (options.ulysses_cp) {
        t.cp = (1.0 + forward_passes) * ulysses_forward_s(shape, layout, net, e);
    } else {
        const double ring_exposed =
            overlapped_comm_s(cp_ring_forward_s(shape, layout, net, e), core_fwd);
        t.cp = (2.0 + forward_passes) * ring_exposed;
    }

    // Host-issue floor (host_issue.h): the GPU cannot finish a layer before the host has issued
    // its kernels; what the host adds beyond the GPU work is idle GPU time.
    double passes =
        3.0 + (layout.recompute == Recompute::full        ? 1.0
               : layout.recompute == Recompute::selective ? model::kHostPassesSelectiveRecompute
                                                          : 0.0);
    // Transformer Engine's P2P ring issues each of its steps from the host (model_constants.h).
    if (!options.cp_all_gather && !options.ulysses_cp)
        passes += cp_ring_host_passes(layout.cp, forward_passes);
    passes += lora_host_passes(shape, options.finetune, layout, options.fused_projection_adapters,
                               forward_passes);
    // Per-expert kernels (moe.h) are host work too. Dropless routing copies the per-expert token
    // counts to the host before it can size the expert GEMMs, so every MoE layer drains the GPU's
    // queue and the host cannot run ahead: those kernels' issue is on the critical path. With
    // token dropping (static shapes) the host queues them ahead like the rest of the layer.
    const double moe_share = double(shape.moe.moe_layers(shape.layers)) / shape.layers;
    // Under the combined 1F1B schedule the synchronisation of one micro-batch's forward also
    // drains the other's queued backward, so each expert's issue costs more there.
    const double synced_pass_s =
        options.expert_issue_pass_s +
        (layout.moe_a2a_overlap ? options.expert_issue_combined_pass_s : 0.0);
    const double synced_events = moe_share * moe_expert_issue_events(shape, layout);
    const double synced_s = synced_events * synced_pass_s;
    const double queued_s = (moe_share * moe_expert_launch_events(shape, layout) - synced_events) *
                            options.expert_issue_pass_s;
    const double gpu_s = t.fwd + t.bwd + t.rec + t.tp + t.cp + t.ep;
    t.host = host_bound_layer_s(passes * options.host_pass_s + queued_s, gpu_s,
                                options.host_overlap_exponent) -
             gpu_s + synced_s;

    // Embedding lookup/gradient (first stage) and logits + cross-entropy (last stage). A frozen
    // base (LoRA, QLoRA) trains neither table: Megatron-Core runs a frozen output layer through
    // linear_with_frozen_weight, forward and input gradient only (NVIDIA/Megatron-LM core_r0.7.0
    // megatron/core/tensor_parallel/layers.py), and autograd skips a frozen embedding's
    // scatter-add, so one of the three passes remains there.
    const bool frozen = options.finetune.adapters();
    const HeadWork head = transformer_head_work(local, layout.micro_batch, layout.tp);
    const double head_s = (frozen ? 2.0 : 3.0) * gemm_time_s(rates, head.logits, e) +
                          memory_time_s(rates, 2.0 * head.loss_bytes, 4);
    double embed_s =
        frozen ? memory_time_s(rates, 2.0 * msg, 1) : memory_time_s(rates, 3.0 * 2.0 * msg, 3);
    if (layout.tp > 1) {
        const LinkTier tier = group_tier(net, layout.tp, std::min(layout.tp, net.devices_per_node));
        embed_s += layout.sequence_parallel ? reduce_scatter_s(tier, layout.tp, msg)
                                            : ring_all_reduce_s(tier, layout.tp, msg);
    }

    // The pace is the slowest stage's: first (embedding), last (logits and loss) or middle.
    const StageSplit split = stage_split(shape.layers, layout);
    int layers = split.first;
    double ends = embed_s + head_s;
    if (layout.pp > 1) {
        const double per_layer = t.total();
        const double first = split.first * per_layer + embed_s;
        const double last = split.last * per_layer + head_s;
        const double middle = split.middle * per_layer;
        if (last >= first && last >= middle) {
            layers = split.last;
            ends = head_s;
        } else if (middle > first) {
            layers = split.middle;
            ends = 0;
        } else {
            ends = embed_s;
        }
    }
    const double n = layers;
    StageTimes st;
    st.layers = layers;
    st.compute_s = n * (t.fwd + t.bwd) + ends;
    st.recompute_s = n * t.rec;
    st.tp_comm_s = n * t.tp;
    st.cp_comm_s = n * t.cp;
    st.backward_s = n * (t.bwd + t.rec);
    st.host_s = n * t.host;
    st.ep_comm_s = n * t.ep;
    st.mean_stage_s = (shape.layers * t.total() + embed_s + head_s) / std::max(1, layout.pp);
    return st;
}

} // namespace cp::sim
