// Per-GEMM transformer work against the closed-form Megatron FLOP count (exact) and published
// parameter counts.
#include "clusterplan/sim/presets.h"
#include "engine/model_state.h"
#include "engine/transformer_work.h"
#include "engine_fixtures.h"
#include "tolerance.h"

#include <catch2/catch.hpp>

using namespace cp;

TEST_CASE("per-GEMM FLOPs equal the Megatron closed form for the standard shape", "[engine]") {
    struct Shape {
        int l, h, a, s, v;
    };
    for (const Shape sh : {Shape{96, 12288, 96, 2048, 51200}, Shape{24, 2304, 24, 2048, 51200},
                           Shape{128, 25600, 160, 2048, 51200}, Shape{24, 1024, 16, 512, 30522}}) {
        const sim::Workload w = test::gpt(sh.l, sh.h, sh.a, sh.s, sh.v);
        const double batch = 1536;
        const double none =
            batch * sim::transformer_flops_per_sample(w.shape, sim::Recompute::none);
        const double full =
            batch * sim::transformer_flops_per_sample(w.shape, sim::Recompute::full);
        INFO("layers " << sh.l << " hidden " << sh.h);
        CHECK_REL(none, sim::megatron_flops_per_iteration(batch, sh.s, sh.l, sh.h, sh.v, false),
                  1e-12);
        CHECK_REL(full, sim::megatron_flops_per_iteration(batch, sh.s, sh.l, sh.h, sh.v, true),
                  1e-12);
    }
}

TEST_CASE("closed form has the published magnitude for GPT-3 175B", "[engine]") {
    // 72 * 1536 * 2048 * 96 * 12288^2 * (1 + 2048/73728 + 51200/14155776) = 3.39e18.
    const double f = sim::megatron_flops_per_iteration(1536, 2048, 96, 12288, 51200, false);
    CHECK_REL(
        f, 72.0 * 1536 * 2048 * 96 * 12288.0 * 12288.0 * (1 + 2048.0 / 73728 + 51200.0 / 14155776),
        1e-12);
    CHECK(f > 3.3e18);
    CHECK(f < 3.5e18);
}

TEST_CASE("selective recompute adds only the attention core", "[engine]") {
    const sim::Workload w = test::gpt(96, 12288, 96);
    const double none = sim::transformer_flops_per_sample(w.shape, sim::Recompute::none);
    const double sel = sim::transformer_flops_per_sample(w.shape, sim::Recompute::selective);
    const double s = 2048, h = 12288, l = 96;
    CHECK_REL(sel - none, l * 4.0 * s * s * h, 1e-12); // QK^T and PV of one forward
}

TEST_CASE("parameter counts match published model sizes", "[engine]") {
    sim::Workload gpt3 = test::gpt(96, 12288, 96);
    gpt3.shape.learned_positions = true;
    CHECK_REL(sim::transformer_params(gpt3.shape), 175e9, 0.01);
    // 12*l*h^2*(1 + 13/(12h)) + V*h (+ s*h): SC'21 eq. for Table 1's 1T row.
    const sim::Workload t = test::gpt(128, 25600, 160);
    CHECK_REL(sim::transformer_params(t.shape), 1008e9, 0.01);
    sim::Workload bert = test::gpt(24, 1024, 16, 512, 30522);
    bert.shape.learned_positions = true;
    CHECK_REL(sim::transformer_params(bert.shape), 335e6, 0.02);
}

TEST_CASE("grouped-query attention and gated MLPs change GEMMs and parameters", "[engine]") {
    sim::Workload llama = test::gpt(32, 4096, 32, 4096, 32000); // Llama-2 7B shape
    llama.shape.ffn_hidden = 11008;
    llama.shape.gated_mlp = true;
    CHECK_REL(sim::transformer_params(llama.shape), 6.74e9, 0.02);
    sim::Workload gqa = llama;
    gqa.shape.kv_heads = 8;
    CHECK(sim::transformer_params(gqa.shape) < sim::transformer_params(llama.shape));
    const sim::LayerWork mha = sim::transformer_layer_work(llama.shape, 1, 1, false, 2);
    const sim::LayerWork g = sim::transformer_layer_work(gqa.shape, 1, 1, false, 2);
    // QKV width h + 2*kv*dh: 4096 + 2*8*128 = 6144 with GQA instead of 12288.
    CHECK(g.gemms[0].n == Approx(6144));
    CHECK(mha.gemms[0].n == Approx(12288));
    CHECK(mha.gemms[4].n == Approx(2 * 11008)); // gate + up, fused
}

