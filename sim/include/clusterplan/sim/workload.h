// What is being trained: a transformer described by its shape, or a generic model (a CNN such as
// ResNet-50) described by parameter count and FLOPs per sample, trained data-parallel only.
#pragma once

#include "clusterplan/sim/training_options.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>

namespace cp::sim {

// Mixture-of-Experts MLP blocks (model.experts ...): every `moe_layer_freq`-th layer replaces its
// dense MLP by `experts` routed experts of `moe_ffn_hidden`, `experts_per_token` of them per
// token, plus `shared_experts` that every token passes through.
struct MoeShape {
    int experts = 0;
    int experts_per_token = 0;
    int shared_experts = 0;
    int moe_ffn_hidden = 0;
    int moe_layer_freq = 1;
    double capacity_factor =
        0; // > 0: the busiest expert takes at most this x the mean (drops the rest)
    bool enabled() const { return experts > 1 && experts_per_token > 0 && moe_ffn_hidden > 0; }
    int moe_layers(int layers) const {
        return enabled() ? layers / std::max(1, moe_layer_freq) : 0;
    }
};

struct TransformerShape {
    int layers = 0;
    int hidden = 0;
    int heads = 0;
    int kv_heads = 0;       // == heads unless grouped-query attention
    int ffn_hidden = 0;     // 4*hidden for GPT-style MLPs
    bool gated_mlp = false; // SwiGLU-style 3-matrix MLP
    int seq_len = 0;
    int vocab = 0;
    bool learned_positions = false; // adds seq_len*hidden parameters
    // Width of one attention head; 0 = hidden / heads. Qwen3 and GPT-OSS use heads wider or
    // narrower than that (Qwen3-30B-A3B: 32 heads of 128 over a 2,048 hidden size), so the query
    // width heads*head_dim differs from the hidden size.
    int head_dim = 0;
    // Output layer shares the input embedding's V x h matrix (GPT-2/3, BERT); false adds a second
    // V x h matrix (Llama 3, Mixtral, Qwen3-30B-A3B: tie_word_embeddings false in their configs).
    bool tied_embeddings = true;
    // Fused attention (FlashAttention, Dao et al. 2022; FlashAttention-2, Dao 2023): the a*s*s
    // scores never reach HBM. Off by default: the validated Megatron-LM runs materialise them.
    bool flash_attention = false;
    // The fused kernel is of FlashAttention-1's generation (FlashAttention v1, its Triton port,
    // xFormers' memory-efficient attention; 2022 to mid-2023 stacks), which runs at about half of
    // FlashAttention-2's rate (Dao 2023, arXiv:2307.08691: "around 2x speedup compared to
    // FlashAttention"; 25-40 % of peak against 50-73 %). Scenarios: model.attention_kernel flash1.
    bool flash_attention_v1 = false;
    // The pointwise ops run as eager PyTorch kernels, one per op as the Llama reference code
    // writes them (torchtitan without torch.compile): RMSNorm upcast to fp32 in six kernels, RoPE
    // as fp32 complex products, GQA's K/V copied to every head, SwiGLU in two kernels. Off = fused
    // as Megatron, Transformer Engine or torch.compile run them. Gated (Llama-style) blocks only;
    // scenarios: training.torch_compile false with pytorch-fsdp.
    bool eager_elementwise = false;
    // The block as the Llama reference code writes it (torchtitan's models/llama3/model.py):
    // RoPE as fp32 complex products (torch.view_as_complex), which Inductor generates no code for
    // and leaves eager, so even under torch.compile the rotation of q and k is its own HBM round
    // trip; and separate wq / wk / wv and w1 / w3 projections, each reading the block input again
    // (with GQA and tensor parallelism the K and V GEMMs are a few columns wide and memory-bound).
    bool llama_reference_code = false;
    MoeShape moe;
    // Encoder (BERT): bidirectional attention, no generation; serving runs one forward per batch.
    bool encoder_only = false;
    // Positions per sequence the vocabulary head (logits GEMM and softmax cross-entropy) runs
    // over: -1 = every position (a decoder's next-token loss); n = the n masked positions a
    // BERT masked-LM head gathers first (NVIDIA DeepLearningExamples BERT 21.11 modeling.py
    // `dense_sequence_output` index_select, max_predictions_per_seq 20 at 128 tokens); 0 = no
    // vocabulary head (SQuAD fine-tuning's 2-wide span classifier, `BertForQuestionAnswering`).
    int head_positions = -1;
    // Tokens of the examples packed back to back into each sequence, each attending only to
    // itself through a variable-length fused kernel over the examples' boundaries (cu_seqlens:
    // NeMo sequence packing, docs/source/features/optimizations/sequence_packing.rst at
    // NVIDIA/NeMo 070a0bb1: attention cost sum_i s_i^2, not (sum_i s_i)^2). Exact as the
    // length-weighted mean sum d^2 / sum d; a plain mean undercounts by the lengths' spread.
    // 0 = one example per sequence. Materialised (unfused) attention masks the whole sequence
    // and keeps its cost.
    double packed_example_tokens = 0;
    // Tokens one query attends over in the fused kernel: the packed example, else the sequence.
    double attention_span_tokens() const {
        return flash_attention && packed_example_tokens > 0 && packed_example_tokens < seq_len
                   ? packed_example_tokens
                   : double(seq_len);
    }
    double head_positions_per_sequence() const {
        return head_positions < 0 ? double(seq_len) : double(std::min(head_positions, seq_len));
    }

    double attention_head_dim() const {
        return head_dim > 0 ? double(head_dim) : double(hidden) / std::max(1, heads);
    }
    double query_width() const { return double(heads) * attention_head_dim(); }
    // Width of the dense MLP (GPT-style 4 h where the shape leaves ffn_hidden at 0).
    double ffn_width() const { return ffn_hidden > 0 ? double(ffn_hidden) : 4.0 * hidden; }
    // K and V width each (grouped-query attention shares them over heads / kv_heads).
    double kv_width() const {
        return double(kv_heads > 0 ? kv_heads : heads) * attention_head_dim();
    }
};

enum class WorkloadKind { transformer, generic };

// A share of the optimizer steps trained at one sequence length. BERT pre-trains 90 % of its
// steps at 128 tokens and the last 10 % at 512 (Devlin et al. 2018, A.2).
struct SeqPhase {
    double step_fraction = 0;
    int seq_len = 0;
};
inline constexpr int kMaxSeqPhases = 4;

struct Workload {
    std::string name;
    WorkloadKind kind = WorkloadKind::transformer;
    TransformerShape shape;      // used when kind == transformer
    double params = 0;           // generic: parameter count; transformer: derived if 0
    double flops_per_sample = 0; // generic: forward+backward FLOPs per sample
    FineTuning finetune;         // what the run updates (training.method, training.lora)
    // Transformer training in phases of sequence length (none: every step at shape.seq_len, which
    // otherwise holds the longest phase's length). A fixed array keeps evaluation allocation-free.
    std::array<SeqPhase, kMaxSeqPhases> seq_phases{};
    int seq_phase_count = 0;
    // Mean tokens per sample over the steps (phases weighted by their share of steps).
    double tokens_per_sample() const {
        if (kind != WorkloadKind::transformer) return 1.0;
        if (seq_phase_count == 0) return shape.seq_len;
        double tokens = 0;
        for (int i = 0; i < seq_phase_count; ++i)
            tokens += seq_phases[static_cast<std::size_t>(i)].step_fraction *
                      seq_phases[static_cast<std::size_t>(i)].seq_len;
        return tokens;
    }
};

} // namespace cp::sim
