// Calibrating from the user's own job: a Megatron log of GPT-3 1.3B on one 8 x A100 node
// reproduces its median step once imported, and the 8-node plan moves by the same factors.
#include "calibration_test_util.h"
#include "clusterplan/sim/calibration_profile_json.h"
#include "clusterplan/sim/job_calibration.h"
#include "clusterplan/sim/plan_interval.h"
#include "engine_fixtures.h"
#include "tolerance.h"

#include <catch2/catch.hpp>

using namespace cp::sim;
using cp::test::read_text;

namespace {

Workload gpt3_1p3b() {
    return cp::test::gpt(24, 2048, 16);
}

Layout data_parallel(int dp) {
    Layout l;
    l.dp = dp;
    l.micro_batch = 4;
    l.global_batch = 512;
    l.zero = 1;
    return l;
}

CalibrationProfile imported(const JobLog& log, const PlanResult& predicted) {
    JobRun run = make_job_run("megatron_gpt3_1p3b_p4d.log", log, predicted, 512, 2048, 8);
    run.nodes = 1;
    run.instance_type = "p4d.24xlarge";
    CalibrationProfile p;
    p.name = "job-gpt3-1.3b";
    p.source = "job-log";
    p.accelerator = "A100-80GB";
    p.job = fit_job_calibration({run});
    return p;
}

JobLog megatron_log() {
    const std::string name = "megatron_gpt3_1p3b_p4d.log";
    return parse_job_log(read_text(std::string(CLUSTERPLAN_TEST_DATA_DIR) + "/job_logs/" + name),
                         name);
}

} // namespace

TEST_CASE("A Megatron log of GPT-3 1.3B on one node calibrates its own scenario within 2 %") {
    const auto one = cp::test::a100_cluster(1, 400);
    const PlanResult before = evaluate(gpt3_1p3b(), one, data_parallel(8), Precision::bf16);
    REQUIRE(before.valid());
    const JobLog log = megatron_log();
    const CalibrationProfile profile = imported(log, before);
    INFO("predicted " << before.step_time_s << " s, factor " << profile.job.compute_factor);
    CHECK(profile.job.fit == "compute"); // one node: little exposed communication
    CHECK(profile.job.comm_factor == 1.0);

    const PlanResult after =
        evaluate(gpt3_1p3b(), one, data_parallel(8), Precision::bf16, &profile);
    CHECK(after.calibration_used.job);
    CHECK_REL(after.step_time_s, summarize_job_log(log).median, 0.02);
    CHECK_REL(after.samples_per_s * after.step_time_s, 512.0, 1e-9);
    CHECK_REL(after.mfu / before.mfu, before.step_time_s / after.step_time_s, 1e-9);

    SECTION("the 8-node plan moves by the same factors") {
        const auto eight = cp::test::a100_cluster(8, 400);
        const PlanResult p8 = evaluate(gpt3_1p3b(), eight, data_parallel(64), Precision::bf16);
        const PlanResult c8 =
            evaluate(gpt3_1p3b(), eight, data_parallel(64), Precision::bf16, &profile);
        REQUIRE(p8.valid());
        const double f = profile.job.compute_factor;
        CHECK_REL(c8.breakdown_s.compute_s, p8.breakdown_s.compute_s * f, 1e-9);
        CHECK_REL(c8.breakdown_s.dp_comm_exposed_s + 1e-12,
                  p8.breakdown_s.dp_comm_exposed_s + 1e-12, 1e-9);
        const double compute_like = p8.breakdown_s.compute_s + p8.breakdown_s.recompute_s +
                                    p8.breakdown_s.pp_bubble_s + p8.breakdown_s.host_overhead_s;
        CHECK_REL(c8.step_time_s, p8.step_time_s + (f - 1) * compute_like, 1e-9);
    }
}

TEST_CASE("A log that does not match its scenario is refused") {
    const auto one = cp::test::a100_cluster(1, 400);
    const JobLog log = megatron_log();
    Layout half = data_parallel(8);
    half.global_batch = 256;
    const PlanResult p = evaluate(gpt3_1p3b(), one, half, Precision::bf16);
    CHECK_THROWS_WITH(make_job_run("x.log", log, p, 256, 2048, 8),
                      Catch::Contains("ran global batch 512, its scenario has 256"));
    // A 6.7B model's prediction is far from the 1.3B log: taken for another job.
    Layout fitted = data_parallel(8);
    fitted.micro_batch = 1;
    fitted.recompute = Recompute::full;
    const PlanResult big = evaluate(cp::test::gpt(32, 4096, 32), one, fitted, Precision::bf16);
    REQUIRE(big.valid());
    CHECK_THROWS_WITH(make_job_run("x.log", log, big, 512, 2048, 8),
                      Catch::Contains("does not match its scenario"));
}

