// Validation against vTrain's 1,440 single-node Megatron-DeepSpeed iterations on A100 (MIT
// licence; tests/data/validation/README.md): small GPT layers (hidden 1024/2048, sequence 1024)
// at micro-batches 1-8, where the host issuing kernels, not the GPU, sets the pace.
#include "clusterplan/sim/step_model.h"
#include "engine_fixtures.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <map>

using namespace cp;

TEST_CASE("vTrain single-node A100 iteration times are reproduced", "[validation]") {
    const auto csv =
        test::read_csv(std::string(CLUSTERPLAN_VALIDATION_DIR) + "/vtrain_single_node_a100.csv");
    REQUIRE(csv.size() == 1441);
    test::ErrorStats stats;
    std::map<int, test::ErrorStats> by_tp;
    int within10 = 0, within20 = 0;
    double host_bound = 0;
    for (std::size_t r = 1; r < csv.size(); ++r) {
        const auto& c = csv[r];
        const int gpus = std::stoi(c[0]);
        const sim::Workload w =
            test::gpt(std::stoi(c[5]), std::stoi(c[3]), std::stoi(c[4]), std::stoi(c[6]));
        sim::Cluster cluster = test::a100_cluster(1, 800);
        cluster.node.accelerators_per_node = gpus;
        const sim::Layout l = test::vtrain_layout(c, 1);
        // These runs fitted the host-issue floor with the compute rates at the framework
        // efficiency of 1 (before framework factors existed); they check that mechanism, so they
        // are evaluated there rather than with a factor fitted on other runs.
        const sim::PlanResult res =
            sim::evaluate_with_efficiency(w, cluster, l, sim::Precision::fp16, nullptr, 1.0);
        INFO("row " << r);
        REQUIRE(res.valid());
        const double measured_ms = std::stod(c[10]);
        const double model_ms = 1000.0 * res.step_time_s;
        stats.add(model_ms, measured_ms);
        by_tp[l.tp].add(model_ms, measured_ms);
        if (std::abs(model_ms - measured_ms) <= 0.1 * measured_ms) ++within10;
        if (std::abs(model_ms - measured_ms) <= 0.2 * measured_ms) ++within20;
        host_bound += res.breakdown_s.host_overhead_s > 0 ? 1 : 0;
    }
    for (const auto& [tp, s] : by_tp)
        std::printf("vTrain single-node tp=%d: n=%d mean |err| %.2f %%, max %.2f %%\n", tp, s.count,
                    s.mean(), s.max);
    std::printf("vTrain single-node: n=%d mean |err| %.2f %%, max %.2f %%, %d within 10 %%, %d "
                "within 20 %%, "
                "%.0f host-bound\n",
                stats.count, stats.mean(), stats.max, within10, within20, host_bound);
    CHECK(stats.count == 1440);
    // vTrain reports 8.37 % mean on these runs with per-kernel CUPTI profiles of the real GPU;
    // without the host-issue floor this model was 31.8 % mean (84 % max), too fast throughout.
    CHECK(stats.mean() <= 9.0);
    // tp=8 is the weak spot (~22 % too fast on average): its measured per-layer floor is ~30 %
    // above tp 1-4's, which no per-call NCCL cost reproduces without breaking tp 2 and 4.
    CHECK(stats.max <= 35.0);
    CHECK(within20 >= 1250);
}
