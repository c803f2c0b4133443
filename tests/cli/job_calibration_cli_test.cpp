// `clusterplan calibrate import LOG --scenario S.json` end to end: a Megatron log of GPT-3 1.3B
// on one p4d imports, the scenario naming the profile reproduces the log's median step, other
// node counts move by the same factors, and bad logs are refused with nothing stored.
#include "cli_sandbox.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace {

using cp::test::run_cli;
using cp::test::Sandbox;
using nlohmann::json;

std::string job_log(const std::string& name) {
    return std::string(CLUSTERPLAN_TEST_DATA_DIR) + "/job_logs/" + name;
}

const std::string kScenario = job_log("gpt3_1p3b_p4d.json");

// The fixture scenario with some fields replaced, written into the sandbox.
std::string scenario_with(const Sandbox& box, const std::string& file, const json& patch) {
    json sc = json::parse(cp::test::read_bytes(kScenario));
    sc.merge_patch(patch);
    return box.write(file, sc.dump()).string();
}

json simulate_json(const std::string& scenario) {
    const auto r = run_cli({"simulate", "--json", scenario});
    INFO(r.err);
    REQUIRE(r.code == 0);
    return json::parse(r.out);
}

double span(const json& interval) {
    return interval[1].get<double>() / interval[0].get<double>();
}

} // namespace

TEST_CASE("a Megatron log imports, and the scenario naming it reproduces the log's median",
          "[cli][calibrate][job]") {
    Sandbox box;
    const auto r = run_cli({"calibrate", "import", job_log("megatron_gpt3_1p3b_p4d.log"),
                            "--scenario", kScenario, "--name", "gpt3-job", "--json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    CHECK(j["name"] == "gpt3-job");
    CHECK(j["log"]["format"] == "megatron");
    CHECK(j["log"]["steps_used"] == 36);
    const double median = j["measured_step_s"]["median"].get<double>();
    CHECK(j["measured_step_s"]["p10"].get<double>() < median);
    CHECK(j["measured_step_s"]["p90"].get<double>() > median);
    // One node: communication is too small a share to fit, so compute alone moves.
    CHECK(j["factors"]["fit"] == "compute");
    CHECK(j["factors"]["comm_factor"] == 1.0);
    const double factor = j["factors"]["compute_factor"].get<double>();
    CHECK(factor != 1.0);
    CHECK_REL(j["factors"]["compute_time_change_pct"].get<double>(), (factor - 1) * 100, 1e-9);
    CHECK_REL(j["predicted_step_s"]["after"].get<double>(), median, 0.02);

    const auto list = run_cli({"calibrate", "list", "--json"});
    REQUIRE(list.code == 0);
    const json l = json::parse(list.out);
    REQUIRE(l["calibrations"].size() == 1);
    CHECK(l["calibrations"][0]["source"] == "job-log");

    const json before = simulate_json(kScenario);
    const json after = simulate_json(
        scenario_with(box, "calibrated.json", {{"cluster", {{"calibration", "gpt3-job"}}}}));
    CHECK_REL(after["step_time_s"].get<double>(), median, 0.02);
    CHECK(after["validated"] == true);
    CHECK(after["validation"]["basis"] == "job_log");
    // The job's own steps leave a narrower range than the published runs of its bucket.
    CHECK(span(after["step_time_s_interval"]) < span(before["step_time_s_interval"]));

    SECTION("the 8-node plan moves by the same factors") {
        const json eight = {{"cluster", {{"nodes", 8}}}, {"parallel", {{"dp", 64}}}};
        json patch = eight;
        const json plain = simulate_json(scenario_with(box, "eight.json", patch));
        patch["cluster"]["calibration"] = "gpt3-job";
        const json cal = simulate_json(scenario_with(box, "eight_cal.json", patch));
        CHECK_REL(cal["breakdown_s"]["compute"].get<double>(),
                  plain["breakdown_s"]["compute"].get<double>() * factor, 1e-6);
        CHECK_REL(cal["breakdown_s"]["dp_comm_exposed"].get<double>(),
                  plain["breakdown_s"]["dp_comm_exposed"].get<double>(), 1e-6);
        CHECK(cal["validation"]["basis"] == "job_log");
        CHECK(span(cal["step_time_s_interval"]) < span(plain["step_time_s_interval"]));
    }
    SECTION("the text names the factors that changed and the log's spread") {
        const auto t = run_cli({"calibrate", "import", job_log("megatron_gpt3_1p3b_p4d.log"),
                                "--scenario", kScenario});
        INFO(t.err);
        REQUIRE(t.code == 0);
        CHECK_THAT(t.out, Catch::Contains("compute efficiency factor"));
        CHECK_THAT(t.out, Catch::Contains("exposed communication unchanged"));
        CHECK_THAT(t.out, Catch::Contains("median 7.38 s, p10"));
        CHECK_THAT(t.out, Catch::Contains("Stored as calibration 'job-megatron_gpt3_1p3b_p4d'"));
    }
}

TEST_CASE("bad job logs are refused with one sentence, exit 2 and nothing stored",
          "[cli][calibrate][job]") {
    Sandbox box;
    REQUIRE(run_cli({"calibrate", "import", job_log("megatron_gpt3_1p3b_p4d.log"), "--scenario",
                     kScenario, "--name", "kept"})
                .code == 0);
    const std::string stored = box.stored_data();
    const std::string half_batch =
        scenario_with(box, "half.json", {{"parallel", {{"global_batch", 256}}}});
    const std::string bigger =
        scenario_with(box, "big.json",
                      {{"model",
                        {{"layers", 32},
                         {"hidden", 4096},
                         {"heads", 32},
                         {"kv_heads", 32},
                         {"ffn_hidden", 16384}}},
                       {"parallel", {{"micro_batch", 1}, {"recompute", "full"}}}});
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{job_log("no_steps.log"), "--scenario", kScenario}, "no step timing found"},
        {{job_log("mixed_runs.log"), "--scenario", kScenario}, "holds more than one run"},
        {{job_log("mixed_formats.log"), "--scenario", kScenario}, "mixes megatron and nemo"},
        {{job_log("batch_rampup.log"), "--scenario", kScenario}, "global batch size changes"},
        {{job_log("megatron_gpt3_1p3b_p4d.log"), "--scenario", half_batch},
         "ran global batch 512, its scenario has 256"},
        // A 6.7B model would take far longer per step than the 1.3B job logged.
        {{job_log("megatron_gpt3_1p3b_p4d.log"), "--scenario", bigger},
         "does not match its scenario"},
        // A Llama 2 7B NeMo log is faster than a 1.3B model could run at peak on 8 A100s.
        {{job_log("nemo_llama2_7b.log"), "--scenario", kScenario}, "peak FLOP/s"},
        {{job_log("megatron_gpt3_1p3b_p4d.log"), "--scenario", kScenario, "--name", "kept"},
         "already exists"},
        {{job_log("missing.log"), "--scenario", kScenario}, "does not exist"},
    };
    for (const auto& [args, reason] : cases) {
        std::vector<std::string> argv{"calibrate", "import"};
        argv.insert(argv.end(), args.begin(), args.end());
        const auto r = run_cli(argv);
        INFO(args[0] << " " << args[2] << ": " << r.err);
        CHECK(r.code == 2);
        CHECK_THAT(r.err, Catch::Contains(reason));
        CHECK(cp::test::line_count(r.err) == 1);
        CHECK(r.out.empty());
        CHECK(box.stored_data() == stored);
    }
}
