// Behaviour of evaluate(): validity limits, exact traffic figures, breakdown consistency and the
// physical trends the model must show.
#include "clusterplan/sim/step_model.h"
#include "engine/model_constants.h"
#include "engine/transformer_work.h"
#include "engine_fixtures.h"
#include "tolerance.h"

#include <array>
#include <catch2/catch.hpp>
#include <cmath>

using namespace cp;

namespace {

sim::Layout layout(int tp, int pp, int dp, int mb, int gb) {
    sim::Layout l;
    l.tp = tp;
    l.pp = pp;
    l.dp = dp;
    l.micro_batch = mb;
    l.global_batch = gb;
    l.recompute = sim::Recompute::full;
    return l;
}

double sum(const sim::StepBreakdown& b) {
    return b.compute_s + b.recompute_s + b.tp_comm_s + b.pp_bubble_s + b.pp_comm_s +
           b.dp_comm_exposed_s + b.optimizer_s + b.host_overhead_s + b.cp_comm_s;
}

sim::Workload bert_large() {
    sim::Workload w = test::gpt(24, 1024, 16, 512, 30522);
    w.shape.learned_positions = true;
    return w;
}

// V100-32GB node (p3dn-like): 8 GPUs on NVLink, 100 Gb/s between nodes.
sim::Cluster v100_cluster(int nodes) {
    sim::Cluster c = test::a100_cluster(nodes, 100);
    c.node.accelerator.id = "V100-32GB";
    c.node.accelerator.peak_tflops = {15.7, sim::kUnknown, 125, sim::kUnknown, sim::kUnknown};
    c.node.accelerator.precision_unsupported[static_cast<int>(sim::Precision::bf16)] = true;
    c.node.accelerator.memory_gib = 32;
    c.node.accelerator.hbm_gbytes_per_s = 900;
    c.node.intra_link = sim::IntraNodeLink::nvlink;
    c.node.intra_node_gbytes_per_s = 150;
    return c;
}

} // namespace

TEST_CASE("a valid plan's breakdown adds up to its step time", "[engine]") {
    const sim::Workload w = test::gpt(96, 12288, 96);
    sim::Layout l = layout(8, 8, 16, 1, 1536);
    l.schedule = sim::Schedule::interleaved;
    l.virtual_stages = 2;
    const sim::PlanResult r =
        sim::evaluate(w, test::a100_cluster(128, 1600), l, sim::Precision::bf16);
    REQUIRE(r.valid());
    CHECK(r.fits_in_memory);
    CHECK_REL(sum(r.breakdown_s), r.step_time_s, 1e-12);
    CHECK(r.micro_batches == 96);
    // Fill and drain are the other stages' times: (p - 1) / (v m) of the pipeline when the
    // stages were even, a little less as the last stage (logits and loss) paces the rest.
    const double bubble_fraction =
        r.breakdown_s.pp_bubble_s / (r.step_time_s - r.breakdown_s.pp_bubble_s -
                                     r.breakdown_s.dp_comm_exposed_s - r.breakdown_s.optimizer_s);
    CHECK(bubble_fraction < 7.0 / (2.0 * 96.0));
    CHECK(bubble_fraction > 0.95 * 7.0 / (2.0 * 96.0));
    CHECK_REL(r.tokens_per_s, 1536.0 * 2048.0 / r.step_time_s, 1e-12);
    CHECK(r.hardware_tflops_per_device > r.model_tflops_per_device); // full recompute counted
    CHECK_REL(r.hardware_flops_per_step / r.model_flops_per_step,
              (96.0 / 72.0) * (1 + 2048.0 / 73728 + 51200.0 / (16 * 96 * 12288.0)) /
                  (1 + 2048.0 / 73728 + 51200.0 / (12 * 96 * 12288.0)),
              1e-9);
    CHECK(r.mfu > 0.3);
    CHECK(r.mfu < 0.6);
    CHECK(r.calibration_used.any() == false);
}

