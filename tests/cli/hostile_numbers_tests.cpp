// Numbers that are each in range but overflow together, or that overflow what is printed:
// micro_batch × dp beyond int (SIGFPE from `% 0`), training lengths and prices near DBL_MAX
// (printed as $-9,223,372,036,854,775,808), a hidden size whose 4× FFN default overflows int, and
// measured rates of zero (inf s compute, NaN bubble, "valid": true). Each is a range error, exit 2.
#include "bad_input_support.h"

namespace {

using namespace cp::test;
using json = nlohmann::json;
namespace fs = std::filesystem;

std::vector<Case> overflow_cases() {
    return {
        scenario_case(
            "micro_batch × dp overflows int (was SIGFPE)",
            [](json& d) {
                d["parallel"] = {{"micro_batch", 65536}, {"dp", 65536}, {"global_batch", 67108864}};
            },
            {"global_batch"}),
        scenario_case("micro_batch × dp × tp beyond the device count",
                      [](json& d) {
                          d["parallel"] = {{"micro_batch", 1},
                                           {"dp", 1048576},
                                           {"tp", 4096},
                                           {"global_batch", 67108864}};
                      },
                      {"parallel"}),
        // Custom hardware rates divide every time: 1e-300 printed a step time of 300 digits.
        scenario_case("inter-node link 1e-300 Gbps",
                      [](json& d) {
                          d["cluster"]["custom"] = {{"inter_node_gbps", 1e-300}};
                      },
                      {"inter_node_gbps", "at least 0.01"}),
        scenario_case("intra-node link 1e-300 GB/s",
                      [](json& d) {
                          d["cluster"]["custom"] = {{"intra_node_gbytes_per_s", 1e-300}};
                      },
                      {"intra_node_gbytes_per_s"}),
        scenario_case("memory bandwidth 1e-300 GB/s",
                      [](json& d) {
                          d["cluster"]["custom"] = {{"hbm_gbytes_per_s", 1e-300}};
                      },
                      {"hbm_gbytes_per_s"}),
        scenario_case("peak 1e-300 TFLOP/s",
                      [](json& d) {
                          d["cluster"]["custom"] = {{"peak_tflops", {{"bf16", 1e-300}}}};
                      },
                      {"peak_tflops.bf16"}),
        scenario_case("peak 1e308 TFLOP/s",
                      [](json& d) {
                          d["cluster"]["custom"] = {{"peak_tflops", {{"bf16", 1e308}}}};
                      },
                      {"peak_tflops.bf16", "at most"}),
        scenario_case("device memory 1e308 GiB",
                      [](json& d) {
                          d["cluster"]["custom"] = {{"memory_gib", 1e308}};
                      },
                      {"memory_gib"}),
        scenario_case("tokens 1e308", [](json& d) { d["training"]["tokens"] = 1e308; }, {"tokens"}),
        scenario_case("samples 1e300",
                      [](json& d) {
                          d["training"] = {{"samples", 1e300}};
                      },
                      {"samples"}),
        scenario_case("price 1e20 per node-hour",
                      [](json& d) {
                          d["cluster"]["custom"] = {{"usd_per_node_hour", 1e20}};
                      },
                      {"usd_per_node_hour"}),
        scenario_case(
            "hidden 2^29 (4 × hidden overflowed int)",
            [](json& d) {
                d["model"] = {{"preset", "llama3-8b"}, {"hidden", 536870912}, {"heads", 32}};
            },
            {"hidden"}),
        scenario_case("ffn_hidden 2^30", [](json& d) { d["model"]["ffn_hidden"] = 1073741824; },
                      {"ffn_hidden"}),
        scenario_case("seq_len 2^30", [](json& d) { d["model"]["seq_len"] = 1073741824; },
                      {"seq_len"}),
        scenario_case("budget 1e300",
                      [](json& d) {
                          d["constraints"] = {{"budget_usd", 1e300}};
                      },
                      {"budget_usd"}),
        scenario_case("deadline 1e300 hours",
                      [](json& d) {
                          d["constraints"] = {{"deadline_hours", 1e300}};
                      },
                      {"deadline_hours"}),
        scenario_case("restart 1e300 s",
                      [](json& d) {
                          d["spot"] = {{"restart_s", 1e300}};
                      },
                      {"restart_s"}),
    };
}

} // namespace

TEST_CASE("numbers that overflow together are range errors, not crashes",
          "[cli][bad-input][numbers]") {
    Sandbox box;
    REQUIRE(run_cli({"catalog", "list"}).code == 0);
    for (const Case& c : overflow_cases()) {
        expect_rejected(box, c, {"simulate", "{file}"});
        expect_rejected(box, c, {"recommend", "{file}", "--json"});
    }
}

TEST_CASE("the SIGFPE layout exits 2 through the real binary, report included",
          "[cli][bad-input][numbers][binary]") {
    Sandbox box;
    const std::string app = CLUSTERPLAN_APP_BINARY;
    REQUIRE(run_program(app, {"catalog", "list"}, box.files_dir()).code == 0);
    json doc = base_scenario();
    doc["parallel"] = {{"micro_batch", 65536}, {"dp", 65536}, {"global_batch", 67108864}};
    const fs::path file = box.write("fpe.json", doc.dump());
    std::vector<std::vector<std::string>> commands = {
        {"simulate", file.string()}, {"sweep", file.string()}, {"recommend", file.string()}};
#ifdef CLUSTERPLAN_APP_HAS_REPORT
    commands.push_back({"report", file.string(), "--out", (box.files_dir() / "r.md").string()});
#endif
    for (const auto& argv : commands) {
        const CliResult r = run_program(app, argv, box.data_dir());
        INFO(argv[0] << ": exit " << r.code << ", stderr: " << r.err);
        CHECK(r.code == 2);
        CHECK(line_count(r.err) == 1);
        CHECK(r.err.find("global_batch") != std::string::npos);
    }
}

TEST_CASE("measured rates of zero or beyond range are refused at import",
          "[cli][bad-input][numbers]") {
    Sandbox box;
    REQUIRE(run_cli({"catalog", "list"}).code == 0);
    const std::string probe =
        read_bytes(fs::path(CLUSTERPLAN_TEST_DATA_DIR) / "calibration/probe_a100x8_example.json");
    const std::vector<Case> cases = {
        {"GEMM 0 TFLOP/s (gave compute inf s)",
         "gemm-zero.json",
         with(probe, "\"tflops\": 8.775", "\"tflops\": 0"),
         {"tflops"}},
        {"GEMM 1e308 TFLOP/s",
         "gemm-huge.json",
         with(probe, "\"tflops\": 8.775", "\"tflops\": 1e308"),
         {"tflops"}},
        {"GEMM time 0 s",
         "gemm-time-zero.json",
         with(probe, "\"time_s\": 0.00024472748125356123", "\"time_s\": 0"),
         {"time_s"}},
    };
    for (const Case& c : cases)
        expect_rejected(box, c, {"calibrate", "import", "{file}"});
}
