// The bad-input table (issue 7): for every CLI command that reads a file, hostile inputs -
// empty, truncated, huge numbers, NaN/Inf, negative sizes, zero nodes, unknown fields, wrong
// types, non-UTF-8, a 100 MB file - must each give exit code 2, ONE line on stderr that names
// the file (and the field where there is one), and leave everything stored unchanged.
#include "bad_input_support.h"

#include <string>
#include <tuple>
#include <vector>

namespace {

using cp::test::base_scenario;
using cp::test::Case;
using cp::test::CliResult;
using cp::test::expect_rejected;
using cp::test::read_bytes;
using cp::test::run_cli;
using cp::test::Sandbox;
using cp::test::scenario_case;
using cp::test::source_file;
using cp::test::with;
using json = nlohmann::json;
namespace fs = std::filesystem;

constexpr std::size_t k100MB = 100u * 1024u * 1024u;

std::vector<Case> scenario_cases() {
    const std::string base = base_scenario().dump(2);
    std::vector<Case> cases = {
        {"empty file", "empty.json", "", {}},
        {"whitespace only", "blank.json", " \n\t\n", {}},
        {"truncated", "truncated.json", base.substr(0, base.size() / 2), {}},
        {"binary garbage",
         "garbage.json",
         std::string("\x7f"
                     "ELF\x02\x01\x01\0\0\xff\xfe",
                     11),
         {}},
        {"non-UTF-8 in a string",
         "latin1.json",
         with(base, "bad-input baseline", "caf\xe9 \xff"),
         {}},
        {"a JSON array", "array.json", "[1, 2, 3]", {}},
        {"number overflow 1e999", "overflow.json", with(base, "1000000000.0", "1e999"), {}},
        {"NaN literal", "nan-literal.json", with(base, "1000000000.0", "NaN"), {}},
        {"Infinity literal", "inf-literal.json", with(base, "1000000000.0", "Infinity"), {}},
    };
    const std::vector<Case> edits = {
        scenario_case("unknown top-level field", [](json& d) { d["modle"] = json::object(); },
                      {"modle"}),
        scenario_case("unknown model field", [](json& d) { d["model"]["layer"] = 12; }, {"layer"}),
        scenario_case("tp as a string", [](json& d) { d["parallel"]["tp"] = "8"; }, {"tp"}),
        scenario_case("nodes as a boolean", [](json& d) { d["cluster"]["nodes"] = true; },
                      {"nodes"}),
        scenario_case("fractional layers", [](json& d) { d["model"]["layers"] = 12.5; },
                      {"layers"}),
        scenario_case("tokens as the string NaN", [](json& d) { d["training"]["tokens"] = "NaN"; },
                      {"tokens"}),
        scenario_case("huge node count", [](json& d) { d["cluster"]["nodes"] = 1e12; }, {"nodes"}),
        scenario_case("huge layer count", [](json& d) { d["model"]["layers"] = 1e300; },
                      {"layers"}),
        scenario_case("huge global batch", [](json& d) { d["parallel"]["global_batch"] = 9.3e18; },
                      {"global_batch"}),
        scenario_case("negative hidden size", [](json& d) { d["model"]["hidden"] = -4096; },
                      {"hidden"}),
        scenario_case("negative token count", [](json& d) { d["training"]["tokens"] = -1e9; },
                      {"tokens"}),
        scenario_case("negative restart time",
                      [](json& d) {
                          d["spot"] = {{"restart_s", -600}};
                      },
                      {"restart_s"}),
        scenario_case("negative budget",
                      [](json& d) {
                          d["constraints"] = {{"budget_usd", -5}};
                      },
                      {"budget_usd"}),
        scenario_case("zero nodes", [](json& d) { d["cluster"]["nodes"] = 0; }, {"nodes"}),
        scenario_case("zero tensor parallel", [](json& d) { d["parallel"]["tp"] = 0; }, {"tp"}),
        scenario_case("zero micro batch", [](json& d) { d["parallel"]["micro_batch"] = 0; },
                      {"micro_batch"}),
        scenario_case("zero accelerators per node",
                      [](json& d) {
                          d["cluster"]["custom"] = {{"accelerator", "A100-80GB"},
                                                    {"accelerators_per_node", 0}};
                      },
                      {"accelerators_per_node"}),
        scenario_case("negative network bandwidth",
                      [](json& d) {
                          d["cluster"]["custom"] = {{"inter_node_gbps", -100}};
                      },
                      {"inter_node_gbps"}),
        scenario_case("wrong schema version",
                      [](json& d) { d["schema"] = "clusterplan.scenario/99"; }, {"schema"}),
        scenario_case("no model", [](json& d) { d.erase("model"); }, {"model"}),
        scenario_case("unknown preset", [](json& d) { d["model"]["preset"] = "gpt-9"; }, {"gpt-9"}),
        scenario_case("unknown instance", [](json& d) { d["cluster"]["instance"] = "p9.mega"; },
                      {"p9.mega"}),
        scenario_case("tp does not divide the heads", [](json& d) { d["parallel"]["tp"] = 7; },
                      {"tp"}),
    };
    cases.insert(cases.end(), edits.begin(), edits.end());
    return cases;
}

} // namespace