TEST_CASE("small layers at small micro-batches are bound by the host issuing their kernels",
          "[engine]") {
    // A 1024-wide, 12-layer GPT at micro-batch 1 on one A100: each layer's GPU work is well under
    // a millisecond, so the host (0.86 ms per forward pass, 4 passes with full recompute) sets
    // the pace; the idle GPU time is its own breakdown part and adds up with the rest.
    const sim::Workload small = test::gpt(12, 1024, 16, 1024);
    sim::Layout l = layout(1, 1, 1, 1, 8);
    sim::Cluster one = test::a100_cluster(1, 800);
    one.node.accelerators_per_node = 1;
    const sim::PlanResult r = sim::evaluate(small, one, l, sim::Precision::fp16);
    REQUIRE(r.valid());
    CHECK(r.breakdown_s.host_overhead_s > 0);
    CHECK_REL(sum(r.breakdown_s), r.step_time_s, 1e-12);
    const double host_floor_s = 8.0 * 12.0 * 4.0 * one.node.accelerator.host_issue.per_layer_pass_s;
    CHECK(r.breakdown_s.compute_s + r.breakdown_s.recompute_s + r.breakdown_s.host_overhead_s >=
          host_floor_s * 0.999);
    // Without recompute the host issues three passes per layer, not four.
    l.recompute = sim::Recompute::none;
    const sim::PlanResult none = sim::evaluate(small, one, l, sim::Precision::fp16);
    CHECK(none.breakdown_s.compute_s + none.breakdown_s.host_overhead_s >=
          host_floor_s * 0.75 * 0.999);
    CHECK(none.step_time_s < r.step_time_s);
    // A larger micro-batch fills the GPU: per sample it is faster, the way measured runs behave.
    l.recompute = sim::Recompute::full;
    l.micro_batch = 8;
    const sim::PlanResult big_mb = sim::evaluate(small, one, l, sim::Precision::fp16);
    CHECK(big_mb.step_time_s < r.step_time_s);
    // Neuron compiles the whole step (XLA): no per-kernel issue from the host, no floor.
    sim::Cluster compiled = one;
    compiled.node.accelerator.eager_kernel_issue = false;
    l.micro_batch = 1;
    const sim::PlanResult graph = sim::evaluate(small, compiled, l, sim::Precision::fp16);
    CHECK(graph.breakdown_s.host_overhead_s == 0);
    CHECK_REL(graph.step_time_s, r.step_time_s - r.breakdown_s.host_overhead_s, 1e-9);
    // GPT-3-sized layers hardly wait for the host: their GPU work is many times the issue time.
    const sim::PlanResult gpt3 =
        sim::evaluate(test::gpt(96, 12288, 96), test::a100_cluster(128, 1600),
                      layout(8, 8, 16, 1, 1536), sim::Precision::bf16);
    REQUIRE(gpt3.valid());
    CHECK(gpt3.breakdown_s.host_overhead_s <= 1e-4 * gpt3.step_time_s);
}

TEST_CASE("a layer takes between the larger of host issue and GPU work and their sum", "[engine]") {
    const double p = sim::HostIssue{}.overlap_exponent;
    // Equal host and GPU time: the queue hides part of the host's work, not all of it.
    const double equal = sim::host_bound_layer_s(1.0, 1.0, p);
    CHECK(equal > 1.0);
    CHECK(equal < 2.0);
    CHECK_REL(equal, std::pow(2.0, 1.0 / p), 1e-12);
    // Symmetric in host and GPU, and close to the larger one when they differ by 5x.
    CHECK_REL(sim::host_bound_layer_s(0.2, 1.0, p), sim::host_bound_layer_s(1.0, 0.2, p), 1e-12);
    CHECK(sim::host_bound_layer_s(0.2, 1.0, p) < 1.001);
    // Nothing to issue (compiled graphs) or nothing to run: the other one alone.
    CHECK(sim::host_bound_layer_s(0.0, 3.0, p) == 3.0);
    CHECK(sim::host_bound_layer_s(3.0, 0.0, p) == 3.0);
    // A deeper queue (larger exponent) hides more: the hard maximum is its limit.
    CHECK(sim::host_bound_layer_s(1.0, 0.8, 2 * p) < sim::host_bound_layer_s(1.0, 0.8, p));
    CHECK_REL(sim::host_bound_layer_s(1.0, 0.8, 200.0), 1.0, 1e-3);
}

