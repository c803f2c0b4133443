// Validation against vTrain's 1,440 single-node Megatron-DeepSpeed iterations on A100 (MIT
// licence; tests/data/validation/README.md): small GPT layers (hidden 1024/2048, sequence 1024)
// at micro-batches 1-8, where the host issuing kernels, not the GPU, sets the pace.
#include "clusterplan/sim/step_model.h"
#include "engine_fixtures.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <map>
#include <vector>

using namespace cp;

namespace {

struct Run {
    sim::Workload workload;
    sim::Cluster cluster;
    sim::Layout layout;
    double measured_ms = 0;
};

std::vector<Run> vtrain_runs() {
    const auto csv =
        test::read_csv(std::string(CLUSTERPLAN_VALIDATION_DIR) + "/vtrain_single_node_a100.csv");
    std::vector<Run> runs;
    for (std::size_t r = 1; r < csv.size(); ++r) {
        const auto& c = csv[r];
        Run run;
        run.workload =
            test::gpt(std::stoi(c[5]), std::stoi(c[3]), std::stoi(c[4]), std::stoi(c[6]));
        run.cluster = test::a100_cluster(1, 800);
        run.cluster.node.accelerators_per_node = std::stoi(c[0]);
        run.layout = test::vtrain_layout(c, 1);
        run.measured_ms = std::stod(c[10]);
        runs.push_back(run);
    }
    return runs;
}

// These runs fitted the host-issue floor with the compute rates at the framework efficiency of 1
// (before framework factors existed); they check that mechanism, so they are evaluated there
// rather than with a factor fitted on other runs.
sim::PlanResult predict(const Run& run, const sim::HostIssue& host) {
    sim::Cluster cluster = run.cluster;
    cluster.node.accelerator.host_issue = host;
    return sim::evaluate_with_efficiency(run.workload, cluster, run.layout, sim::Precision::fp16,
                                         nullptr, 1.0);
}

// Mean |error| % over the runs whose tp is (or, with leave_out, is not) `tp`; tp 0 = all.
double mean_error(const std::vector<Run>& runs, const sim::HostIssue& host, int tp,
                  bool leave_out) {
    test::ErrorStats s;
    for (const Run& run : runs) {
        if (tp != 0 && (run.layout.tp == tp) == leave_out) continue;
        s.add(1000.0 * predict(run, host).step_time_s, run.measured_ms);
    }
    return s.mean();
}

// Grid search of the two host-issue constants (a 0.0125 ms by 0.5 grid; the error surface is
// not smooth enough for a gradient fit: each run switches between host- and GPU-bound).
sim::HostIssue fit_host_issue(const std::vector<Run>& runs, int left_out_tp) {
    sim::HostIssue best;
    double best_err = 1e300;
    for (double pass_ms = 0.800; pass_ms <= 0.9501; pass_ms += 0.0125)
        for (double exponent = 2.0; exponent <= 8.01; exponent += 0.5) {
            const sim::HostIssue h{pass_ms * 1e-3, exponent};
            const double err = mean_error(runs, h, left_out_tp, left_out_tp != 0);
            if (err < best_err) {
                best_err = err;
                best = h;
            }
        }
    return best;
}

} // namespace

TEST_CASE("vTrain single-node A100 iteration times are reproduced", "[validation]") {
    const std::vector<Run> runs = vtrain_runs();
    REQUIRE(runs.size() == 1440);
    test::ErrorStats stats;
    std::map<int, test::ErrorStats> by_tp;
    int within10 = 0, within20 = 0;
    double host_bound = 0;
    for (std::size_t r = 0; r < runs.size(); ++r) {
        const Run& run = runs[r];
        const sim::PlanResult res = predict(run, sim::HostIssue{});
        INFO("row " << r + 1);
        REQUIRE(res.valid());
        const double measured_ms = run.measured_ms;
        const double model_ms = 1000.0 * res.step_time_s;
        stats.add(model_ms, measured_ms);
        by_tp[run.layout.tp].add(model_ms, measured_ms);
        if (std::abs(model_ms - measured_ms) <= 0.1 * measured_ms) ++within10;
        if (std::abs(model_ms - measured_ms) <= 0.2 * measured_ms) ++within20;
        host_bound += res.breakdown_s.host_overhead_s > 0.05 * res.step_time_s ? 1 : 0;
    }
    for (const auto& [tp, s] : by_tp)
        std::printf("vTrain single-node tp=%d: n=%d mean |err| %.2f %%, max %.2f %%\n", tp, s.count,
                    s.mean(), s.max);
    std::printf("vTrain single-node: n=%d mean |err| %.2f %%, max %.2f %%, %d within 10 %%, %d "
                "within 20 %%, %.0f waiting > 5 %% of the step for the host\n",
                stats.count, stats.mean(), stats.max, within10, within20, host_bound);
    CHECK(stats.count == 1440);
    // vTrain reports 8.37 % mean on these runs with per-kernel CUPTI profiles of the real GPU;
    // without the host-issue floor this model was 31.8 % mean (84 % max), too fast throughout;
    // with a hard max(host, GPU) per layer 8.08 %.
    CHECK(stats.mean() <= 7.5);
    // tp=8 is the weak spot (~20 % too fast on average): its measured per-layer floor is ~30 %
    // above tp 1-4's, which no per-call NCCL cost reproduces without breaking tp 2 and 4.
    CHECK(stats.max <= 35.0);
    CHECK(within20 >= 1250);
}

TEST_CASE("the host-issue constants are the fit over the vTrain runs", "[validation]") {
    const std::vector<Run> runs = vtrain_runs();
    const sim::HostIssue fitted = fit_host_issue(runs, 0);
    const sim::HostIssue engine{};
    std::printf("host issue per layer pass: fitted %.4f ms, engine %.4f ms; overlap exponent: "
                "fitted %.1f, engine %.1f\n",
                1e3 * fitted.per_layer_pass_s, 1e3 * engine.per_layer_pass_s,
                fitted.overlap_exponent, engine.overlap_exponent);
    CHECK(std::abs(fitted.per_layer_pass_s - engine.per_layer_pass_s) <= 0.0126e-3);
    CHECK(std::abs(fitted.overlap_exponent - engine.overlap_exponent) <= 0.51);
    // Each tensor-parallel degree left out of the fit and predicted with the others' constants.
    test::ErrorStats groups;
    for (const int tp : {1, 2, 4, 8}) {
        const sim::HostIssue h = fit_host_issue(runs, tp);
        const double err = mean_error(runs, h, tp, false);
        std::printf("  leave out tp=%d: fit %.4f ms, exponent %.1f -> its mean |err| %.2f %%\n", tp,
                    1e3 * h.per_layer_pass_s, h.overlap_exponent, err);
        groups.sum += err;
        ++groups.count;
    }
    std::printf("vTrain single-node, leave-one-tp-out: mean over groups %.2f %%\n", groups.mean());
    CHECK(groups.mean() <= 11.0);
}
