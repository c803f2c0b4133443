// Time of one step-model evaluation on GPT-3 175B plans (DESIGN.md: <= 2 us per plan
// single-threaded in Release, so a sweep reaches >= 1,000,000 plans/s on two cores).
#include "clusterplan/sim/step_model.h"

#include <array>
#include <benchmark/benchmark.h>

namespace {

using namespace cp::sim;

Workload gpt3() {
    Workload w;
    w.name = "gpt3-175b";
    w.shape.layers = 96;
    w.shape.hidden = 12288;
    w.shape.heads = 96;
    w.shape.kv_heads = 96;
    w.shape.ffn_hidden = 49152;
    w.shape.seq_len = 2048;
    w.shape.vocab = 51200;
    w.shape.learned_positions = true;
    return w;
}

// p4d/p4de-like node: 8 x A100-80GB on NVSwitch, 4 x 400 Gb/s EFA.
Cluster p4de(int nodes) {
    Cluster c;
    c.nodes = nodes;
    c.node.instance_type = "p4de.24xlarge";
    c.node.accelerator.id = "A100-80GB";
    c.node.accelerator.peak_tflops = {19.5, 156, 312, 312, kUnknown};
    c.node.accelerator.memory_gib = 80;
    c.node.accelerator.hbm_gbytes_per_s = 2039;
    c.node.accelerators_per_node = 8;
    c.node.intra_link = IntraNodeLink::nvswitch;
    c.node.intra_node_gbytes_per_s = 300;
    c.node.inter_node_gbps = 1600;
    return c;
}

// A spread of plans a sweep visits: different tp/pp/dp, micro-batches, schedules, recompute.
std::array<Layout, 8> plans() {
    std::array<Layout, 8> out{};
    const int shapes[8][4] = {{8, 8, 16, 1},  {8, 16, 8, 2},  {4, 16, 16, 1}, {8, 4, 32, 1},
                              {8, 12, 10, 1}, {2, 32, 16, 1}, {8, 8, 16, 4},  {1, 48, 21, 1}};
    for (std::size_t i = 0; i < out.size(); ++i) {
        Layout& l = out[i];
        l.tp = shapes[i][0];
        l.pp = shapes[i][1];
        l.dp = shapes[i][2];
        l.micro_batch = shapes[i][3];
        l.global_batch = 1536;
        l.recompute =
            i % 3 == 0 ? Recompute::full : (i % 3 == 1 ? Recompute::selective : Recompute::none);
        l.sequence_parallel = i % 2 == 1;
        l.zero = static_cast<int>(i % 4);
        if (i == 0) {
            l.schedule = Schedule::interleaved;
            l.virtual_stages = 2;
        }
    }
    return out;
}

void BM_EvaluateGpt3(benchmark::State& state) {
    const Workload w = gpt3();
    const auto layouts = plans();
    std::array<Cluster, 8> clusters{};
    for (std::size_t i = 0; i < layouts.size(); ++i)
        clusters[i] = p4de(layouts[i].devices() / 8);
    std::size_t i = 0;
    for (auto _ : state) {
        const PlanResult r = evaluate(w, clusters[i], layouts[i], Precision::bf16);
        benchmark::DoNotOptimize(r);
        i = (i + 1) % layouts.size();
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_EvaluateGpt3);

void BM_EvaluateGpt3Published(benchmark::State& state) {
    const Workload w = gpt3();
    const Cluster c = p4de(128);
    Layout l;
    l.tp = 8;
    l.pp = 8;
    l.dp = 16;
    l.global_batch = 1536;
    l.recompute = Recompute::full;
    for (auto _ : state) {
        const PlanResult r = evaluate(w, c, l, Precision::bf16);
        benchmark::DoNotOptimize(r);
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_EvaluateGpt3Published);

// The same plans with a calibration profile: measured GEMM curve, HBM figure and NVSwitch and
// network all-reduce fits with a 1,000-row raw table (the size of an nccl-tests sweep).
void BM_EvaluateGpt3Calibrated(benchmark::State& state) {
    const Workload w = gpt3();
    const auto layouts = plans();
    std::array<Cluster, 8> clusters{};
    for (std::size_t i = 0; i < layouts.size(); ++i)
        clusters[i] = p4de(layouts[i].devices() / 8);
    CalibrationProfile p;
    p.source = "probe";
    p.gemm.push_back({"bf16", {{1e8, 60}, {1e9, 150}, {1e10, 230}, {1e11, 265}, {1e12, 275}}});
    p.hbm_gbytes_per_s = 1700;
    CollectiveFit intra;
    intra.collective = "all_reduce";
    intra.ranks = 8;
    intra.segments.push_back({0, 1e18, 90e-6, 130e9});
    for (int k = 0; k < 1000; ++k) {
        const double bytes = 1048576.0 * (k + 1);
        intra.raw.push_back({bytes, 90e-6 + bytes / 130e9, 0});
    }
    p.intra_node.push_back(intra);
    CollectiveFit inter = intra;
    inter.ranks = 16;
    inter.nodes = 2;
    p.inter_node.push_back(inter);
    std::size_t i = 0;
    for (auto _ : state) {
        const PlanResult r = evaluate(w, clusters[i], layouts[i], Precision::bf16, &p);
        benchmark::DoNotOptimize(r);
        i = (i + 1) % layouts.size();
    }
    state.SetItemsProcessed(static_cast<int64_t>(state.iterations()));
}
BENCHMARK(BM_EvaluateGpt3Calibrated);

} // namespace
