// Per-run framework options and what PyTorch's stack (torchtitan) runs: fp32 gradient reduce,
// FP8 parameter and TP all-gathers, async TP, pipelined FSDP2, the Llama reference block, TP
// plans that gather per projection, FSDP2's copies around its collectives, and FP8 weight and
// activation-input storage, and a gradient reduce issued per parameter tensor.
#include "clusterplan/sim/step_model.h"
#include "engine_fixtures.h"
#include "tolerance.h"

#include <catch2/catch.hpp>

using namespace cp;

namespace {

sim::Layout fsdp_layout(int tp, int pp, int dp, int micro_batch, int global_batch) {
    sim::Layout l;
    l.framework = sim::Framework::pytorch_fsdp;
    l.tp = tp;
    l.pp = pp;
    l.dp = dp;
    l.micro_batch = micro_batch;
    l.global_batch = global_batch;
    l.zero = 3;
    l.sequence_parallel = tp > 1;
    l.recompute = sim::Recompute::full;
    return l;
}

// Megatron-Core, TP 4 with sequence parallelism, 16 data-parallel replicas of micro-batch 1.
sim::Layout mcore_tp4_layout(int global_batch) {
    sim::Layout l;
    l.framework = sim::Framework::megatron_core;
    l.tp = 4;
    l.sequence_parallel = true;
    l.dp = 16;
    l.micro_batch = 1;
    l.global_batch = global_batch;
    return l;
}

sim::PlanResult run(const sim::Layout& l, sim::Precision p = sim::Precision::bf16,
                    const sim::Workload& w = test::llama3_8b(true)) {
    const sim::PlanResult r = sim::evaluate(w, test::h100_cluster(8), l, p);
    REQUIRE(r.limit == sim::Limit::none);
    return r;
}

} // namespace

TEST_CASE("an fp32 gradient reduce sends 4 bytes per gradient beside 2 per gathered weight",
          "[engine]") {
    sim::Layout l = fsdp_layout(1, 1, 64, 1, 64);
    const sim::PlanResult half = run(l);
    l.fp32_grad_reduce = true;
    const sim::PlanResult fp32 = run(l);
    // ZeRO-3 moves two gathers and one reduce-scatter per micro-batch: (2 + 2) / (2 + 1).
    CHECK_REL(fp32.dp_bytes_per_device, half.dp_bytes_per_device * 4.0 / 3.0, 1e-12);
    CHECK(fp32.dp_comm_total_s > half.dp_comm_total_s);
}

TEST_CASE("FP8 parameter gathers send the linear weights as one byte", "[engine]") {
    sim::Layout l = fsdp_layout(1, 1, 64, 1, 64);
    const sim::PlanResult plain = run(l, sim::Precision::fp8);
    l.fp8_param_gather = true;
    const sim::PlanResult gathered = run(l, sim::Precision::fp8);
    CHECK(gathered.dp_bytes_per_device < plain.dp_bytes_per_device);
    // Embeddings and norms stay 16-bit: more than the 2/3 an all-FP8 gather would leave.
    CHECK(gathered.dp_bytes_per_device > plain.dp_bytes_per_device * 2.0 / 3.0);
    // A 16-bit run has no FP8 copy to gather.
    l.fp8_param_gather = false;
    const sim::PlanResult bf16 = run(l);
    l.fp8_param_gather = true;
    CHECK_REL(run(l).dp_bytes_per_device, bf16.dp_bytes_per_device, 1e-12);
}

TEST_CASE("pipelined FSDP2 gathers once per step and keeps the stage's weights whole", "[engine]") {
    sim::Layout l = fsdp_layout(1, 2, 32, 1, 64);
    const sim::PlanResult two = run(l);
    l.micro_batch = 2;
    const sim::PlanResult one = run(l);
    // The traffic does not grow with the number of micro-batches (2 against 1).
    CHECK_REL(two.dp_comm_total_s, one.dp_comm_total_s, 1e-12);
    l.micro_batch = 1;
    l.zero = 1;
    const sim::PlanResult zero1 = run(l);
    CHECK_REL(two.memory_gib.weights, zero1.memory_gib.weights, 1e-12);
    CHECK_REL(two.memory_gib.gradients, zero1.memory_gib.gradients, 1e-12);
}