TEST_CASE("the bad-input baseline scenario is accepted", "[cli][bad-input]") {
    Sandbox box;
    const fs::path file = box.write("scenario.json", base_scenario().dump(2));
    const CliResult r = run_cli({"simulate", file.string(), "--json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
}

TEST_CASE("hostile scenario files exit 2 with one clear sentence and change nothing",
          "[cli][bad-input]") {
    Sandbox box;
    REQUIRE(run_cli({"catalog", "list"}).code == 0); // creates the user database
    // A valid job log, so the scenario next to it is what is refused.
    const std::string log =
        (fs::path(CLUSTERPLAN_TEST_DATA_DIR) / "job_logs/megatron_gpt3_1p3b_p4d.log").string();
    for (const Case& c : scenario_cases()) {
        expect_rejected(box, c, {"simulate", "{file}"});
        expect_rejected(box, c, {"simulate", "{file}", "--json"});
        expect_rejected(box, c, {"sweep", "{file}", "--threads", "1"});
        expect_rejected(box, c, {"recommend", "{file}", "--top", "3"});
        expect_rejected(box, c, {"calibrate", "import", log, "--scenario", "{file}"});
    }
}

TEST_CASE("a 100 MB scenario file is rejected without exhausting memory",
          "[cli][bad-input][large]") {
    Sandbox box;
    REQUIRE(run_cli({"catalog", "list"}).code == 0);
    json doc = base_scenario();
    doc["name"] = std::string(k100MB, 'x');
    doc["bogus_field"] = 1;
    // Refused by its size (the 64 MiB input limit) before it is parsed.
    expect_rejected(box, {"100 MB with an unknown field", "huge.json", doc.dump(), {"64 MiB"}},
                    {"simulate", "{file}"});
}

TEST_CASE("missing and unreadable scenario files exit 2 naming the path", "[cli][bad-input]") {
    Sandbox box;
    for (const char* command : {"simulate", "sweep", "recommend"}) {
        const fs::path missing = box.files_dir() / "no-such-scenario.json";
        CliResult r = run_cli({command, missing.string()});
        INFO(command << ": " << r.err);
        CHECK(r.code == 2);
        CHECK(r.err.find("no-such-scenario.json") != std::string::npos);
        r = run_cli({command, box.files_dir().string()}); // a directory
        INFO(command << " on a directory: " << r.err);
        CHECK(r.code == 2);
        CHECK(cp::test::line_count(r.err) == 1);
    }
}

// --- catalog import: every format --------------------------------------------------------------

namespace {

struct Format {
    std::string name; // --format value
    std::string ext;
    std::string baseline; // a valid file of this format
    // (label, replace this, by that, field the message must name)
    std::vector<std::tuple<std::string, std::string, std::string, std::string>> edits;
};

std::vector<Format> import_formats() {
    const std::string corpus = "tests/fuzz/corpus/";
    return {
        {"aws-spot-history",
         "json",
         source_file("tests/data/catalog/spot_history_us_east_1.json"),
         {{"negative price", "\"9.412700\"", "\"-9.4127\"", "SpotPrice"},
          {"NaN price", "\"9.412700\"", "\"NaN\"", "SpotPrice"},
          {"infinite price", "\"9.412700\"", "\"inf\"", "SpotPrice"},
          {"price overflow", "\"9.412700\"", "\"1e999\"", "SpotPrice"},
          {"price as a list", "\"9.412700\"", "[9.4127]", "SpotPrice"},
          {"instance type as a number", "\"p4d.24xlarge\"", "42", "InstanceType"},
          {"bad timestamp", "\"2025-11-03T14:05:31+00:00\"", "\"yesterday\"", "Timestamp"},
          {"wrong top-level key", "SpotPriceHistory", "SpotPriceHistry", "SpotPriceHistory"},
          // Regression: std::regex overflowed the stack on a megabyte-long zone (segfault).
          {"1 MB zone name", "\"us-east-1a\"", "\"us-" + std::string(1000000, 'a') + "-1a\"",
           "AvailabilityZone"}}},
        {"spot-advisor",
         "json",
         source_file(corpus + "catalog_spot_advisor/spot_advisor.json"),
         {{"negative bucket", "{\"s\": 71, \"r\": 4}", "{\"s\": 71, \"r\": -1}", "r"},
          {"huge bucket", "{\"s\": 71, \"r\": 4}", "{\"s\": 71, \"r\": 1e300}", "r"},
          {"bucket as a string", "{\"s\": 71, \"r\": 4}", "{\"s\": 71, \"r\": \"4\"}", "r"},
          {"savings above 100%", "{\"s\": 71, \"r\": 4}", "{\"s\": 710, \"r\": 4}", "s"},
          {"negative savings", "{\"s\": 71, \"r\": 4}", "{\"s\": -71, \"r\": 4}", "s"}}},
        {"skypilot",
         "csv",
         source_file(corpus + "catalog_skypilot/vms-sample.csv"),
         {{"negative price", ",21.96,9.4127,", ",-21.96,9.4127,", "Price"},
          {"NaN price", ",21.96,9.4127,", ",NaN,9.4127,", "Price"},
          {"infinite spot price", ",21.96,9.4127,", ",21.96,inf,", "SpotPrice"},
          {"price overflow", ",21.96,9.4127,", ",1e999,9.4127,", "Price"},
          {"price as text", ",21.96,9.4127,", ",cheap,9.4127,", "Price"},
          {"missing Price column", "GpuInfo,Price,SpotPrice", "GpuInfo,Prise,SpotPrice", "Price"},
          {"Price column twice", "Price,SpotPrice,Region", "Price,SpotPrice,Price", "Price"},
          {"1 MB region", ",us-east-1,us-east-1a",
           ",us-" + std::string(1000000, 'e') + "-1,us-east-1a", "Region"}}},
        {"aws-price-list",
         "csv",
         source_file(corpus + "catalog_aws_price_list/price-list-sample.csv"),
         {{"negative price", "\"21.9600000000\"", "\"-21.96\"", "PricePerUnit"},
          {"NaN price", "\"21.9600000000\"", "\"NaN\"", "PricePerUnit"},
          {"price overflow", "\"21.9600000000\"", "\"1e999\"", "PricePerUnit"},
          {"bad publication date", "\"2025-06-01T18:52:43Z\"", "\"someday\"", "Publication Date"},
          {"not hourly", "\"Hrs\",\"21.96", "\"Fortnights\",\"21.96", "Unit"}}},
        {"csv",
         "csv",
         source_file(corpus + "catalog_csv/export-sample.csv"),
         {{"negative price", ",13.10904,", ",-13.1,", "usd_per_hour"},
          {"NaN price", ",13.10904,", ",NaN,", "usd_per_hour"},
          {"price overflow", ",13.10904,", ",1e999,", "usd_per_hour"},
          {"bucket out of range", ",,Linux,,1,62,", ",,Linux,,7,62,", "interruption_bucket"},
          {"bad date", ",,,2025-08,SkyPilot", ",,,2025-13-45,SkyPilot", "as_of"},
          {"unknown record kind", "on_demand,dl1", "reserved,dl1", "record"}}},
    };
}

std::vector<Case> import_cases(const Format& f) {
    const std::string file = "input-" + f.name + "." + f.ext;
    std::vector<Case> cases = {
        {"empty file", file, "", {}},
        {"truncated", file, f.baseline.substr(0, f.baseline.size() / 2), {}},
        {"binary garbage", file, std::string("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff\xfe", 18), {}},
        {"non-UTF-8 text", file, "\xff\xfe\xfd caf\xe9\n\xc3\x28,\xa0\xa1\n", {}},
    };
    for (const auto& [label, from, to, field] : f.edits)
        cases.push_back({label, file, with(f.baseline, from, to), {field}});
    return cases;
}

} // namespace

TEST_CASE("the import baselines are valid files", "[cli][bad-input]") {
    for (const Format& f : import_formats()) {
        Sandbox box;
        const fs::path file = box.write("valid." + f.ext, f.baseline);
        const CliResult r = run_cli({"catalog", "import", file.string(), "--format", f.name});
        INFO(f.name << ": " << r.err);
        CHECK(r.code == 0);
    }
}

TEST_CASE("hostile catalog imports exit 2 with one clear sentence and leave the database as it was",
          "[cli][bad-input]") {
    Sandbox box;
    // User data that must survive: an imported price history and a calibration profile.
    const fs::path history =
        fs::path(CLUSTERPLAN_TEST_DATA_DIR) / "catalog/spot_history_us_east_1.json";
    REQUIRE(run_cli({"catalog", "import", history.string()}).code == 0);
    const fs::path nccl =
        fs::path(CLUSTERPLAN_TEST_DATA_DIR) / "calibration/nccl_tests_allreduce_a100x8.txt";
    REQUIRE(run_cli({"calibrate", "import", nccl.string(), "--instance", "p4d.24xlarge", "--name",
                     "kept"})
                .code == 0);
    for (const Format& f : import_formats()) {
        for (const Case& c : import_cases(f)) {
            expect_rejected(box, c, {"catalog", "import", "{file}", "--format", f.name});
        }
        // Without --format the importer detects the format; hostile files still exit 2.
        for (const Case& c : import_cases(f)) {
            if (c.label == "empty file" || c.label == "binary garbage") {
                expect_rejected(box, c, {"catalog", "import", "{file}"});
            }
        }
    }
}

TEST_CASE("100 MB import files are rejected and the database is kept", "[cli][bad-input][large]") {
    Sandbox box;
    REQUIRE(run_cli({"catalog", "list"}).code == 0);
    // A CSV whose second record is one 100 MB line with the wrong number of fields.
    const std::string header = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,"
                               "GpuInfo,Price,SpotPrice,Region,AvailabilityZone\n";
    std::string csv = header + "p4d.24xlarge,A100,8,96,1152,,21.96,9.41,us-east-1,us-east-1a\n";
    csv += std::string(k100MB, '7');
    csv += "\n";
    expect_rejected(box, {"100 MB line", "huge-vms.csv", std::move(csv), {}},
                    {"catalog", "import", "{file}", "--format", "skypilot"});
    // A spot price history whose price is a 100 MB string of digits.
    std::string history = R"({"SpotPriceHistory": [{"AvailabilityZone": "us-east-1a",
        "InstanceType": "p4d.24xlarge", "ProductDescription": "Linux/UNIX", "SpotPrice": ")";
    history += std::string(k100MB, '9');
    history += R"(", "Timestamp": "2025-11-03T14:05:31+00:00"}]})";
    expect_rejected(box, {"100 MB price", "huge-history.json", std::move(history), {"64 MiB"}},
                    {"catalog", "import", "{file}", "--format", "aws-spot-history"});
}

