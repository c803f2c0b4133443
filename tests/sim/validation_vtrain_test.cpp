// Validation against 109 measured Megatron-DeepSpeed iterations on A100 clusters (vTrain,
// MICRO'24, MIT licence): 8 GPUs per node, 800 Gb/s between nodes, full recompute, 1F1B,
// vocabulary 51,200, fp16.
#include "engine_fixtures.h"

#include "clusterplan/sim/step_model.h"

#include <catch2/catch.hpp>

#include <cstdio>

using namespace cp;

TEST_CASE("vTrain multi-node A100 iteration times are reproduced", "[validation]") {
    const auto csv = test::read_csv(std::string(CLUSTERPLAN_VALIDATION_DIR) + "/vtrain_multi_node_a100.csv");
    REQUIRE(csv.size() == 110);
    test::ErrorStats stats;
    int within10 = 0, within20 = 0;
    std::printf("\n%6s %4s %5s %3s %3s %3s %3s %10s %10s %7s\n", "params", "gpus", "batch", "mb", "tp", "dp",
                "pp", "meas. ms", "model ms", "err %");
    for (std::size_t r = 1; r < csv.size(); ++r) {
        const auto& c = csv[r];
        const int gpus = std::stoi(c[1]);
        const sim::Workload w = test::gpt(std::stoi(c[6]), std::stoi(c[4]), std::stoi(c[5]), std::stoi(c[7]));
        const sim::Cluster cluster = test::a100_cluster(gpus / 8, 800);
        sim::Layout l;
        l.global_batch = std::stoi(c[2]);
        l.micro_batch = std::stoi(c[3]);
        l.tp = std::stoi(c[8]);
        l.dp = std::stoi(c[9]);
        l.pp = std::stoi(c[10]);
        l.schedule = sim::Schedule::one_f_one_b;
        l.recompute = sim::Recompute::full;
        l.overlap_dp = false; // Megatron-DeepSpeed all-reduces after the backward pass
        const sim::PlanResult res = sim::evaluate(w, cluster, l, sim::Precision::fp16);
        INFO("row " << r);
        REQUIRE((res.valid() || res.limit == sim::Limit::out_of_memory));
        const double measured_ms = std::stod(c[11]);
        const double model_ms = 1000.0 * res.step_time_s;
        stats.add(model_ms, measured_ms);
        if (std::abs(model_ms - measured_ms) <= 0.1 * measured_ms) ++within10;
        if (std::abs(model_ms - measured_ms) <= 0.2 * measured_ms) ++within20;
        std::printf("%6s %4d %5d %3d %3d %3d %3d %10.1f %10.1f %+7.1f%s\n", c[0].c_str(), gpus, l.global_batch,
                    l.micro_batch, l.tp, l.dp, l.pp, measured_ms, model_ms,
                    100.0 * (model_ms - measured_ms) / measured_ms, res.fits_in_memory ? "" : " (OOM)");
    }
    std::printf("vTrain: n=%d mean |err| %.2f %%, max %.2f %%, %d within 10 %%, %d within 20 %%\n", stats.count,
                stats.mean(), stats.max, within10, within20);
    CHECK(stats.count == 109);
    CHECK(stats.mean() <= 8.0);
    // Six runs are measured 30-50 % slower than any smooth model of their neighbours predicts
    // (3.6B at micro-batch 64 is 2x slower than at 32 with the same work; 39.1B at tp=2 is 1.6x
    // slower than tp=4 with the same per-GPU work). They are reported, not fitted.
    CHECK(within20 >= 100);
}