TEST_CASE("BERT-large ring all-reduce sends 2(n-1)/n x 680 MB per device", "[engine]") {
    const sim::Workload w = bert_large();
    const double grad_bytes = sim::transformer_params(w.shape) * 2.0; // fp16 gradients
    CHECK_REL(grad_bytes, 680e6, 0.02);
    for (int nodes : {1, 2, 8}) {
        const int n = nodes * 8;
        sim::Layout l = layout(1, 1, n, 8, 8 * n);
        l.recompute = sim::Recompute::none;
        const sim::PlanResult r = sim::evaluate(w, v100_cluster(nodes), l, sim::Precision::fp16);
        REQUIRE(r.valid());
        CHECK_REL(r.dp_bytes_per_device, 2.0 * (n - 1.0) / n * grad_bytes, 1e-12);
        CHECK_REL(r.dp_bytes_per_device, 2.0 * (n - 1.0) / n * 680e6, 0.02);
    }
}

TEST_CASE("invalid layouts are reported, not timed", "[engine]") {
    const sim::Workload w = test::gpt(96, 12288, 96);
    const sim::Cluster c = test::a100_cluster(8, 1600);
    auto limit = [&](sim::Layout l) { return sim::evaluate(w, c, l, sim::Precision::bf16).limit; };
    CHECK(limit(layout(8, 8, 1, 1, 64)) == sim::Limit::none);
    CHECK(limit(layout(16, 4, 1, 1, 64)) == sim::Limit::none); // tp across nodes is allowed
    CHECK(limit(layout(8, 4, 1, 1, 64)) == sim::Limit::invalid_layout);  // 32 != 64 devices
    CHECK(limit(layout(64, 1, 1, 1, 64)) == sim::Limit::invalid_layout); // 96 heads % 64
    CHECK(limit(layout(1, 64, 1, 1, 64)) == sim::Limit::none); // uneven stages: 1 or 2 layers each
    CHECK(limit(layout(1, 97, 1, 1, 97)) == sim::Limit::invalid_layout); // more stages than layers
    CHECK(limit(layout(8, 8, 1, 3, 64)) == sim::Limit::invalid_layout);  // 64 % 3
    sim::Layout v = layout(8, 8, 1, 1, 64);
    v.virtual_stages = 2;
    CHECK(limit(v) == sim::Limit::invalid_layout); // v > 1 needs the interleaved schedule
    v.schedule = sim::Schedule::interleaved;
    CHECK(limit(v) == sim::Limit::none);
    v.virtual_stages = 5;
    CHECK(limit(v) == sim::Limit::none); // 12 layers per stage in 5 uneven chunks
    v.virtual_stages = 13;
    CHECK(limit(v) == sim::Limit::invalid_layout); // a chunk without a layer
    sim::Layout z = layout(8, 8, 1, 1, 64);
    z.zero = 4;
    CHECK(limit(z) == sim::Limit::invalid_layout);
    z.zero = 1;
    z.dp_comm = sim::DpComm::parameter_server;
    CHECK(limit(z) == sim::Limit::invalid_layout); // no server shards
    // Hardware whose software offers only ZeRO-1 (Neuron) gets no ZeRO-2/3 plan.
    sim::Cluster neuron_like = c;
    neuron_like.node.accelerator.max_zero_stage = 1;
    sim::Layout zn = layout(8, 8, 1, 1, 64);
    zn.zero = 1;
    CHECK(sim::evaluate(w, neuron_like, zn, sim::Precision::bf16).limit == sim::Limit::none);
    zn.zero = 3;
    CHECK(sim::evaluate(w, neuron_like, zn, sim::Precision::bf16).limit ==
          sim::Limit::invalid_layout);
    CHECK(limit(zn) == sim::Limit::none);
    // tp wider than the KV heads replicates them when it is a multiple of them.
    sim::Workload gqa = w;
    gqa.shape.kv_heads = 4;
    CHECK(sim::evaluate(gqa, c, layout(8, 8, 1, 1, 64), sim::Precision::bf16).limit ==
          sim::Limit::none);
    gqa.shape.kv_heads = 3;
    CHECK(sim::evaluate(gqa, c, layout(8, 8, 1, 1, 64), sim::Precision::bf16).limit ==
          sim::Limit::invalid_layout);
    // The framework decides which layouts exist: no ZeRO-3 with pipelining in Megatron or
    // DeepSpeed; torchtitan's FSDP2 + PP runs it.
    sim::Layout z3pp = layout(8, 8, 1, 1, 64);
    z3pp.zero = 3;
    z3pp.framework = sim::Framework::megatron_deepspeed;
    CHECK(limit(z3pp) == sim::Limit::invalid_layout);
    z3pp.framework = sim::Framework::pytorch_fsdp;
    CHECK(limit(z3pp) == sim::Limit::none);
    z3pp.framework = sim::Framework::neuronx_distributed; // Neuron software on NVIDIA GPUs
    z3pp.zero = 1;
    CHECK(limit(z3pp) == sim::Limit::invalid_layout);
}