TEST_CASE("catalog commands reject hostile arguments", "[cli][bad-input]") {
    Sandbox box;
    REQUIRE(run_cli({"catalog", "list"}).code == 0);
    const std::string before = box.stored_data();
    CliResult r = run_cli({"catalog", "show", "p4d.24xlarge\x1b]0;pwned\x07\xff"});
    INFO(r.err);
    CHECK(r.code == 2);
    CHECK(cp::test::line_count(r.err) == 1);
    CHECK(r.err.find('\x1b') == std::string::npos); // no terminal escape reaches the terminal
    r = run_cli({"catalog", "import", (box.files_dir() / "missing.json").string()});
    INFO(r.err);
    CHECK(r.code == 2);
    CHECK(r.err.find("missing.json") != std::string::npos);
    r = run_cli({"catalog", "import", box.files_dir().string()});
    INFO(r.err);
    CHECK(r.code == 2);
    r = run_cli({"catalog", "import", box.write("x.csv", "a,b\n").string(), "--format", "parquet"});
    CHECK(r.code == 1); // a usage error, not bad data
    CHECK(box.stored_data() == before);
}

// --- calibrate import: nccl-tests text and JSON, probe JSON ------------------------------------

namespace {

std::string calibration_fixture(const std::string& name) {
    return read_bytes(fs::path(CLUSTERPLAN_TEST_DATA_DIR) / "calibration" / name);
}

std::vector<Case> calibration_cases() {
    const std::string text = calibration_fixture("nccl_tests_allreduce_a100x8.txt");
    const std::string row =
        "     1048576        262144     float     sum      -1    92.79   11.30   19.78";
    std::vector<Case> cases = {
        {"empty file", "empty.txt", "", {}},
        {"binary garbage",
         "garbage.txt",
         std::string("\x7f"
                     "ELF\x02\x01\x01\0\0\xff\xfe",
                     11),
         {}},
        {"non-UTF-8 text", "latin1.txt", "# nccl-tests \xff\xfe caf\xe9\n\xc3\x28 \xa0\xa1\n", {}},
        {"NaN time",
         "nan-time.txt",
         with(text, row,
              "     1048576        262144     float     sum      -1      nan   11.30   19.78"),
         {}},
        {"infinite bandwidth",
         "inf-busbw.txt",
         with(text, row,
              "     1048576        262144     float     sum      -1    92.79   11.30     inf"),
         {}},
        {"negative time",
         "negative-time.txt",
         with(text, row,
              "     1048576        262144     float     sum      -1   -92.79   11.30   19.78"),
         {}},
        {"zero time",
         "zero-time.txt",
         with(text, row,
              "     1048576        262144     float     sum      -1     0.00   11.30   19.78"),
         {}},
        {"negative size",
         "negative-size.txt",
         with(text, row,
              "    -1048576        262144     float     sum      -1    92.79   11.30   19.78"),
         {}},
        {"size overflow",
         "huge-size.txt",
         with(text, row,
              "       1e999        262144     float     sum      -1    92.79   11.30   19.78"),
         {}},
        {"busbw off algbw x 2(n-1)/n",
         "bus-factor.txt",
         with(text, "11.30   19.78", "11.30   25.00"),
         {"line 19", "column 'busbw'"}},
        {"only comments", "comments.txt", "# nccl-tests version 2.17.1\n#\n# nothing ran\n", {}},
        // Regressions: std::regex overflowed the stack on long header lines (segfault).
        {"2 MB rank line",
         "long-rank.txt",
         "#  Rank  0 Group  0 Pid  1 on h device  0 [0000:07:00] " + std::string(2000000, 'A') +
             "\n" + text,
         {}},
        {"2 MB comment line",
         "long-comment.txt",
         "# " + std::string(2000000, ' ') + "x\n" + text,
         {}},
        {"rank number beyond int",
         "huge-rank.txt",
         "#  Rank  99999999999999 Group  0 Pid  1 on h device  0 [0000:07:00] GPU\n" + text,
         {}},
        {"NCCL version code beyond long long",
         "huge-version.txt",
         "# nccl-tests version 2.17.1 nccl-library=" + std::string(40, '9') + "\n" + text,
         {}},
    };
    for (const char* name : {"malformed_bad_number.txt", "malformed_no_header.txt",
                             "malformed_truncated_row.txt", "malformed_wrong_elements.txt",
                             "malformed_json_field.json", "malformed_json_truncated.json",
                             "malformed_probe_negative_time.json", "malformed_probe_schema.json"}) {
        cases.push_back({std::string("fixture ") + name, name, calibration_fixture(name), {}});
    }
    const std::string probe = calibration_fixture("probe_a100x8_example.json");
    cases.push_back(
        {"probe JSON with a number overflow",
         "probe-overflow.json",
         with(probe, "\"clusterplan.probe/1\"", "\"clusterplan.probe/1\", \"x\": 1e999"),
         {}});
    cases.push_back(
        {"truncated probe JSON", "probe-truncated.json", probe.substr(0, probe.size() / 2), {}});
    return cases;
}

} // namespace

