// Megatron-Core's distributed optimizer (ZeRO-1) and its pipeline split as NeMo's recipes run
// them: the updated weights' all-gather behind the next forward, 16-bit weight gathers beside
// fp32 gradient reduce-scatters, virtual chunks that hold only the embedding or the loss, and
// interleaving with micro-batch groups.
#include "clusterplan/sim/step_model.h"
#include "engine/pipeline_stages.h"
#include "engine_fixtures.h"
#include "tolerance.h"

#include <catch2/catch.hpp>

using namespace cp;

namespace {

sim::Layout zero1_layout(sim::Framework framework, int dp) {
    sim::Layout l;
    l.framework = framework;
    l.dp = dp;
    l.micro_batch = 1;
    l.global_batch = dp;
    l.zero = 1;
    l.recompute = sim::Recompute::none;
    l.fp32_grad_reduce = false; // stated: Megatron-Core's default for BF16 would be fp32
    return l;
}

// Llama 3 8B at 1,024 tokens per sequence: one micro-batch's backward is shorter than the sync.
sim::PlanResult run(const sim::Layout& l) {
    sim::Workload w = test::llama3_8b(true);
    w.shape.seq_len = 1024;
    const sim::PlanResult r = sim::evaluate(w, test::h100_cluster(8), l, sim::Precision::bf16);
    REQUIRE(r.limit == sim::Limit::none);
    return r;
}

} // namespace

TEST_CASE("a ZeRO-1 fp32 gradient reduce still gathers the weights in 16 bits", "[engine]") {
    sim::Layout l = zero1_layout(sim::Framework::megatron_core, 64);
    const sim::PlanResult half = run(l);
    l.fp32_grad_reduce = true;
    const sim::PlanResult fp32 = run(l);
    // Reduce-scatter of 4-byte gradients and all-gather of 2-byte weights: (4 + 2) / (2 + 2).
    CHECK_REL(fp32.dp_bytes_per_device, half.dp_bytes_per_device * 6.0 / 4.0, 1e-12);
}

TEST_CASE("Megatron-Core gathers the updated weights behind the next forward", "[engine]") {
    // One micro-batch per step over 8 nodes.
    const sim::PlanResult mcore = run(zero1_layout(sim::Framework::megatron_core, 64));
    const sim::PlanResult deepspeed = run(zero1_layout(sim::Framework::deepspeed, 64));
    CHECK_REL(mcore.dp_comm_total_s, deepspeed.dp_comm_total_s, 1e-12);
    REQUIRE(deepspeed.breakdown_s.dp_comm_exposed_s > 0);
    CHECK(mcore.breakdown_s.dp_comm_exposed_s < deepspeed.breakdown_s.dp_comm_exposed_s);
}

TEST_CASE("a virtual chunk may hold only the embedding or the loss", "[engine]") {
    sim::Workload w = test::llama3_8b(true);
    w.shape.layers = 30;
    sim::Layout l;
    l.framework = sim::Framework::megatron_core;
    l.tp = 8;
    l.pp = 4;
    l.dp = 2;
    l.micro_batch = 1;
    l.global_batch = 64;
    l.zero = 1;
    l.sequence_parallel = true;
    l.recompute = sim::Recompute::none;
    l.schedule = sim::Schedule::interleaved;
    l.virtual_stages = 8;
    // NeMo's 30-layer Llama 3.1 405B proxy: 30 + 2 over 4 × 8 chunks, one layer each, the first
    // chunk of the first stage the embedding alone, the last chunk of the last stage the loss.
    REQUIRE(sim::set_stage_layers({7, 8, 8, 7}, 30, l).empty());
    const sim::Cluster c = test::h100_cluster(8);
    CHECK(sim::evaluate(w, c, l, sim::Precision::bf16).limit == sim::Limit::none);
    // A middle stage with fewer layers than chunks leaves a chunk empty.
    REQUIRE(sim::set_stage_layers({7, 9, 7, 7}, 30, l).empty());
    CHECK(sim::evaluate(w, c, l, sim::Precision::bf16).limit == sim::Limit::invalid_layout);
    // Nine chunks per stage leave the end stages' chunks short by more than the embedding.
    REQUIRE(sim::set_stage_layers({7, 8, 8, 7}, 30, l).empty());
    l.virtual_stages = 9;
    l.global_batch = 72;
    CHECK(sim::evaluate(w, c, l, sim::Precision::bf16).limit == sim::Limit::invalid_layout);
}