TEST_CASE("inference-only, unsupported-precision and unknown hardware are reported", "[engine]") {
    const sim::Workload w = bert_large();
    sim::Cluster c = test::a100_cluster(1, 1600);
    const sim::Layout l = layout(1, 1, 8, 4, 32);
    c.node.accelerator.can_train = false;
    CHECK(sim::evaluate(w, c, l, sim::Precision::bf16).limit == sim::Limit::cannot_train);
    c.node.accelerator.can_train = true;
    CHECK(sim::evaluate(w, c, l, sim::Precision::fp8).limit == sim::Limit::cannot_train);
    c.node.accelerator.hbm_gbytes_per_s = sim::kUnknown;
    CHECK(sim::evaluate(w, c, l, sim::Precision::bf16).limit == sim::Limit::unknown_hardware);
    c = test::a100_cluster(2, sim::kUnknown);
    CHECK(sim::evaluate(w, c, layout(1, 1, 16, 4, 64), sim::Precision::bf16).limit ==
          sim::Limit::unknown_hardware);
    c = test::a100_cluster(1, sim::kUnknown); // one node needs no network figure
    CHECK(sim::evaluate(w, c, l, sim::Precision::bf16).valid());
    sim::Layout ps = l; // ... unless its gradients go to parameter servers over the network
    ps.dp_comm = sim::DpComm::parameter_server;
    ps.parameter_servers = 2;
    CHECK(sim::evaluate(w, c, ps, sim::Precision::bf16).limit == sim::Limit::unknown_hardware);
}

TEST_CASE("plans that do not fit are marked out of memory but still computed", "[engine]") {
    const sim::Workload w = test::gpt(96, 12288, 96);
    sim::Layout l = layout(8, 1, 8, 1, 64); // 175B on 8-way tp only: ~350 GB of state per GPU
    // 16-bit gradients in both (automatic resolves to Megatron-Core, fp32 by default, at ZeRO 0
    // and to PyTorch FSDP at ZeRO 3).
    l.fp32_grad_reduce = false;
    const sim::PlanResult r =
        sim::evaluate(w, test::a100_cluster(8, 1600), l, sim::Precision::bf16);
    CHECK(r.limit == sim::Limit::out_of_memory);
    CHECK_FALSE(r.fits_in_memory);
    CHECK(r.step_time_s > 0);
    CHECK(r.memory_gib.total > r.memory_gib.capacity);
    CHECK_REL(r.memory_gib.optimizer, 12.0 * 175e9 / 8 / (1024.0 * 1024 * 1024), 0.03);
    l.zero = 3; // sharding everything over dp=8 brings the states down 8x
    const sim::PlanResult z =
        sim::evaluate(w, test::a100_cluster(8, 1600), l, sim::Precision::bf16);
    CHECK_REL(z.memory_gib.weights * 8, r.memory_gib.weights, 1e-9);
    CHECK_REL(z.memory_gib.optimizer * 8, r.memory_gib.optimizer, 1e-9);
    // ZeRO-3 moves 3 x (n-1)/n of the parameters per micro-batch (gather for forward and for
    // backward, reduce-scatter the gradients); the all-reduce moves 2 x (n-1)/n once per step.
    CHECK(z.dp_bytes_per_device == Approx(z.micro_batches * 1.5 * r.dp_bytes_per_device));
}