TEST_CASE("async TP hides TP collectives only in a framework that offers it", "[engine]") {
    sim::Layout l = fsdp_layout(8, 1, 8, 2, 16);
    const sim::PlanResult vanilla = run(l);
    l.async_tp = true;
    const sim::PlanResult async = run(l);
    CHECK(async.breakdown_s.tp_comm_s < 0.5 * vanilla.breakdown_s.tp_comm_s);
    // Only the forward and the recomputed forward are pipelined: the backward's collectives,
    // one of the three passes' equal shares under full recompute, stay exposed.
    CHECK(async.breakdown_s.tp_comm_s >= vanilla.breakdown_s.tp_comm_s / 3.0 * (1.0 - 1e-9));
    l.framework = sim::Framework::megatron_lm;
    l.zero = 1;
    const sim::PlanResult megatron_async = run(l);
    l.async_tp = false;
    CHECK_REL(megatron_async.breakdown_s.tp_comm_s, run(l).breakdown_s.tp_comm_s, 1e-12);
}

TEST_CASE("torchao's FP8 tensor parallelism gathers FP8 and DTensor does not gather again",
          "[engine]") {
    sim::Layout l = fsdp_layout(8, 1, 8, 2, 16);
    l.recompute = sim::Recompute::none;
    const sim::PlanResult bf16 = run(l), fp8 = run(l, sim::Precision::fp8);
    // Same reduce-scatters, all-gathers at half the bytes.
    CHECK(fp8.breakdown_s.tp_comm_s < bf16.breakdown_s.tp_comm_s);
    CHECK(fp8.breakdown_s.tp_comm_s > 0.5 * bf16.breakdown_s.tp_comm_s);
    // Megatron re-gathers the sequence-parallel inputs in backward; DTensor keeps them.
    l.framework = sim::Framework::megatron_lm;
    l.zero = 1;
    CHECK(run(l).breakdown_s.tp_comm_s > bf16.breakdown_s.tp_comm_s);
}

TEST_CASE("the Llama reference block costs more than the fused one, compiled or not", "[engine]") {
    const sim::Layout l = fsdp_layout(8, 1, 8, 2, 16);
    sim::Workload reference = test::llama3_8b(true);
    reference.shape.llama_reference_code = true;
    const sim::PlanResult fused = run(l), ref = run(l, sim::Precision::bf16, reference);
    CHECK(ref.breakdown_s.compute_s > fused.breakdown_s.compute_s);
    // Eager kernels already count the complex RoPE: only the separate projections add.
    sim::Workload eager = test::llama3_8b(true), eager_reference = reference;
    eager.shape.eager_elementwise = eager_reference.shape.eager_elementwise = true;
    const double eager_gap = run(l, sim::Precision::bf16, eager_reference).breakdown_s.compute_s -
                             run(l, sim::Precision::bf16, eager).breakdown_s.compute_s;
    CHECK(eager_gap > 0);
    CHECK(eager_gap < ref.breakdown_s.compute_s - fused.breakdown_s.compute_s);
}

TEST_CASE("a TP plan that gathers per projection runs five all-gathers per block, not two",
          "[engine]") {
    sim::Layout l = fsdp_layout(8, 1, 8, 2, 16);
    const sim::PlanResult per_sublayer = run(l);
    l.tp_gather_per_projection = true;
    const sim::PlanResult per_projection = run(l);
    // Forward 2 all-gathers + 2 reduce-scatters become 5 + 2 (q, k, v, gate, up), the backward
    // mirrors them and the recomputed forward repeats them: 7/4 when a gather costs a scatter.
    CHECK_REL(per_projection.breakdown_s.tp_comm_s / per_sublayer.breakdown_s.tp_comm_s, 1.75,
              0.05);
    CHECK(per_projection.breakdown_s.compute_s == per_sublayer.breakdown_s.compute_s);
}