TEST_CASE("head_dim sizes the attention apart from the hidden size", "[engine]") {
    // Qwen3-30B-A3B: 32 query heads of 128 over a 2,048 hidden size, 4 KV heads, untied output
    // layer; 30.5B parameters published (Qwen3 technical report, Table 2).
    const sim::ModelPreset* qwen3 = sim::find_model_preset("qwen3-30b-a3b");
    REQUIRE(qwen3 != nullptr);
    CHECK(qwen3->workload.shape.head_dim == 128);
    CHECK_FALSE(qwen3->workload.shape.tied_embeddings);
    CHECK_REL(sim::total_params(qwen3->workload), 30.5e9, 0.01);
    const sim::LayerWork w = sim::transformer_layer_work(qwen3->workload.shape, 1, 1, false, 2);
    CHECK(w.gemms[0].n == Approx(4096 + 2 * 4 * 128)); // fused QKV: q 4,096, K and V 512 each
    CHECK(w.gemms[1].k == Approx(128));                // scores Q*K^T per 128-wide head
    CHECK(w.gemms[3].k == Approx(4096));               // output projection reads 4,096 columns
    // The default (head_dim 0 = hidden / heads) keeps the older shape.
    sim::TransformerShape narrow = qwen3->workload.shape;
    narrow.head_dim = 0;
    CHECK(sim::transformer_layer_work(narrow, 1, 1, false, 2).gemms[0].n ==
          Approx(2048 + 2 * 4 * 64));
    // Untied: a second V x h matrix.
    sim::TransformerShape tied = qwen3->workload.shape;
    tied.tied_embeddings = true;
    CHECK(sim::transformer_embedding_params(qwen3->workload.shape) -
              sim::transformer_embedding_params(tied) ==
          Approx(151936.0 * 2048));
    // Llama 3 8B (untied) is 8.03B.
    CHECK_REL(sim::total_params(sim::find_model_preset("llama3-8b")->workload), 8.03e9, 0.01);
}

TEST_CASE("activation memory follows Korthikanti et al. 2022", "[engine]") {
    const sim::Workload w = test::gpt(96, 12288, 96);
    const double s = 2048, h = 12288, a = 96, b = 1, t = 8;
    const double sbh = s * b * h;
    CHECK_REL(sim::layer_activation_bytes(w.shape, 1, 1, false, sim::Recompute::none),
              sbh * (34 + 5 * a * s / h), 1e-12);
    CHECK_REL(sim::layer_activation_bytes(w.shape, 1, 8, false, sim::Recompute::none),
              sbh * (10 + 24 / t + 5 * a * s / (h * t)), 1e-12);
    CHECK_REL(sim::layer_activation_bytes(w.shape, 1, 8, true, sim::Recompute::selective),
              sbh * 34 / t, 1e-12);
    CHECK_REL(sim::layer_activation_bytes(w.shape, 1, 8, false, sim::Recompute::full), 2 * sbh,
              1e-12);
    // FP8 (Transformer Engine) keeps the four GEMMs' inputs as 1-byte casts: both layernorm
    // outputs (2 of the 10 replicated bytes), the attention context (1 of 2) and the GeLU output
    // (4 of 8 for f = 4h): 34 - 7 bytes per token and hidden unit with sequence parallelism.
    CHECK_REL(sim::layer_activation_bytes(w.shape, 1, 8, true, sim::Recompute::selective, true),
              sbh * 27 / t, 1e-12);
    // Full recompute keeps only the 16-bit layer input.
    CHECK_REL(sim::layer_activation_bytes(w.shape, 1, 8, false, sim::Recompute::full, true),
              2 * sbh, 1e-12);
}

TEST_CASE("eager PyTorch runs the Llama block's pointwise ops one kernel each", "[engine]") {
    // Llama 3 8B: h 4,096, 32 heads of 128, 8 KV heads, SwiGLU 14,336 (torchtitan
    // torchtitan/models/llama/model.py and norms.py at 9dec370). Bytes per token, bf16:
    // RMSNorm 36 h twice + residual adds 6 h twice = 84 h; RoPE 20 per q and k column;
    // repeat_kv 2 x 2 x (kv + q); SwiGLU 10 f.
    sim::TransformerShape s;
    s.layers = 32;
    s.hidden = 4096;
    s.heads = 32;
    s.kv_heads = 8;
    s.ffn_hidden = 14336;
    s.gated_mlp = true;
    s.vocab = 128256;
    s.seq_len = 8192;
    s.flash_attention = true;
    sim::TransformerShape eager = s;
    eager.eager_elementwise = true;
    const double tokens = 8192;
    const sim::LayerWork f = sim::transformer_layer_work(s, 1, 1, false, 2);
    const sim::LayerWork w = sim::transformer_layer_work(eager, 1, 1, false, 2);
    CHECK_REL(w.replicated_bytes / tokens, 84.0 * 4096, 1e-9);
    CHECK_REL(w.sharded_bytes / tokens, 20.0 * (4096 + 1024) + 4.0 * (1024 + 4096) + 10.0 * 14336,
              1e-9);
    CHECK(w.memory_bytes() > 3.0 * f.memory_bytes());
    CHECK(w.gemm_flops == Approx(f.gemm_flops)); // the GEMMs are the same
    // Sequence and tensor parallelism split every pointwise tensor over the tp ranks.
    const sim::LayerWork t2 = sim::transformer_layer_work(eager, 1, 2, true, 2);
    CHECK_REL(t2.memory_bytes(), w.memory_bytes() / 2, 1e-9);
}