TEST_CASE("context-parallel ranks share the ZeRO shards of the weights they all hold", "[engine]") {
    // Llama-3-8B-like model on 8 GPUs, 32K tokens: cp 8 x dp 1 holds the same weights on every
    // rank, so FSDP (torchtitan's dp_shard_cp mesh) and Megatron-Core's distributed optimizer
    // shard the state 8 ways, as dp 8 x cp 1 does.
    sim::Workload w = test::gpt(32, 4096, 32, 32768, 128256);
    sim::Layout by_dp = layout(1, 1, 8, 1, 8), by_cp = layout(1, 1, 1, 1, 1);
    by_dp.zero = by_cp.zero = 3;
    by_cp.cp = 8;
    const sim::Cluster one_node = test::h100_cluster(1);
    const sim::PlanResult d = sim::evaluate(w, one_node, by_dp, sim::Precision::bf16);
    const sim::PlanResult c = sim::evaluate(w, one_node, by_cp, sim::Precision::bf16);
    REQUIRE(c.limit != sim::Limit::invalid_layout);
    CHECK_REL(c.memory_gib.weights, d.memory_gib.weights, 1e-9);
    CHECK_REL(c.memory_gib.gradients, d.memory_gib.gradients, 1e-9);
    CHECK_REL(c.memory_gib.optimizer, d.memory_gib.optimizer, 1e-9);
    // Each rank keeps activations for 1/8 of the sequence instead of 1/8 of the batch.
    CHECK(c.memory_gib.activations < 1.1 * d.memory_gib.activations);
}

TEST_CASE("ZeRO-3 pays its parameter traffic every micro-batch, ZeRO-1 once per step", "[engine]") {
    // GPT-2 XL-sized model data parallel over 16 nodes of a 100 Gb/s network: gradient
    // accumulation multiplies ZeRO-3's gathers, not ZeRO-1's all-reduce.
    const sim::Workload w = test::gpt(48, 1600, 25, 1024, 50257);
    const sim::Cluster slow = test::a100_cluster(16, 100);
    auto step = [&](int zero, int micro_batch) {
        sim::Layout l = layout(1, 1, 128, micro_batch, 1024);
        l.zero = zero;
        l.recompute = sim::Recompute::none;
        const sim::PlanResult r = sim::evaluate(w, slow, l, sim::Precision::bf16);
        REQUIRE(r.valid());
        CHECK_REL(sum(r.breakdown_s), r.step_time_s, 1e-12);
        return r;
    };
    const sim::PlanResult z1_one = step(1, 8), z1_eight = step(1, 1);
    const sim::PlanResult z3_one = step(3, 8), z3_eight = step(3, 1);
    CHECK_REL(z1_eight.dp_comm_total_s, z1_one.dp_comm_total_s, 1e-12);
    CHECK_REL(z3_eight.dp_comm_total_s, 8.0 * z3_one.dp_comm_total_s, 1e-12);
    CHECK(z3_eight.breakdown_s.dp_comm_exposed_s > z1_eight.breakdown_s.dp_comm_exposed_s);
    // Without overlap every gather and scatter is on the critical path.
    sim::Layout l = layout(1, 1, 128, 1, 1024);
    l.zero = 3;
    l.recompute = sim::Recompute::none;
    l.overlap_dp = false;
    const sim::PlanResult serial = sim::evaluate(w, slow, l, sim::Precision::bf16);
    CHECK_REL(serial.breakdown_s.dp_comm_exposed_s, serial.dp_comm_total_s, 1e-12);
}