TEST_CASE("Runs with different communication shares fit both factors") {
    JobRun a; // compute-bound run measured 20 % slow
    a.predicted_step_s = 10;
    a.predicted_compute_s = 9;
    a.predicted_comm_s = 0.5;
    a.measured_step_s = 9 * 1.2 + 0.5 * 1.5 + 0.5;
    JobRun b = a; // communication-heavy run
    b.predicted_compute_s = 5;
    b.predicted_comm_s = 4.5;
    b.measured_step_s = 5 * 1.2 + 4.5 * 1.5 + 0.5;
    const JobCalibration job = fit_job_calibration({a, b});
    CHECK(job.fit == "separate");
    CHECK_REL(job.compute_factor, 1.2, 1e-9);
    CHECK_REL(job.comm_factor, 1.5, 1e-9);
    const JobCalibration one = fit_job_calibration({b});
    CHECK(one.fit == "tied");
    CHECK(one.compute_factor == one.comm_factor);
    CHECK(describe_job_calibration(job).size() == 3);
}

TEST_CASE("A job calibration survives the profile's JSON") {
    const auto one = cp::test::a100_cluster(1, 400);
    const PlanResult before = evaluate(gpt3_1p3b(), one, data_parallel(8), Precision::bf16);
    const CalibrationProfile p = imported(megatron_log(), before);
    const CalibrationProfile back = profile_from_json(profile_to_json(p), "test");
    CHECK(back.job.compute_factor == p.job.compute_factor);
    CHECK(back.job.fit == "compute");
    REQUIRE(back.job.runs.size() == 1);
    CHECK(back.job.runs[0].format == "megatron");
    CHECK(back.job.runs[0].steps_used == 36);
    auto bad = profile_to_json(p);
    bad["job"]["compute_factor"] = -1;
    CHECK_THROWS_WITH(profile_from_json(bad, "stored"),
                      Catch::Contains("field 'job.compute_factor' must be a positive number"));
}

TEST_CASE("A job calibration narrows the range of GPT-3 1.3B on p4d and holds the log's median") {
    const auto one = cp::test::a100_cluster(1, 400);
    const AcceleratorSpec& a100 = one.node.accelerator;
    const Layout layout = data_parallel(8);
    const PlanResult plain = evaluate(gpt3_1p3b(), one, layout, Precision::bf16);
    const JobLog log = megatron_log();
    const CalibrationProfile profile = imported(log, plain);
    const PlanResult cal = evaluate(gpt3_1p3b(), one, layout, Precision::bf16, &profile);
    const PredictionInterval before = plan_interval(plain, layout, a100, nullptr);
    const PredictionInterval after = plan_interval(cal, layout, a100, &profile);
    const FigureRange r_before = time_range(plain.step_time_s, before);
    const FigureRange r_after = time_range(cal.step_time_s, after);
    const double median = summarize_job_log(log).median;
    INFO("uncalibrated " << r_before.low << "-" << r_before.high << " s, calibrated " << r_after.low
                         << "-" << r_after.high << " s, log median " << median);
    CHECK(after.basis == IntervalBasis::job_log);
    CHECK(after.validated);
    CHECK(after.high_factor / after.low_factor < before.high_factor / before.low_factor);
    CHECK(r_after.low <= median);
    CHECK(median <= r_after.high);

    SECTION("on 8 nodes the unmeasured communication keeps its share of the bucket's range") {
        const auto eight = cp::test::a100_cluster(8, 400);
        const Layout wide = data_parallel(64);
        const PlanResult p8 = evaluate(gpt3_1p3b(), eight, wide, Precision::bf16);
        const PlanResult c8 = evaluate(gpt3_1p3b(), eight, wide, Precision::bf16, &profile);
        const PredictionInterval b8 = plan_interval(p8, wide, a100, nullptr);
        const PredictionInterval a8 = plan_interval(c8, wide, a100, &profile);
        INFO("exposed communication share " << exposed_comm_s(c8.breakdown_s) / c8.step_time_s);
        CHECK(a8.high_factor / a8.low_factor < b8.high_factor / b8.low_factor);
        CHECK(a8.high_factor / a8.low_factor >= after.high_factor / after.low_factor);
    }
}
