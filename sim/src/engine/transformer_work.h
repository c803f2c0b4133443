// Work of a transformer generalised from its GEMMs (Narayanan et al. SC'21; Korthikanti et al.
// 2022): FLOPs, HBM traffic of the memory-bound kernels, parameter count and activation bytes,
// per layer, per micro-batch and per tensor-parallel rank. The closed-form Megatron FLOP count is
// kept only as the test oracle.
#pragma once

#include "clusterplan/sim/plan.h"
#include "clusterplan/sim/workload.h"

#include <array>

namespace cp::sim {

// C[m x n] = A[m x k] * B[k x n], repeated `batch` times (batched GEMM for attention heads).
struct GemmShape {
    double m = 0, n = 0, k = 0, batch = 1;
    double flops() const { return 2.0 * m * n * k * batch; }
    double bytes(double bytes_per_element) const {
        return bytes_per_element * batch * (m * k + k * n + m * n);
    }
};

inline constexpr int kMaxLayerGemms = 8;

// Forward work of one layer for one micro-batch on one tensor-parallel rank.
struct LayerWork {
    std::array<GemmShape, kMaxLayerGemms> gemms{};
    int gemm_count = 0;
    int attention_core_begin =
        0;                 // gemms[begin, begin+2) are scores and context (selective recompute)
    double gemm_flops = 0; // sum over gemms
    double attention_core_flops = 0;
    // HBM traffic of memory-bound kernels in the forward pass, bytes:
    double replicated_bytes = 0; // layernorms, dropout+residual: not split by tp (split with SP)
    double sharded_bytes = 0;    // bias-GeLU / SwiGLU: split by tp
    double attention_core_bytes = 0; // softmax + dropout of the scores: split by tp (0 when fused)
    // Kernels the replicated and sharded traffic is spread over (the HBM size curve's unit).
    double replicated_kernels = 4, sharded_kernels = 1;
    // FlashAttention fuses scores, softmax and context in on-chip SRAM (the s*s matrix is never
    // written), and its backward recomputes the scores Q*K^T from the stored softmax statistics.
    bool attention_fused = false;
    double attention_backward_recompute_flops = 0; // the recomputed scores GEMM, 0 unless fused
    double memory_bytes() const { return replicated_bytes + sharded_bytes + attention_core_bytes; }
};

// The output layer (logits GEMM and cross-entropy) for one micro-batch on one tp rank.
struct HeadWork {
    GemmShape logits;
    double loss_bytes = 0; // fp32 softmax cross-entropy traffic, forward
};

LayerWork transformer_layer_work(const TransformerShape& shape, int micro_batch, int tp,
                                 bool sequence_parallel, double bytes_per_element);
HeadWork transformer_head_work(const TransformerShape& shape, int micro_batch, int tp);

// Parameters of one layer (attention with GQA, MLP incl. gated, 2 layernorms, biases).
double transformer_layer_params(const TransformerShape& shape);
// Embedding parameters: V*h (+ s*h learned positions), plus a second V*h output layer when the
// embeddings are not tied.
double transformer_embedding_params(const TransformerShape& shape);
// Embedding parameters on the fuller end stage of a pipeline of `pp` stages (all of them when
// pp = 1, else one V*h matrix: the input embedding or the output layer).
double transformer_end_stage_embedding_params(const TransformerShape& shape, int pp);
double transformer_params(const TransformerShape& shape);

// Hardware FLOPs per sample summed from the per-layer GEMMs: forward + backward, plus the
// recomputed forward work for selective/full recompute and FlashAttention's recomputed scores.
// The logits GEMM is never recomputed.
double transformer_flops_per_sample(const TransformerShape& shape, Recompute recompute);
// The same where selective recompute is PyTorch's op policy (framework.h): the K and output
// projections and one MLP GEMM are recomputed instead of the attention core.
double transformer_flops_per_sample(const TransformerShape& shape, Recompute recompute,
                                    bool selective_op_policy);
// Forward FLOPs of one layer's GEMMs that PyTorch's selective op policy recomputes.
double op_policy_recomputed_flops(const TransformerShape& shape, const LayerWork& layer);
// Model FLOPs per sample (forward + backward, no recompute of any kind, fused attention or not):
// what MFU and model TFLOP/s count.
double transformer_model_flops_per_sample(const TransformerShape& shape);

// Megatron closed form (SC'21 eq. 3): 72*B*s*l*h^2*(1 + s/(6h) + V/(12*l*h)) without recompute,
// 96*B*s*l*h^2*(1 + s/(6h) + V/(16*l*h)) with full recompute. The test oracle only.
double megatron_flops_per_iteration(double batch, double seq_len, double layers, double hidden,
                                    double vocab, bool full_recompute);

// Activation bytes one layer keeps for backward, per micro-batch on one tp rank
// (Korthikanti et al. 2022, eq. 1-5, generalised to GQA and gated MLPs; with FlashAttention the
// a*s*s softmax/dropout terms are replaced by the per-row softmax statistics).
// `fp8_gemm_inputs`: the GEMMs' activation inputs are kept as their 1-byte FP8 casts
// (Transformer Engine saves the cast it ran the forward GEMM on for the weight gradient).
// `fp8_activation_input`: the activation function's input is kept as FP8 (plan.h).
double layer_activation_bytes(const TransformerShape& shape, int micro_batch, int tp,
                              bool sequence_parallel, Recompute recompute,
                              bool fp8_gemm_inputs = false, bool fp8_activation_input = false);
// The same under PyTorch's selective op policy (torchtitan "op" activation checkpointing).
double layer_activation_bytes_op_policy(const TransformerShape& shape, int micro_batch, int tp,
                                        bool sequence_parallel);

} // namespace cp::sim