TEST_CASE("recompute trades time for memory", "[engine]") {
    const sim::Workload w = test::gpt(48, 6144, 64);
    sim::Layout l = layout(8, 1, 1, 4, 4);
    const sim::Cluster c = test::a100_cluster(1, 1600);
    l.recompute = sim::Recompute::none;
    const sim::PlanResult none = sim::evaluate(w, c, l, sim::Precision::bf16);
    l.recompute = sim::Recompute::selective;
    const sim::PlanResult sel = sim::evaluate(w, c, l, sim::Precision::bf16);
    l.recompute = sim::Recompute::full;
    const sim::PlanResult full = sim::evaluate(w, c, l, sim::Precision::bf16);
    CHECK(none.step_time_s < sel.step_time_s);
    CHECK(sel.step_time_s < full.step_time_s);
    CHECK(none.memory_gib.activations > sel.memory_gib.activations);
    CHECK(sel.memory_gib.activations > full.memory_gib.activations);
    CHECK(none.breakdown_s.recompute_s == 0);
    CHECK_REL(none.model_tflops_per_device, none.hardware_tflops_per_device, 1e-12);
}

TEST_CASE("communication choices move the step time the right way", "[engine]") {
    const sim::Workload w = test::gpt(40, 6144, 48);
    const sim::Cluster c = test::a100_cluster(32, 1600);
    sim::Layout l = layout(8, 1, 32, 4, 1024);
    l.overlap_dp = false;
    const sim::PlanResult base = sim::evaluate(w, c, l, sim::Precision::bf16);
    REQUIRE(base.valid());
    l.overlap_dp = true;
    const sim::PlanResult overlapped = sim::evaluate(w, c, l, sim::Precision::bf16);
    CHECK(overlapped.breakdown_s.dp_comm_exposed_s < base.breakdown_s.dp_comm_exposed_s);
    CHECK(overlapped.dp_comm_total_s == Approx(base.dp_comm_total_s));
    l.overlap_dp = false;
    l.grad_compression = 0.25;
    const sim::PlanResult compressed = sim::evaluate(w, c, l, sim::Precision::bf16);
    CHECK(compressed.dp_bytes_per_device == Approx(0.25 * base.dp_bytes_per_device));
    CHECK(compressed.dp_comm_total_s < base.dp_comm_total_s);
    l.grad_compression = 1.0;
    l.dp_comm = sim::DpComm::parameter_server;
    l.parameter_servers = 1;
    const sim::PlanResult ps1 = sim::evaluate(w, c, l, sim::Precision::bf16);
    l.parameter_servers = 16;
    const sim::PlanResult ps16 = sim::evaluate(w, c, l, sim::Precision::bf16);
    CHECK(ps16.dp_comm_total_s < ps1.dp_comm_total_s); // more shards relieve the servers
    l.ps_sync = sim::PsSync::async;
    const sim::PlanResult async = sim::evaluate(w, c, l, sim::Precision::bf16);
    CHECK(async.step_time_s <= ps16.step_time_s);
    l.dp_comm = sim::DpComm::hierarchical;
    CHECK(sim::evaluate(w, c, l, sim::Precision::bf16).valid());
    l.dp_comm = sim::DpComm::tree;
    CHECK(sim::evaluate(w, c, l, sim::Precision::bf16).valid());
    // TP inside a node beats TP across nodes.
    sim::Layout inside = layout(8, 1, 32, 4, 1024), across = layout(16, 1, 16, 4, 1024);
    CHECK(sim::evaluate(w, c, inside, sim::Precision::bf16).breakdown_s.tp_comm_s * 2 <
          sim::evaluate(w, c, across, sim::Precision::bf16).breakdown_s.tp_comm_s);
}