TEST_CASE("a distributed checkpoint keeps 1/tp of each layer input and gathers it before the rerun",
          "[engine]") {
    // Megatron-LM's layout of the OPT era: tp 8, full recompute, no sequence parallelism.
    sim::Layout l = fsdp_layout(8, 1, 8, 4, 32);
    l.framework = sim::Framework::megatron_lm;
    l.zero = 1;
    l.sequence_parallel = false;
    const sim::PlanResult replicated = run(l);
    l.distribute_saved_activations = true;
    const sim::PlanResult split = run(l);
    // Llama 3 8B keeps 2·s·b·h bytes per layer: 32 layers x 2 x 8192 x 4 x 4096 bytes = 8 GiB
    // replicated, 1 GiB split over 8 ranks.
    const double saved_gib = 32.0 * 2.0 * 8192 * 4 * 4096 / (1024.0 * 1024 * 1024);
    CHECK_REL(replicated.memory_gib.activations - split.memory_gib.activations,
              saved_gib * 7.0 / 8.0, 0.02);
    CHECK(split.breakdown_s.tp_comm_s > replicated.breakdown_s.tp_comm_s);
    CHECK(split.breakdown_s.compute_s == replicated.breakdown_s.compute_s);

    // Sequence parallelism already splits the input; Megatron refuses both together.
    l.sequence_parallel = true;
    CHECK(sim::evaluate(test::llama3_8b(true), test::h100_cluster(8), l, sim::Precision::bf16)
              .limit == sim::Limit::invalid_layout);
}

TEST_CASE("sharded weights plan as PyTorch FSDP unless Megatron-Core is named (Megatron-FSDP)",
          "[engine]") {
    const sim::AcceleratorSpec& h100 = test::h100_cluster(1).node.accelerator;
    CHECK(sim::resolve_framework(sim::Framework::automatic, h100, 1) ==
          sim::Framework::megatron_core);
    CHECK(sim::resolve_framework(sim::Framework::automatic, h100, 3) ==
          sim::Framework::pytorch_fsdp);
    CHECK(sim::resolve_framework(sim::Framework::megatron_core, h100, 3) ==
          sim::Framework::megatron_core);
    // Megatron-FSDP runs without pipeline stages.
    sim::Layout l = fsdp_layout(1, 1, 8, 1, 128);
    l.framework = sim::Framework::megatron_core;
    CHECK(sim::evaluate(test::llama3_8b(true), test::h100_cluster(1), l, sim::Precision::bf16)
              .limit == sim::Limit::none);
    l = fsdp_layout(1, 2, 4, 1, 128);
    l.framework = sim::Framework::megatron_core;
    CHECK(sim::evaluate(test::llama3_8b(true), test::h100_cluster(1), l, sim::Precision::bf16)
              .limit == sim::Limit::invalid_layout);
}

TEST_CASE("FSDP2 copies around each gather and reduce, per micro-batch unless pipelined",
          "[engine]") {
    const auto copy_s = [](sim::Layout l) {
        l.fsdp_per_param_copies = false;
        const sim::PlanResult flat = run(l);
        l.fsdp_per_param_copies = true;
        const sim::PlanResult copied = run(l);
        // Memory copies on the compute stream: the same collectives, a longer step.
        CHECK(copied.dp_bytes_per_device == flat.dp_bytes_per_device);
        return copied.step_time_s - flat.step_time_s;
    };
    const double two = copy_s(fsdp_layout(1, 1, 64, 1, 128));
    CHECK(two > 0);
    CHECK_REL(copy_s(fsdp_layout(1, 1, 64, 1, 256)), 2.0 * two, 1e-9);
    // Pipelined FSDP2 gathers and reduces once per step.
    const double piped = copy_s(fsdp_layout(1, 2, 32, 1, 64));
    CHECK(piped > 0);
    CHECK_REL(copy_s(fsdp_layout(1, 2, 32, 1, 128)), piped, 1e-9);
    // Unsharded (one data-parallel rank), there is nothing to gather or reduce.
    CHECK(copy_s(fsdp_layout(8, 8, 1, 1, 16)) == 0.0);
}

TEST_CASE("FP8 weight storage keeps linear weights in one byte and gathers them as FP8",
          "[engine]") {
    sim::Layout l = mcore_tp4_layout(64);
    l.zero = 1;
    const sim::PlanResult plain = run(l, sim::Precision::fp8);
    l.fp8_weights = true;
    const sim::PlanResult stored = run(l, sim::Precision::fp8);
    // Embeddings, the output layer and norms stay 16-bit: between half and all of the weights.
    CHECK(stored.memory_gib.weights < plain.memory_gib.weights);
    CHECK(stored.memory_gib.weights > plain.memory_gib.weights / 2.0);
    // The distributed optimizer gathers the updated FP8 weights; gradients stay 16-bit.
    CHECK(stored.dp_bytes_per_device < plain.dp_bytes_per_device);
    CHECK(stored.dp_bytes_per_device > plain.dp_bytes_per_device * 3.0 / 4.0);
    // A 16-bit run stores 16-bit weights whatever the flag says.
    l.fp8_weights = false;
    const sim::PlanResult bf16 = run(l);
    l.fp8_weights = true;
    CHECK_REL(run(l).memory_gib.weights, bf16.memory_gib.weights, 1e-12);
}

