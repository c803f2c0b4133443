// Job logs of every supported framework, in their real line formats with warm-up steps, and
// the logs that must be refused (no steps, two runs, two formats, a batch ramp, bad values).
#include "calibration_test_util.h"
#include "clusterplan/sim/job_log.h"
#include "tolerance.h"

#include <catch2/catch.hpp>

using namespace cp::sim;
using cp::test::read_text;

namespace {
std::string job_log(const std::string& name) {
    return read_text(std::string(CLUSTERPLAN_TEST_DATA_DIR) + "/job_logs/" + name);
}
JobLog parse(const std::string& name) {
    return parse_job_log(job_log(name), name);
}
} // namespace

TEST_CASE("Megatron log: step times in seconds, global batch, warm-up skipped") {
    const JobLog log = parse("megatron_gpt3_1p3b_p4d.log");
    CHECK(log.format == JobLogFormat::megatron);
    CHECK(log.measure == JobLogMeasure::step_time_s);
    REQUIRE(log.samples.size() == 40);
    CHECK(log.samples.front().step == 10);
    CHECK(log.samples.back().step == 400);
    CHECK_REL(log.samples.front().value, 22.2, 1e-9); // first interval: 3x slower warm-up
    REQUIRE(log.global_batch);
    CHECK(*log.global_batch == 512);
    const JobLogSummary s = summarize_job_log(log);
    CHECK(s.steps_skipped == 4); // 10 % of 40
    CHECK(s.steps_used == 36);
    CHECK_REL(s.median, 7.40, 0.01); // the warm-up does not move the median
    CHECK(s.p10 < s.median);
    CHECK(s.p90 > s.median);
    CHECK(s.p90 < 7.40 * 1.04);
}

TEST_CASE("NeMo, DeepSpeed, torchtitan, HF Trainer and CSV logs parse to their measure") {
    const JobLog nemo = parse("nemo_llama2_7b.log");
    CHECK(nemo.format == JobLogFormat::nemo);
    CHECK(nemo.samples.size() == 30);
    CHECK_REL(summarize_job_log(nemo).median, 2.93, 0.01);

    const JobLog ds = parse("deepspeed_bert_large.log");
    CHECK(ds.format == JobLogFormat::deepspeed);
    CHECK(ds.measure == JobLogMeasure::samples_per_s);
    CHECK(ds.samples.size() == 25);
    CHECK_REL(summarize_job_log(ds).median, 212.3, 0.01);

    const JobLog titan = parse("torchtitan_llama3_8b.log"); // colour codes, "5,432" with a comma
    CHECK(titan.format == JobLogFormat::torchtitan);
    CHECK(titan.measure == JobLogMeasure::tokens_per_s_per_device);
    CHECK(titan.samples.size() == 30);
    CHECK_REL(summarize_job_log(titan).median, 5432, 0.01);

    const JobLog hf = parse("hf_trainer_tqdm.log"); // carriage-return redraws are separate steps
    CHECK(hf.format == JobLogFormat::hf_trainer);
    CHECK(hf.measure == JobLogMeasure::step_time_s);
    CHECK(hf.samples.size() == 60);
    CHECK_FALSE(hf.summary_only);
    CHECK_REL(summarize_job_log(hf).median, 1.84, 0.015);

    const JobLog only = parse("hf_trainer_summary_only.log");
    CHECK(only.summary_only);
    CHECK(only.measure == JobLogMeasure::samples_per_s);
    CHECK_REL(summarize_job_log(only).median, 8.69, 1e-9);

    const JobLog csv = parse("steps.csv");
    CHECK(csv.format == JobLogFormat::csv);
    CHECK(csv.samples.size() == 50);
    CHECK_REL(summarize_job_log(csv).median, 0.412, 0.01);
}

TEST_CASE("Logs that cannot calibrate anything are refused with the reason") {
    const auto refused = [](const std::string& name, const std::string& reason) {
        INFO(name);
        try {
            parse(name);
            FAIL("accepted");
        } catch (const JobLogError& e) {
            const std::string what = e.what();
            INFO(what);
            CHECK(what.find(name) == 0);
            CHECK(what.find(reason) != std::string::npos);
        }
    };
    refused("no_steps.log", "no step timing found");
    refused("mixed_runs.log", "more than one run");
    refused("mixed_formats.log", "mixes megatron and nemo");
    refused("batch_rampup.log", "global batch size changes from 256 to 512");
    refused("negative_time.csv", "impossible step time");
    CHECK_THROWS_AS(parse_job_log("", "empty.log"), JobLogError);
    CHECK_THROWS_AS(parse_job_log("step,step_time_s\n", "header.csv"), JobLogError);
}

TEST_CASE("A short log keeps at least three steps after the warm-up") {
    JobLog log;
    for (long i = 1; i <= 4; ++i)
        log.samples.push_back({i, i == 1 ? 9.0 : 1.0});
    const JobLogSummary s = summarize_job_log(log);
    CHECK(s.steps_used == 3);
    CHECK(s.steps_skipped == 1);
    CHECK(s.median == 1.0);
}