TEST_CASE("hostile calibration files exit 2 with one clear sentence and store nothing",
          "[cli][bad-input]") {
    Sandbox box;
    const fs::path nccl =
        fs::path(CLUSTERPLAN_TEST_DATA_DIR) / "calibration/nccl_tests_allreduce_a100x8.txt";
    REQUIRE(run_cli({"calibrate", "import", nccl.string(), "--instance", "p4d.24xlarge", "--name",
                     "kept"})
                .code == 0);
    for (const Case& c : calibration_cases()) {
        expect_rejected(box, c, {"calibrate", "import", "{file}", "--instance", "p4d.24xlarge"});
        expect_rejected(box, c, {"calibrate", "import", "{file}", "--json"});
    }
    std::string junk = "# nccl-tests version 2.17.1\n";
    junk.append(k100MB, 'z');
    expect_rejected(box, {"100 MB of junk", "huge.txt", std::move(junk), {}},
                    {"calibrate", "import", "{file}"});
}

// --- the same contract through the real binary -------------------------------------------------

TEST_CASE("the installed-style binary rejects hostile files with exit 2 and one line",
          "[cli][bad-input][binary]") {
    Sandbox box;
    const std::string app = CLUSTERPLAN_APP_BINARY;
    REQUIRE(cp::test::run_program(app, {"catalog", "list"}, box.files_dir()).code == 0);
    const std::string before = box.stored_data();
    const fs::path empty = box.write("empty.json", "");
    const fs::path latin1 = box.write("latin1.txt", "# nccl \xff\xfe\n\xc3\x28\n");
    const fs::path bad_csv =
        box.write("bad.csv", with(source_file("tests/fuzz/corpus/catalog_skypilot/vms-sample.csv"),
                                  ",21.96,9.4127,", ",NaN,9.4127,"));
    json zero = base_scenario();
    zero["cluster"]["nodes"] = 0;
    const fs::path zero_nodes = box.write("zero-nodes.json", zero.dump());
    std::vector<std::vector<std::string>> commands = {
        {"simulate", empty.string()},
        {"simulate", zero_nodes.string(), "--json"},
        {"recommend", zero_nodes.string()},
        {"catalog", "import", bad_csv.string(), "--format", "skypilot"},
        {"calibrate", "import", latin1.string()},
    };
#ifdef CLUSTERPLAN_APP_HAS_REPORT
    commands.push_back(
        {"report", zero_nodes.string(), "--out", (box.files_dir() / "report.md").string()});
#endif
    for (const auto& argv : commands) {
        const CliResult r = cp::test::run_program(app, argv, box.data_dir());
        INFO(argv[0] << " " << argv[1] << ": exit " << r.code << ", stderr: " << r.err);
        CHECK(r.code == 2);
        CHECK(cp::test::line_count(r.err) == 1);
        CHECK(r.out.empty());
    }
    CHECK_FALSE(fs::exists(box.files_dir() / "report.md"));
    CHECK(box.stored_data() == before);
}

