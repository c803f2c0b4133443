// Validation of the Mixture-of-Experts mechanisms (engine/moe.h) against published MoE training
// throughput on DGX-H100 (tests/data/validation/moe_training.csv and README.md): Megatron-Core's
// Mixtral 8x7B reference mapping and Megatron-Bridge's Qwen3-30B-A3B rows. Both run Megatron-Core
// with grouped GEMMs, the all-to-all dispatcher, fused attention, sequence parallelism with tp > 1,
// the distributed optimizer (ZeRO-1) and gradient-reduce overlap, force-balanced routing.
#include "clusterplan/sim/step_model.h"
#include "engine_fixtures.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <map>

using namespace cp;

namespace {

sim::Workload moe_workload(const test::CsvRow& c) {
    sim::Workload w = test::gpt(std::stoi(c[11]), std::stoi(c[12]), std::stoi(c[13]),
                                std::stoi(c[6]), std::stoi(c[15]));
    w.shape.kv_heads = std::stoi(c[14]);
    w.shape.gated_mlp = true;
    w.shape.flash_attention = true;
    w.shape.moe.experts = std::stoi(c[16]);
    w.shape.moe.experts_per_token = std::stoi(c[17]);
    w.shape.moe.shared_experts = std::stoi(c[18]);
    w.shape.moe.moe_ffn_hidden = std::stoi(c[19]);
    w.shape.ffn_hidden = w.shape.moe.moe_ffn_hidden;
    return w;
}

sim::Layout moe_layout(const test::CsvRow& c) {
    sim::Layout l;
    const int gpus = std::stoi(c[2]);
    l.global_batch = std::stoi(c[4]);
    l.micro_batch = std::stoi(c[5]);
    l.tp = std::stoi(c[7]);
    l.pp = std::stoi(c[8]);
    l.dp = gpus / (l.tp * l.pp);
    l.virtual_stages = std::stoi(c[9]);
    l.schedule = l.virtual_stages > 1 ? sim::Schedule::interleaved : sim::Schedule::one_f_one_b;
    l.ep = std::stoi(c[10]);
    l.sequence_parallel = l.tp > 1;
    l.zero = 1;
    l.recompute = sim::Recompute::none;
    return l;
}

} // namespace

TEST_CASE("published MoE training throughput on DGX-H100 is reproduced", "[validation][moe]") {
    const auto csv = test::read_csv(std::string(CLUSTERPLAN_VALIDATION_DIR) + "/moe_training.csv");
    REQUIRE(csv.size() >= 4);
    std::map<std::string, test::ErrorStats> by_source;
    test::ErrorStats all;
    int refused = 0;
    std::printf("\n%-24s %-14s %4s %4s %3s %3s %3s %3s %10s %10s %7s\n", "source", "model", "gpus",
                "prec", "tp", "pp", "vp", "ep", "published", "model", "err %");
    for (std::size_t r = 1; r < csv.size(); ++r) {
        const auto& c = csv[r];
        const sim::Workload w = moe_workload(c);
        const sim::Layout l = moe_layout(c);
        const int gpus = std::stoi(c[2]);
        const sim::Precision precision = c[3] == "fp8" ? sim::Precision::fp8 : sim::Precision::bf16;
        const sim::PlanResult res = sim::evaluate(w, test::h100_cluster(gpus / 8), l, precision);
        INFO("row " << r << " " << c[1] << " limit " << static_cast<int>(res.limit) << " memory "
                    << res.memory_gib.total);
        // Throughput is computed for plans the memory model refuses too; they are counted.
        REQUIRE((res.valid() || res.limit == sim::Limit::out_of_memory));
        if (!res.valid()) ++refused;
        const double published = std::stod(c[21]);
        const double model =
            c[20] == "model_tflops_per_gpu" ? res.model_tflops_per_device : res.tokens_per_s / gpus;
        by_source[c[0]].add(model, published);
        all.add(model, published);
        std::printf(
            "%-24s %-14s %4d %4s %3d %3d %3d %3d %10.0f %10.0f %+7.1f   (a2a %.0f%% of step)\n",
            c[0].c_str(), c[1].c_str(), gpus, c[3].c_str(), l.tp, l.pp, l.virtual_stages, l.ep,
            published, model, 100.0 * (model - published) / published,
            100.0 * res.breakdown_s.ep_comm_s / res.step_time_s);
    }
    for (const auto& [source, s] : by_source)
        std::printf("  %-24s n=%d mean |err| %.1f %%, max %.1f %%\n", source.c_str(), s.count,
                    s.mean(), s.max);
    std::printf("MoE throughput: n=%d mean |err| %.1f %%, max %.1f %%\n", all.count, all.mean(),
                all.max);
    std::printf("runs the memory model would refuse: %d of %d\n", refused, all.count);
    // Megatron-Core's Mixtral 8x7B mapping: +4.6 %. Megatron-Bridge's Qwen3-30B-A3B rows run at
    // 12 % MFU and the model predicts ~3x their throughput (known shortfall, README): per-layer
    // host synchronisation of the dropless dispatcher, FP8 casting and 128-wide attention heads
    // (modelled 64-wide) are not modelled. Bounds guard against regressions.
    CHECK(by_source["mcore-0.8-moe-readme"].mean() <= 15.0);
    CHECK(all.max <= 250.0);
}