TEST_CASE("PCIe-only nodes fall behind NVLink nodes in data-parallel scaling", "[engine]") {
    const sim::Workload w = bert_large();
    sim::Cluster nvlink = v100_cluster(8);
    sim::Cluster pcie = v100_cluster(8);
    pcie.node.intra_link = sim::IntraNodeLink::pcie;
    pcie.node.intra_node_gbytes_per_s = 16;  // PCIe 4.0 x8 as seen on g5
    sim::Layout one = layout(1, 1, 1, 2, 2); // 2 sequences per GPU: communication matters
    one.recompute = sim::Recompute::none;
    one.overlap_dp = true;
    auto efficiency = [&](sim::Cluster c, int nodes) {
        sim::Cluster single = c;
        single.nodes = 1;
        single.node.accelerators_per_node = 1;
        const double t1 = sim::evaluate(w, single, one, sim::Precision::fp16).samples_per_s;
        c.nodes = nodes;
        sim::Layout many = one;
        many.dp = 8 * nodes;
        many.global_batch = 2 * many.dp;
        return sim::evaluate(w, c, many, sim::Precision::fp16).samples_per_s / (many.dp * t1);
    };
    // Inside one node the 135 GB/s NVLink ring beats the ~13 GB/s PCIe ring by far.
    CHECK(efficiency(pcie, 1) < 0.8 * efficiency(nvlink, 1));
    CHECK(efficiency(nvlink, 1) <= 1.0); // fully hidden behind the backward pass
    // Across 8 nodes both rings are bound by the 100 Gb/s NICs; PCIe is never ahead.
    CHECK(efficiency(pcie, 8) <= efficiency(nvlink, 8));
}

TEST_CASE("generic models train data parallel from params and FLOPs per sample", "[engine]") {
    sim::Workload resnet;
    resnet.kind = sim::WorkloadKind::generic;
    resnet.params = 25.6e6;
    resnet.flops_per_sample = 3.0 * 4.1e9 * 2.0; // forward + backward
    const sim::Cluster c = test::a100_cluster(1, 1600);
    sim::Layout l = layout(1, 1, 8, 256, 2048);
    const sim::PlanResult r = sim::evaluate(resnet, c, l, sim::Precision::fp16);
    REQUIRE(r.valid());
    CHECK_REL(sum(r.breakdown_s), r.step_time_s, 1e-12);
    // ~21 % of 312 TFLOP/s over 24.6 GFLOP per image: ~2,700 images/s per GPU.
    CHECK_REL(r.samples_per_s / 8, 0.21 * 312e12 / resnet.flops_per_sample, 0.1);
    CHECK(sim::evaluate(resnet, c, layout(2, 1, 4, 256, 2048), sim::Precision::fp16).limit ==
          sim::Limit::invalid_layout);
    // NVIDIA's published single-A100 ResNet-50 v1.5 training throughput (DeepLearningExamples,
    // pytorch-21.03): 2,470 img/s with AMP, 938 img/s in TF32.
    sim::Cluster single = test::a100_cluster(1, 1600);
    single.node.accelerators_per_node = 1;
    const sim::Layout l1 = layout(1, 1, 1, 256, 256);
    const sim::PlanResult amp = sim::evaluate(resnet, single, l1, sim::Precision::fp16);
    const sim::PlanResult tf32 = sim::evaluate(resnet, single, l1, sim::Precision::tf32);
    REQUIRE(amp.valid());
    REQUIRE(tf32.valid());
    CHECK_REL(amp.samples_per_s, 2470.0, 0.1);
    CHECK_REL(tf32.samples_per_s, 938.0, 0.1);
}

