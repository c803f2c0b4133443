// Mixture-of-Experts mechanisms (engine/moe.h): the grouped GEMM's roofline at few rows per
// expert, the FP8 casts of the routed rows, and the dropless dispatcher's host synchronisation.
#include "engine/moe.h"
#include "engine_fixtures.h"
#include "tolerance.h"

#include <catch2/catch.hpp>

using namespace cp;

namespace {

// DeepSeek-V3's MoE block: 256 routed experts of 2,048, top-8, hidden 7,168, sequence 4,096.
sim::TransformerShape deepseek_moe() {
    sim::TransformerShape s = test::gpt(4, 7168, 128, 4096, 129280).shape;
    s.gated_mlp = true;
    s.moe.experts = 256;
    s.moe.experts_per_token = 8;
    s.moe.moe_ffn_hidden = 2048;
    s.ffn_hidden = 2048;
    return s;
}

sim::ComputeRates h100_bf16() {
    return sim::make_compute_rates(test::h100_cluster(1).node.accelerator, sim::Precision::bf16,
                                   nullptr);
}

} // namespace

TEST_CASE("expert GEMMs with few rows per expert run at HBM bandwidth", "[engine][moe]") {
    const sim::TransformerShape s = deepseek_moe();
    const sim::ComputeRates rates = h100_bf16();
    sim::Layout one_rank, wide;
    one_rank.micro_batch = wide.micro_batch = 1;
    wide.ep = 64;
    // ep 1: 4,096 tokens x 8 / 256 experts = 128 rows per expert; ep 64 gathers 64x the rows.
    const sim::MoeLayerWork few = sim::moe_layer_work(s, one_rank, 2.0);
    const sim::MoeLayerWork many = sim::moe_layer_work(s, wide, 2.0);
    CHECK(few.tokens_per_expert == Approx(128));
    CHECK(many.tokens_per_expert == Approx(128 * 64));
    // Arithmetic intensity of one expert's up projection at 128 rows: 2mnk / 2(mk + kn + mn)
    // ~ 113 FLOP/byte, under the H100's 989 TFLOP/s / 3.35 TB/s = 295: memory bound.
    const sim::GemmShape& g = few.expert_up;
    const double intensity = g.flops() / g.bytes(2.0);
    CHECK(intensity < rates.peak_flops / rates.hbm_bytes_per_s);
    const double t_few = sim::gemm_time_s(rates, g, 2.0);
    CHECK(t_few > sim::gemm_compute_time_s(rates, g));
    CHECK(t_few == Approx(g.bytes(2.0) / rates.hbm_bytes_per_s / 0.8).epsilon(0.01));
    // With 64x the rows per expert the same weights are read once for far more work.
    const double per_flop_few = t_few / g.flops();
    const double per_flop_many =
        sim::gemm_time_s(rates, many.expert_up, 2.0) / many.expert_up.flops();
    CHECK(per_flop_few > 2.0 * per_flop_many);
}

TEST_CASE("FP8 casts cover every routed copy of a token", "[engine][moe]") {
    const sim::TransformerShape s = deepseek_moe();
    sim::Layout l;
    l.micro_batch = 1;
    l.ep = 8;
    const sim::MoeLayerWork w = sim::moe_layer_work(s, l, 2.0);
    const double routed = w.tokens_per_expert * w.expert_up.batch; // = 4,096 x 8 on this rank
    CHECK(routed == Approx(4096.0 * 8));
    CHECK_REL(sim::moe_fp8_cast_elements(s, l), routed * (7168.0 + 2048.0), 1e-12);
}

TEST_CASE("only dropless routing puts per-expert host issue on the critical path",
          "[engine][moe]") {
    sim::TransformerShape s = deepseek_moe();
    sim::Layout l;
    l.ep = 8;
    // 32 local experts, forward + backward (2 passes).
    CHECK(sim::moe_expert_issue_events(s, l) == Approx(32 * 3));
    l.recompute = sim::Recompute::full;
    CHECK(sim::moe_expert_issue_events(s, l) == Approx(32 * 4));
    // Token dropping at a capacity factor has static shapes: no synchronisation.
    s.moe.capacity_factor = 1.0;
    CHECK(sim::moe_expert_issue_events(s, l) == 0);
}