TEST_CASE("the vocabulary head runs over the positions it is given", "[engine]") {
    // BERT-large at 128 tokens: the masked-LM head over 20 masked positions, or no vocabulary head
    // (a span classifier), removes the logits GEMM of the other positions and nothing else.
    sim::TransformerShape s = test::gpt(24, 1024, 16, 128, 30522).shape;
    const double all = sim::transformer_flops_per_sample(s, sim::Recompute::none);
    const double logits_per_position = 3.0 * 2.0 * 1024.0 * 30522.0;
    s.head_positions = 20;
    CHECK_REL(all - sim::transformer_flops_per_sample(s, sim::Recompute::none),
              108.0 * logits_per_position, 1e-12);
    CHECK_REL(sim::transformer_head_work(s, 4, 2).loss_bytes, 14.0 * 4 * 20 * 30522 / 2, 1e-12);
    s.head_positions = 0;
    CHECK_REL(all - sim::transformer_flops_per_sample(s, sim::Recompute::none),
              128.0 * logits_per_position, 1e-12);
    CHECK(sim::transformer_head_work(s, 4, 1).loss_bytes == 0.0);
}

TEST_CASE("eager BERT pointwise kernels move more bytes than the fused set", "[engine]") {
    // modeling.py without a graph compiler (transformer_work.cpp): per token 38 bytes per
    // residual column (fused 22), 32 per hidden column on the q/k/v, context and MLP side
    // (fused 16), 17 per attention score (fused 9), at 16 bits.
    sim::TransformerShape s = test::gpt(24, 1024, 16, 128, 30522).shape;
    const sim::LayerWork fused = sim::transformer_layer_work(s, 2, 1, false, 2.0);
    s.eager_elementwise = true;
    const sim::LayerWork eager = sim::transformer_layer_work(s, 2, 1, false, 2.0);
    const double tokens = 256.0, scores = 2.0 * 16 * 128 * 128;
    CHECK_REL(fused.replicated_bytes, 22.0 * tokens * 1024, 1e-12);
    CHECK_REL(eager.replicated_bytes, 38.0 * tokens * 1024, 1e-12);
    CHECK_REL(eager.sharded_bytes, 32.0 * tokens * 1024, 1e-12);
    CHECK_REL(eager.attention_core_bytes, 17.0 * scores, 1e-12);
    CHECK_REL(fused.attention_core_bytes, 9.0 * scores, 1e-12);
    CHECK(eager.gemm_flops == fused.gemm_flops);
}

TEST_CASE("packed examples attend within themselves under a fused kernel", "[engine]") {
    sim::Workload llama = test::gpt(32, 4096, 32, 4096, 32000);
    llama.shape.flash_attention = true;
    const sim::LayerWork whole = sim::transformer_layer_work(llama.shape, 1, 1, false, 2);
    sim::TransformerShape packed = llama.shape;
    packed.packed_example_tokens = 256; // 16 examples per 4,096-token sequence
    const sim::LayerWork w = sim::transformer_layer_work(packed, 1, 1, false, 2);
    // Attention core: sum of 16 squares of 256 = 4096 * 256, a sixteenth of 4096^2.
    CHECK_REL(w.attention_core_flops, whole.attention_core_flops / 16.0, 1e-12);
    CHECK_REL(w.gemm_flops - w.attention_core_flops, whole.gemm_flops - whole.attention_core_flops,
              1e-12);
    CHECK_REL(w.attention_backward_recompute_flops, whole.attention_backward_recompute_flops / 16.0,
              1e-12);
    // Materialised scores mask the whole sequence: packing changes nothing there.
    packed.flash_attention = false;
    llama.shape.flash_attention = false;
    CHECK(sim::transformer_layer_work(packed, 1, 1, false, 2).attention_core_flops ==
          sim::transformer_layer_work(llama.shape, 1, 1, false, 2).attention_core_flops);
}