TEST_CASE("a calibration profile replaces datasheet figures and says so", "[engine]") {
    const sim::Workload w = test::gpt(24, 2304, 24);
    const sim::Cluster c = test::a100_cluster(2, 1600);
    sim::Layout l = layout(8, 1, 2, 4, 64);
    sim::CalibrationProfile p;
    p.source = "probe";
    p.gemm.push_back({"bf16", {{1e9, 100}, {1e11, 150}, {1e13, 160}}}); // a slow part
    p.hbm_gbytes_per_s = 1000;
    sim::CollectiveFit intra;
    intra.collective = "all_reduce";
    intra.ranks = 8;
    intra.segments.push_back({0, 1e18, 100e-6, 50e9}); // slow fabric
    p.intra_node.push_back(intra);
    sim::CollectiveFit inter = intra;
    inter.ranks = 16;
    inter.nodes = 2;
    p.inter_node.push_back(inter);
    const sim::PlanResult sheet = sim::evaluate(w, c, l, sim::Precision::bf16);
    const sim::PlanResult cal = sim::evaluate(w, c, l, sim::Precision::bf16, &p);
    REQUIRE(cal.valid());
    CHECK(cal.calibration_used.gemm);
    CHECK(cal.calibration_used.hbm);
    CHECK(cal.calibration_used.intra_node);
    CHECK(cal.calibration_used.inter_node);
    CHECK(cal.breakdown_s.compute_s > 1.5 * sheet.breakdown_s.compute_s);
    CHECK(cal.breakdown_s.tp_comm_s > 2.0 * sheet.breakdown_s.tp_comm_s);
    const sim::PlanResult fp16 = sim::evaluate(w, c, l, sim::Precision::fp16, &p);
    CHECK_FALSE(fp16.calibration_used.gemm); // only bf16 was measured
}

TEST_CASE("every valid plan of a broad sweep has finite, consistent figures", "[engine]") {
    sim::Workload llama = test::gpt(80, 8192, 64, 4096, 128256); // Llama-3 70B shape
    llama.shape.kv_heads = 8;
    llama.shape.ffn_hidden = 28672;
    llama.shape.gated_mlp = true;
    const std::array<sim::Workload, 2> workloads{test::gpt(96, 12288, 96), llama};
    int valid = 0, checked = 0;
    for (const sim::Workload& w : workloads) {
        for (int nodes : {1, 4, 16, 64}) {
            const sim::Cluster c = test::a100_cluster(nodes, 1600);
            for (int tp : {1, 2, 4, 8, 16}) {
                for (int pp : {1, 2, 4, 8, 16}) {
                    if ((nodes * 8) % (tp * pp) != 0) continue;
                    const int dp = nodes * 8 / (tp * pp);
                    for (int mb : {1, 2, 4}) {
                        for (int variant = 0; variant < 6; ++variant) {
                            sim::Layout l = layout(tp, pp, dp, mb, 1024);
                            l.recompute = static_cast<sim::Recompute>(variant % 3);
                            l.sequence_parallel = variant % 2 == 1;
                            l.zero = variant % 4;
                            l.dp_comm = static_cast<sim::DpComm>(variant % 4);
                            l.parameter_servers = 4;
                            l.overlap_dp = variant < 3;
                            if (variant == 5 && pp > 1) {
                                l.schedule = sim::Schedule::interleaved;
                                l.virtual_stages = 2;
                            }
                            const sim::PlanResult r = sim::evaluate(w, c, l, sim::Precision::bf16);
                            ++checked;
                            if (r.limit == sim::Limit::invalid_layout) continue;
                            INFO("tp " << tp << " pp " << pp << " dp " << dp << " mb " << mb
                                       << " variant " << variant);
                            REQUIRE((r.valid() || r.limit == sim::Limit::out_of_memory));
                            REQUIRE(std::isfinite(r.step_time_s));
                            REQUIRE(r.step_time_s > 0);
                            REQUIRE(sum(r.breakdown_s) == Approx(r.step_time_s).epsilon(1e-9));
                            REQUIRE(std::isfinite(r.memory_gib.total));
                            REQUIRE(r.memory_gib.total > 0);
                            REQUIRE(r.mfu > 0);
                            REQUIRE(r.mfu < 1);
                            if (r.valid()) ++valid;
                        }
                    }
                }
            }
        }
    }
    CHECK(checked > 1000);
    CHECK(valid > 100);
}
