#include "engine/transformer_work.h"

namespace cp::sim {

namespace {

double head_dim(const TransformerShape& s) {
    return s.attention_head_dim();
}
double kv_heads(const TransformerShape& s) {
    return s.kv_heads > 0 ? s.kv_heads : s.heads;
}

// RoPE as fp32 complex products on q and k: upcast (e + 4), complex product (8), downcast
// (4 + e) per column, three kernels each.
double complex_rope_bytes(const TransformerShape& shape, double tokens, double e) {
    constexpr double kFp32 = 4.0;
    return tokens * (shape.query_width() + shape.kv_width()) *
           ((e + kFp32) + 2.0 * kFp32 + (kFp32 + e));
}
constexpr double kComplexRopeKernels = 6.0;

// Eager PyTorch runs every pointwise op of the Llama reference block (torchtitan
// torchtitan/models/llama/model.py and models/norms.py `RMSNorm` at 9dec370) as its own kernel,
// each reading its inputs from HBM and writing its output there; bytes per element, 16-bit
// activations of e bytes, fp32 intermediates of 4:
//  - RMSNorm `(x.float() * rsqrt(x.float().pow(2).mean(-1) + eps)).type_as(x) * weight`:
//    upcast (e + 4), square (8), mean (4), scale (8), downcast (4 + e), weight (2e), per column of
//    h, twice per block; the two residual adds read two and write one tensor (3e each);
//  - RoPE on q and k: upcast (e + 4), complex product (8), downcast (4 + e) per column;
//  - repeat_kv: expand(...).reshape copies K and V to every query head (read kv, write q width,
//    each) when kv_heads < heads;
//  - SwiGLU `silu(w1(x)) * w3(x)`: silu (2e), product (3e) per column of f.
// torch.compile (Inductor) fuses these into a few kernels, which the default count assumes.
void set_eager_elementwise_bytes(const TransformerShape& shape, double tokens, double t,
                                 bool sequence_parallel, double e, LayerWork& w) {
    constexpr double kFp32 = 4.0;
    const double h = shape.hidden, f = shape.ffn_width();
    const double q = shape.query_width(), kv = shape.kv_width();
    const double norm = (e + kFp32) + 2.0 * kFp32 + kFp32 + 2.0 * kFp32 + (kFp32 + e) + 2.0 * e;
    const double replicated = tokens * h * (2.0 * norm + 2.0 * 3.0 * e);
    const double rope = complex_rope_bytes(shape, tokens, e);
    const double repeat = kv < q ? 2.0 * tokens * (kv + q) * e : 0.0;
    const double swiglu = tokens * f * 5.0 * e;
    w.replicated_bytes = sequence_parallel ? replicated / t : replicated;
    w.sharded_bytes = (rope + repeat + swiglu) / t;
    // 2 x 6 norm kernels and 2 adds; 3 RoPE kernels on q and on k, 2 copies, 2 SwiGLU kernels.
    w.replicated_kernels = 14;
    w.sharded_kernels = 6.0 + (kv < q ? 2.0 : 0.0) + 2.0;
}

// Eager PyTorch runs every pointwise op of the BERT reference block (NVIDIA DeepLearningExamples
// PyTorch/LanguageModeling/BERT/modeling.py, BertSelfAttention / BertSelfOutput /
// BertIntermediate / BertOutput) as its own kernel, each reading its inputs from HBM and writing
// its output there, where no graph compiler fuses them (run_squad.py never scripts the model;
// run_pretraining.py does with NVFuser only from a9e2c1d5, pytorch:21.11). Bytes per element, e
// per 16-bit activation, 1 per dropout mask:
//  - the q, k, v and output-projection biases added after the GEMM (3-D input: matmul, then
//    add_, read e + write e) and the MLP-down bias likewise;
//  - the attention context transposed back to (s, b, h) (.contiguous(): read e, write e);
//  - per sublayer: dropout (read e, write e and the mask), residual add (read 2e, write e),
//    LayerNorm (read e, write e);
//  - bias + GeLU in one scripted function over the f columns (read e, write e).
void set_eager_gelu_block_bytes(const TransformerShape& shape, double tokens, double t,
                                bool sequence_parallel, double e, LayerWork& w) {
    const double h = shape.hidden, f = shape.ffn_width();
    const double q = shape.query_width(), kv = shape.kv_width();
    const double bias = 2.0 * e, dropout = 2.0 * e + 1.0, add = 3.0 * e, norm = 2.0 * e;
    const double replicated = tokens * h * 2.0 * (bias + dropout + add + norm);
    w.replicated_bytes = sequence_parallel ? replicated / t : replicated;
    w.sharded_bytes = tokens * ((q + 2.0 * kv) * bias + q * 2.0 * e + f * 2.0 * e) / t;
    // 2 x (bias, dropout, add, LayerNorm); 3 bias adds, the context copy and bias + GeLU.
    w.replicated_kernels = 8;
    w.sharded_kernels = 5;
}

} // namespace

LayerWork transformer_layer_work(const TransformerShape& shape, int micro_batch, int tp,
                                 bool sequence_parallel, double bytes_per_element) {
    const double b = micro_batch, s = shape.seq_len, h = shape.hidden, a = shape.heads;
    const double t = tp, tokens = b * s, f = shape.ffn_width(), dh = head_dim(shape);
    const double q = shape.query_width();               // heads x head_dim (= h unless set)
    const double kv_width = 2.0 * kv_heads(shape) * dh; // K and V columns (GQA shares them)
    const double e = bytes_per_element;

    LayerWork w;
    auto add = [&w](GemmShape g) { w.gemms[static_cast<std::size_t>(w.gemm_count++)] = g; };
    add({tokens, (q + kv_width) / t, h, 1}); // fused QKV projection
    w.attention_core_begin = w.gemm_count;
    // Packed examples attend within themselves: s / span blocks of span x span per head.
    const double span = shape.attention_span_tokens(), blocks = b * a / t * (s / span);
    add({span, span, dh, blocks});                              // scores Q*K^T per head
    add({span, dh, span, blocks});                              // context P*V per head
    add({tokens, h, q / t, 1});                                 // attention output projection
    add({tokens, (shape.gated_mlp ? 2.0 : 1.0) * f / t, h, 1}); // MLP up (+gate, fused)
    add({tokens, h, f / t, 1});                                 // MLP down
    for (int i = 0; i < w.gemm_count; ++i)
        w.gemm_flops += w.gemms[static_cast<std::size_t>(i)].flops();
    w.attention_core_flops = w.gemms[1].flops() + w.gemms[2].flops();

    // Memory-bound kernels: each reads its inputs and writes its output once (fused where
    // Megatron fuses: bias+dropout+residual, bias+GeLU, scale+mask+softmax). Masks are 1 byte.
    if (shape.eager_elementwise && !shape.gated_mlp) {
        set_eager_gelu_block_bytes(shape, tokens, t, sequence_parallel, e, w);
    } else if (shape.eager_elementwise) {
        set_eager_elementwise_bytes(shape, tokens, t, sequence_parallel, e, w);
    } else {
        const double replicated = (2.0 + 2.0 + 3.0 + 3.0) * tokens * h * e + 2.0 * tokens * h;
        w.replicated_bytes = sequence_parallel ? replicated / t : replicated;
        w.sharded_bytes = (shape.gated_mlp ? 3.0 : 2.0) * tokens * f * e / t;
        if (shape.llama_reference_code) {
            w.sharded_bytes += complex_rope_bytes(shape, tokens, e) / t;
            w.sharded_kernels += kComplexRopeKernels;
        }
    }
    // Fused scale + mask + softmax (read e, write e) and dropout (read e, write e and the mask);
    // the eager BERT block runs the scale, the mask add, the softmax and the dropout as four
    // kernels (modeling.py BertSelfAttention).
    const double score_bytes =
        shape.eager_elementwise && !shape.gated_mlp ? 8.0 * e + 1.0 : 4.0 * e + 1.0;
    w.attention_core_bytes = score_bytes * b * a * s * s / t;
    if (shape.flash_attention) {
        // FlashAttention (Dao et al. 2022, Alg. 1): scale, mask, softmax and dropout run on SRAM
        // tiles inside the fused kernel, so none of this s*s traffic reaches HBM. Its backward
        // (Alg. 2 / FlashAttention-2 Alg. 2) recomputes S = Q*K^T per tile; the context P*V is
        // not recomputed (dV uses the recomputed P directly).
        w.attention_fused = true;
        w.attention_core_bytes = 0;
        w.attention_backward_recompute_flops =
            w.gemms[static_cast<std::size_t>(w.attention_core_begin)].flops();
    }
    return w;
}

HeadWork transformer_head_work(const TransformerShape& shape, int micro_batch, int tp) {
    const double tokens = double(micro_batch) * shape.head_positions_per_sequence();
    const double v = shape.vocab;
    HeadWork w;
    w.logits = {tokens, v / tp, double(shape.hidden), 1};
    // fp16 logits read, fp32 copy written, softmax read+write (vocab-parallel cross-entropy).
    w.loss_bytes = 14.0 * tokens * v / tp;
    return w;
}

double transformer_layer_params(const TransformerShape& shape) {
    const double h = shape.hidden, f = shape.ffn_width(), q = shape.query_width();
    const double qkv = h * (q + 2.0 * kv_heads(shape) * head_dim(shape));
    const double attention = qkv + q * h + (q + 2.0 * kv_heads(shape) * head_dim(shape)) + h;
    const double mlp =
        (shape.gated_mlp ? 3.0 : 2.0) * h * f + (shape.gated_mlp ? 2.0 : 1.0) * f + h;
    return attention + mlp + 4.0 * h; // two layernorms (scale and bias)
}

double transformer_embedding_params(const TransformerShape& shape) {
    // An untied output layer is a second V x h matrix.
    double p = (shape.tied_embeddings ? 1.0 : 2.0) * double(shape.vocab) * shape.hidden;
    if (shape.learned_positions) p += double(shape.seq_len) * shape.hidden;
    return p;
}

double transformer_end_stage_embedding_params(const TransformerShape& shape, int pp) {
    if (pp <= 1) return transformer_embedding_params(shape);
    // First stage: the input embedding; last stage: the output layer, which Megatron keeps as a
    // copy of the input embedding when the two are tied. Either end holds one V x h matrix.
    double p = double(shape.vocab) * shape.hidden;
    if (shape.learned_positions) p += double(shape.seq_len) * shape.hidden;
    return p;
}

double transformer_params(const TransformerShape& shape) {
    return shape.layers * transformer_layer_params(shape) + transformer_embedding_params(shape) +
           2.0 * shape.hidden; // final layernorm
}

double transformer_flops_per_sample(const TransformerShape& shape, Recompute recompute) {
    const LayerWork layer = transformer_layer_work(shape, 1, 1, false, 2.0);
    const HeadWork head = transformer_head_work(shape, 1, 1);
    double layer_flops = 3.0 * layer.gemm_flops; // forward + backward (2x)
    if (recompute == Recompute::full) layer_flops += layer.gemm_flops;
    if (recompute == Recompute::selective) layer_flops += layer.attention_core_flops;
    layer_flops += layer.attention_backward_recompute_flops;
    return shape.layers * layer_flops + 3.0 * head.logits.flops();
}

double op_policy_recomputed_flops(const TransformerShape& shape, const LayerWork& layer) {
    // Saved in the order q, k, v, o, gate/up, up, down: every second matmul output (k, o, and the
    // up projection of a gated MLP or the down projection) is recomputed.
    const auto core = static_cast<std::size_t>(layer.attention_core_begin);
    const double k_share = shape.kv_width() / (shape.query_width() + 2.0 * shape.kv_width());
    return k_share * layer.gemms[0].flops() + layer.gemms[core + 2].flops() +
           (shape.gated_mlp ? 0.5 * layer.gemms[core + 3].flops() : layer.gemms[core + 4].flops());
}

double transformer_flops_per_sample(const TransformerShape& shape, Recompute recompute,
                                    bool selective_op_policy) {
    if (!(selective_op_policy && recompute == Recompute::selective))
        return transformer_flops_per_sample(shape, recompute);
    const LayerWork layer = transformer_layer_work(shape, 1, 1, false, 2.0);
    return transformer_flops_per_sample(shape, Recompute::none) +
           shape.layers * op_policy_recomputed_flops(shape, layer);
}

double transformer_model_flops_per_sample(const TransformerShape& shape) {
    // The same work with the scores materialised: fusing attention changes how, not what, is
    // computed.
    TransformerShape unfused = shape;
    unfused.flash_attention = false;
    return transformer_flops_per_sample(unfused, Recompute::none);
}

double megatron_flops_per_iteration(double batch, double seq_len, double layers, double hidden,
                                    double vocab, bool full_recompute) {
    const double base = batch * seq_len * layers * hidden * hidden;
    if (full_recompute)
        return 96.0 * base * (1.0 + seq_len / (6.0 * hidden) + vocab / (16.0 * layers * hidden));
    return 72.0 * base * (1.0 + seq_len / (6.0 * hidden) + vocab / (12.0 * layers * hidden));
}

double layer_activation_bytes(const TransformerShape& shape, int micro_batch, int tp,
                              bool sequence_parallel, Recompute recompute, bool fp8_gemm_inputs,
                              bool fp8_activation_input) {
    const double b = micro_batch, s = shape.seq_len, h = shape.hidden, a = shape.heads;
    const double t = tp, sbh = s * b * h;
    const double replicated_div = sequence_parallel ? t : 1.0;
    if (recompute == Recompute::full) return 2.0 * sbh / replicated_div; // the layer input only
    // Not split by tp: 2 layernorm inputs (4), attention and MLP inputs (2+2), 2 dropout masks (2).
    // Split by tp: Q (2), K and V (4 * kv/a), context (2), MLP intermediates (4f/h, 6f/h gated).
    const double q_ratio = shape.query_width() / h, kv_ratio = shape.kv_width() / h;
    const double f_ratio = shape.ffn_width() / h;
    // FP8 keeps the inputs of the QKV, MLP-up, output-projection and MLP-down GEMMs at 1 byte:
    // the two layernorm outputs, the attention context and the activation function's output.
    // Q, K, V stay 16-bit for the attention kernel, the MLP-up output for the activation's
    // backward.
    const double fp8_saving = fp8_gemm_inputs ? 1.0 : 0.0;
    const double replicated = (10.0 - 2.0 * fp8_saving) * sbh;
    // The MLP-up output (2 or, gated, 4 bytes per f) halves when stored as FP8.
    const double up_output = (shape.gated_mlp ? 4.0 : 2.0) * (fp8_activation_input ? 0.5 : 1.0);
    const double sharded = (2.0 * q_ratio + 4.0 * kv_ratio + (2.0 - fp8_saving) * q_ratio +
                            (up_output + 2.0 - fp8_saving) * f_ratio) *
                           sbh;
    // Softmax output (2), dropout mask (1) and output (2) of the a*s*s scores. FlashAttention keeps
    // only the fp32 log-sum-exp of each score row (4 bytes per head and token) and regenerates the
    // dropout mask from the RNG state (Dao et al. 2022, sec. 3.1).
    double core = shape.flash_attention ? 4.0 * a * s * b : 5.0 * a * s * s * b;
    if (recompute == Recompute::selective) core = 0.0;
    return replicated / replicated_div + (sharded + core) / t;
}

double layer_activation_bytes_op_policy(const TransformerShape& shape, int micro_batch, int tp,
                                        bool sequence_parallel) {
    // Saved by PyTorch's op policy (framework.h): the block input (kept by the checkpoint), the
    // q and v projections, the attention output with its fp32 log-sum-exp per head and token, the
    // first MLP GEMM's output and the down projection's; everything else is recomputed.
    const double tokens = double(micro_batch) * shape.seq_len, h = shape.hidden, t = tp;
    const double replicated = 2.0 * h + 2.0 * h; // block input, down-projection output
    const double sharded = 2.0 * shape.query_width() + 2.0 * shape.kv_width() +
                           2.0 * shape.query_width() + 2.0 * shape.ffn_width() + 4.0 * shape.heads;
    return tokens * (replicated / (sequence_parallel ? t : 1.0) + sharded / t);
}

} // namespace cp::sim
