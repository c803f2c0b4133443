#include "clusterplan/sim/step_model.h"
#include "engine_fixtures.h"
#include "tolerance.h"

#include <catch2/catch.hpp>

using namespace cp;

namespace {

// A Llama-3.1-405B-like slice (128 query heads, 8 KV heads) at 256K tokens on 8 H100 nodes:
// tp 8 fills each node, so the cp 8 group spans the 8 nodes.
struct LongContextRun {
    sim::Workload workload = test::gpt(8, 16384, 128, 262144, 128256);
    sim::Layout layout;
    sim::Cluster cluster = test::h100_cluster(8);

    LongContextRun() {
        workload.shape.kv_heads = 8;
        workload.shape.flash_attention = true;
        layout.tp = 8;
        layout.cp = 8;
        layout.micro_batch = 1;
        layout.global_batch = 1;
        layout.sequence_parallel = true;
        layout.recompute = sim::Recompute::full;
    }

    double cp_comm_s(sim::Framework framework, bool repeated_kv_heads) {
        workload.shape.llama_reference_code = repeated_kv_heads;
        layout.framework = framework;
        return sim::evaluate(workload, cluster, layout, sim::Precision::bf16).breakdown_s.cp_comm_s;
    }
};

} // namespace

TEST_CASE("PyTorch's context-parallel ring waits on its K/V all-gather and fp32 merges",
          "[engine]") {
    LongContextRun run;
    const double megatron_s = run.cp_comm_s(sim::Framework::megatron_core, false);
    const double pytorch_s = run.cp_comm_s(sim::Framework::pytorch_fsdp, false);
    // Compiled blocks wait for each all-gather and fp32 dK/dV send where it is issued, instead
    // of hiding one K/V send behind every step of the ring.
    CHECK(pytorch_s > megatron_s);
    // The Llama reference code repeats GQA's K/V to all 16 local query heads before SDPA, so
    // the ring moves 16 heads per rank instead of 1.
    CHECK(run.cp_comm_s(sim::Framework::pytorch_fsdp, true) > 2.0 * pytorch_s);

    run.layout.cp = 1;
    run.layout.global_batch = 8;
    run.layout.dp = 8;
    CHECK(run.cp_comm_s(sim::Framework::pytorch_fsdp, true) == 0.0);
}

TEST_CASE("DeepSpeed-Ulysses sequence parallelism: head-split all-to-alls of constant volume",
          "[engine]") {
    // GPT 7B-like (32 heads) on one 8-GPU A100 node with ZeRO-3, as DeepSpeed-Ulysses runs it
    // (Jacobs et al. 2023, sec. 3.2: per-link volume 4Nh/P, constant when N and P grow together).
    sim::Workload workload = test::gpt(32, 4096, 32, 32768, 50304);
    workload.shape.flash_attention = true;
    sim::Layout layout;
    layout.framework = sim::Framework::deepspeed;
    layout.zero = 3;
    layout.cp = 4;
    layout.dp = 2;
    layout.micro_batch = 1;
    layout.global_batch = 2;
    const sim::Cluster cluster = test::a100_cluster(1, 1600);
    const sim::PlanResult four = sim::evaluate(workload, cluster, layout, sim::Precision::bf16);
    REQUIRE(four.valid());
    CHECK(four.breakdown_s.cp_comm_s > 0.0);

    // Twice the sequence over twice the ranks: each rank moves the same bytes per layer.
    workload.shape.seq_len *= 2;
    layout.cp = 8;
    layout.dp = 1;
    layout.global_batch = 1;
    const sim::PlanResult eight = sim::evaluate(workload, cluster, layout, sim::Precision::bf16);
    REQUIRE(eight.valid());
    const double per_micro_batch_four = four.breakdown_s.cp_comm_s / four.micro_batches;
    const double per_micro_batch_eight = eight.breakdown_s.cp_comm_s / eight.micro_batches;
    CHECK(test::within_rel(per_micro_batch_eight, per_micro_batch_four, 0.15));

    // Each rank needs whole heads after the all-to-all: 24 heads do not split over cp 8.
    workload.shape.heads = 24;
    workload.shape.kv_heads = 24;
    CHECK(sim::evaluate(workload, cluster, layout, sim::Precision::bf16).limit ==
          sim::Limit::invalid_layout);
}

TEST_CASE("Transformer Engine's K/V ring is issued step by step from the host, unless graphed",
          "[engine]") {
    // A 1024-wide GPT at 8K tokens on one H100 node, tp 4 x cp 2 (dp 1): each layer's GPU work
    // is short, so the host issuing the ring's per-step operations shows in the step.
    sim::Workload w = test::gpt(12, 1024, 16, 8192);
    w.shape.flash_attention = true;
    sim::Cluster node = test::h100_cluster(1);
    sim::Layout l;
    l.tp = 4;
    l.cp = 2;
    l.dp = 1;
    l.micro_batch = 1;
    l.global_batch = 1;
    l.sequence_parallel = true;
    l.recompute = sim::Recompute::none;
    l.framework = sim::Framework::megatron_core;
    const sim::PlanResult ring = sim::evaluate(w, node, l, sim::Precision::bf16);
    REQUIRE(ring.valid());
    // Per layer: three passes of the layer itself plus the ring's (8 x 2 - 1) forward and
    // (9 x 2 - 1) backward operations over the 16 of a layer pass: five passes in all.
    const double host_s = 12.0 * 5.0 * node.node.accelerator.host_issue.per_layer_pass_s;
    const auto& b = ring.breakdown_s;
    CHECK(b.compute_s + b.recompute_s + b.tp_comm_s + b.cp_comm_s + b.host_overhead_s >=
          host_s * 0.999);
    CHECK(b.host_overhead_s > 0.0);
    // The same layers replayed from CUDA graphs wait for no host.
    l.cuda_graphs = true;
    const sim::PlanResult graphed = sim::evaluate(w, node, l, sim::Precision::bf16);
    CHECK(graphed.breakdown_s.host_overhead_s == 0.0);
    CHECK(graphed.step_time_s < ring.step_time_s);
}
