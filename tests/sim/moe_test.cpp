// Mixture-of-Experts mechanisms (engine/moe.h): the grouped GEMM's roofline at few rows per
// expert, the FP8 casts of the routed rows, the dropless dispatcher's host synchronisation, the
// hybrid (DeepEP / HybridEP) dispatch and the all-to-all overlapped with another micro-batch.
#include "clusterplan/sim/step_model.h"
#include "engine/moe.h"
#include "engine_fixtures.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <cmath>

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
    // Token dropping at a capacity factor has static shapes: no synchronisation, but the host
    // still issues every local expert's kernels (queued ahead of the GPU).
    s.moe.capacity_factor = 1.0;
    CHECK(sim::moe_expert_issue_events(s, l) == 0);
    CHECK(sim::moe_expert_launch_events(s, l) == Approx(32 * 4));
    s.moe.experts = 0;
    CHECK(sim::moe_expert_launch_events(s, l) == 0);
}

TEST_CASE("the hybrid dispatcher sends each token once per destination node and rank",
          "[engine][moe]") {
    const sim::Cluster c = test::h100_cluster(2);
    sim::Network net;
    REQUIRE(sim::make_network(c.node, c.nodes, nullptr, net));
    const double token_bytes = 4096.0 * 2048 * 2, k = 8, routed = token_bytes * k;
    // EP16 over 2 nodes: a token reaches the other node with probability 1 - (1/2)^8, where the
    // all-to-all sends half of its 8 routed copies there.
    const double remote = 1.0 - std::pow(0.5, 8);
    const double nic_bytes_per_s = net.inter.bus_bytes_per_s / net.devices_per_node;
    const double hybrid = sim::hybrid_dispatch_s(net, 16, 8, token_bytes, k, routed);
    const double a2a = sim::all_to_all_s(net, 16, 8, routed);
    CHECK(hybrid < 0.5 * a2a);
    CHECK(hybrid >= token_bytes * remote / nic_bytes_per_s);
    // Inside one node it is an all-to-all of one copy per destination rank: top-8 over 8 ranks
    // reaches 8 (1 - (7/8)^8) = 5.25 of them, where the all-to-all dispatcher sends 8 copies.
    const double rank_copies = 8.0 * (1.0 - std::pow(7.0 / 8.0, 8));
    CHECK(sim::hybrid_dispatch_s(net, 8, 8, token_bytes, k, routed) ==
          Approx(sim::all_to_all_s(net, 8, 8, token_bytes * rank_copies)));
}

TEST_CASE("the overlapped expert all-to-all exposes only what compute cannot cover",
          "[engine][moe]") {
    sim::Workload w = test::gpt(8, 2048, 32, 4096, 151936);
    w.shape.gated_mlp = true;
    w.shape.flash_attention = true;
    w.shape.moe.experts = 128;
    w.shape.moe.experts_per_token = 8;
    w.shape.moe.moe_ffn_hidden = 768;
    w.shape.ffn_hidden = 768;
    sim::Layout l;
    l.dp = 16;
    l.ep = 16;
    l.micro_batch = 1;
    l.global_batch = 64;
    const sim::Cluster c = test::h100_cluster(2);
    const sim::PlanResult plain = sim::evaluate(w, c, l, sim::Precision::bf16);
    l.moe_a2a_overlap = true;
    const sim::PlanResult overlapped = sim::evaluate(w, c, l, sim::Precision::bf16);
    REQUIRE(plain.breakdown_s.ep_comm_s > 0);
    CHECK(overlapped.breakdown_s.ep_comm_s < 0.5 * plain.breakdown_s.ep_comm_s);
    CHECK(overlapped.step_time_s < plain.step_time_s);
}