// --- probe run: hostile host names never reach a shell ------------------------------------------

TEST_CASE("probe run rejects hostile host names before starting anything",
          "[cli][bad-input][probe]") {
    Sandbox box;
    REQUIRE(run_cli({"catalog", "list"}).code == 0);
    const std::string before = box.stored_data();
    const fs::path canary = box.files_dir() / "canary";
    const std::vector<std::string> hosts = {
        "-oProxyCommand=touch " + canary.string(), // an ssh option smuggled in as a host
        "gpu1;touch " + canary.string(),
        "$(touch " + canary.string() + ")",
        "`touch " + canary.string() + "`",
        "gpu1 gpu2",
        "",
        "user@-oProxyCommand=x",
        "gpu1\n-oProxyCommand=x",
        "gpu\x1b]0;title\x07",
        std::string(300, 'a'),
    };
    for (const auto& host : hosts) {
        const CliResult r = run_cli({"probe", "run", "--host", "gpu0", "--host", host});
        INFO("host: " << host << "\nexit " << r.code << ", stderr: " << r.err);
        CHECK(r.code == 2);
        CHECK(cp::test::line_count(r.err) == 1);
        CHECK(r.err.find('\x1b') == std::string::npos);
        CHECK_FALSE(fs::exists(canary));
    }
    CHECK(run_cli({"probe", "run", "--host", "gpu0", "--launcher", "sh -c id"}).code == 1);
    CHECK(box.stored_data() == before);
}