TEST_CASE("interleaving groups micro-batches that pp does not divide under Megatron-Core",
          "[engine]") {
    const sim::Workload w = test::gpt(96, 12288, 96);
    const sim::Cluster c = test::a100_cluster(8, 1600);
    auto limit = [&](sim::Layout l) { return sim::evaluate(w, c, l, sim::Precision::bf16).limit; };
    sim::Layout v;
    v.tp = 8;
    v.pp = 8;
    v.dp = 1;
    v.micro_batch = 1;
    v.global_batch = 64;
    v.recompute = sim::Recompute::full;
    v.schedule = sim::Schedule::interleaved;
    v.virtual_stages = 2;
    // 60 micro-batches, not a multiple of pp=8: Megatron-LM refuses them; Megatron-Core runs
    // groups of 10 per virtual stage (60 % 10 == 0), warming up two more micro-batches.
    const sim::PlanResult divisible = sim::evaluate(w, c, v, sim::Precision::bf16);
    v.global_batch = 60;
    v.framework = sim::Framework::megatron_lm;
    CHECK(limit(v) == sim::Limit::invalid_layout);
    v.framework = sim::Framework::megatron_core;
    CHECK(sim::interleave_group_size(v) == 10);
    const sim::PlanResult grouped = sim::evaluate(w, c, v, sim::Precision::bf16);
    REQUIRE(grouped.limit == sim::Limit::none);
    CHECK(grouped.memory_gib.activations > divisible.memory_gib.activations);
    v.global_batch = 7; // fewer micro-batches than stages: no group fits
    CHECK(sim::interleave_group_size(v) == 0);
    CHECK(limit(v) == sim::Limit::invalid_layout);
}

TEST_CASE("interleaving runs PyTorch's rounds under pytorch-fsdp, fewer micro-batches than pp too",
          "[engine]") {
    const sim::Workload w = test::gpt(96, 12288, 96);
    const sim::Cluster c = test::a100_cluster(8, 1600);
    sim::Layout v;
    v.tp = 8;
    v.pp = 8;
    v.dp = 1;
    v.micro_batch = 1;
    v.zero = 3;
    v.recompute = sim::Recompute::full;
    v.schedule = sim::Schedule::interleaved;
    v.virtual_stages = 2;
    v.framework = sim::Framework::pytorch_fsdp;
    // torch.distributed.pipelining ScheduleInterleaved1F1B: rounds = max(1, M / pp), M a multiple
    // of them. 12 micro-batches: one round of 12; 20: two of 10; 4: one of 4 (fewer than pp).
    v.global_batch = 12;
    CHECK(sim::interleave_group_size(v) == 12);
    v.global_batch = 20;
    CHECK(sim::interleave_group_size(v) == 10);
    v.global_batch = 17; // two rounds do not split 17
    CHECK(sim::interleave_group_size(v) == 0);
    CHECK(sim::evaluate(w, c, v, sim::Precision::bf16).limit == sim::Limit::invalid_layout);
    v.global_batch = 8;
    const sim::PlanResult full = sim::evaluate(w, c, v, sim::Precision::bf16);
    REQUIRE(full.limit == sim::Limit::none);
    v.global_batch = 4;
    CHECK(sim::interleave_group_size(v) == 4);
    const sim::PlanResult few = sim::evaluate(w, c, v, sim::Precision::bf16);
    REQUIRE(few.limit == sim::Limit::none);
    // Four micro-batches leave each rank waiting 4 chunk times per later chunk: (8 - 4)(1 - 1/2)
    // = 2 stage times more than the (8 - 1) / 2 of a full round.
    CHECK(few.breakdown_s.pp_bubble_s > full.breakdown_s.pp_bubble_s * 1.4);
    v.framework = sim::Framework::megatron_core; // groups need at least pp micro-batches
    v.zero = 1;
    CHECK(sim::interleave_group_size(v) == 0);
    CHECK(sim::evaluate(w, c, v, sim::Precision::bf16).limit == sim::Limit::invalid_layout);
}