TEST_CASE("an FP8 activation-input store halves the saved MLP-up output", "[engine]") {
    sim::Layout l = mcore_tp4_layout(16);
    const sim::Workload w = test::llama3_8b(true);
    const sim::PlanResult plain = run(l, sim::Precision::fp8, w);
    l.fp8_activation_input = true;
    const sim::PlanResult stored = run(l, sim::Precision::fp8, w);
    // Gated MLP: 2 x ffn elements per token and layer (split over tp), one byte saved on each.
    const double saved_gib = 2.0 * w.shape.ffn_width() * w.shape.seq_len * w.shape.layers /
                             (l.tp * 1024.0 * 1024.0 * 1024.0);
    CHECK_REL(plain.memory_gib.activations - stored.memory_gib.activations, saved_gib, 1e-9);
    CHECK_REL(stored.step_time_s, plain.step_time_s, 1e-12);
}

TEST_CASE("Megatron-Core without TP overlap exposes the forward's and the output-gradient "
          "gathers' collectives",
          "[engine]") {
    sim::Layout l = mcore_tp4_layout(64);
    const sim::PlanResult overlapped = run(l);
    l.no_tp_comm_overlap = true;
    const sim::PlanResult plain = run(l);
    l.framework = sim::Framework::megatron_lm;
    l.no_tp_comm_overlap = false;
    const sim::PlanResult exposed = run(l);
    // More exposed than with the userbuffer overlap, less than Megatron-LM's fully exposed
    // collectives: the column-parallel backward gathers and reduce-scatters hide behind dgrad and
    // wgrad (compute rates differ between the profiles, the collectives do not).
    CHECK(plain.breakdown_s.tp_comm_s > overlapped.breakdown_s.tp_comm_s);
    CHECK(plain.breakdown_s.tp_comm_s < exposed.breakdown_s.tp_comm_s);
    // The forward and the row-parallel output-gradient gathers stay: at least half of the
    // backward-mirrors-forward total.
    CHECK(plain.breakdown_s.tp_comm_s >= 0.5 * exposed.breakdown_s.tp_comm_s);
}

TEST_CASE(
    "a gradient reduce issued per parameter tensor or per bucket pays the ring latency per call",
    "[engine]") {
    sim::Layout l;
    l.framework = sim::Framework::deepspeed;
    l.dp = 64;
    l.micro_batch = 1;
    l.global_batch = 64;
    l.zero = 1;
    const sim::PlanResult bucketed = run(l);
    l.dp_reduce_per_tensor = true;
    const sim::PlanResult per_tensor = run(l);
    // 32 layers of 6 tensors plus embedding and final norm; each reduce-scatter (ZeRO-1) after
    // the first adds n - 1 steps at the slower (inter-node) hop's latency. Bytes do not change.
    const sim::Workload w = test::llama3_8b(true);
    const double step_s = test::h100_cluster(8).node.inter_node_latency_us * 1e-6;
    const double tensors = 6.0 * w.shape.layers + 2.0;
    CHECK_REL(per_tensor.dp_comm_total_s - bucketed.dp_comm_total_s,
              (tensors - 1.0) * (l.dp - 1.0) * step_s, 1e-9);
    CHECK_REL(per_tensor.dp_bytes_per_device, bucketed.dp_bytes_per_device, 1e-12);
    // A stated bucket size issues one reduce per bucket of 16-bit gradients instead.
    l.dp_reduce_per_tensor = false;
    l.dp_bucket_bytes = 25.0 * 1048576;
    const sim::PlanResult buckets = run(l);
    l.dp_bucket_bytes *= 2.0;
    const sim::PlanResult halved = run(l);
    // Half the buckets pay about half the extra latency (16 GB of gradients: ~600 buckets).
    CHECK(halved.dp_comm_total_s > bucketed.dp_comm_total_s);
    CHECK_REL(buckets.dp_comm_total_s - bucketed.dp_comm_total_s,
              2.0 * (halved.dp_comm_total_s - bucketed.dp_comm_total_s), 0.01);
}
