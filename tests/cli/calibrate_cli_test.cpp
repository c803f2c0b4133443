// `clusterplan calibrate ...` end to end through cp::cli::run, with a temporary data dir.
#include "cli.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

namespace {

struct TempDataDir {
    std::filesystem::path dir;
    TempDataDir() {
        char tmpl[] = "/tmp/cp-calib-cli-XXXXXX";
        dir = mkdtemp(tmpl);
        setenv("CLUSTERPLAN_DATA_DIR", dir.c_str(), 1);
    }
    ~TempDataDir() {
        std::error_code ec;
        std::filesystem::remove_all(dir, ec);
        unsetenv("CLUSTERPLAN_DATA_DIR");
    }
};

struct Run {
    int rc;
    std::string out, err;
};

Run run(const std::vector<std::string>& argv) {
    std::ostringstream out, err;
    cp::cli::Io io{out, err};
    const int rc = cp::cli::run(argv, io);
    return {rc, out.str(), err.str()};
}

std::string fixture(const std::string& name) {
    return std::string(CLUSTERPLAN_TEST_DATA_DIR) + "/calibration/" + name;
}

} // namespace

TEST_CASE("calibrate import prints samples, fit and predictions and stores the profile",
          "[cli][calibrate]") {
    TempDataDir data;
    const Run r = run({"calibrate", "import", fixture("nccl_tests_allreduce_a100x8.txt"),
                       "--instance", "p4d.24xlarge", "--name", "a100-ar", "--json"});
    INFO(r.err);
    REQUIRE(r.rc == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["name"] == "a100-ar");
    CHECK(j["instance_type"] == "p4d.24xlarge");
    CHECK(j["collective"] == "all_reduce");
    CHECK(j["ranks"] == 8);
    REQUIRE(j["samples"].size() == 11);
    CHECK(j["samples"][0]["bytes"] == 1048576.0);
    CHECK(j["samples"][0]["time_us"] == 92.79);
    CHECK(j["samples"][0]["busbw_gbytes_per_s"] == 19.78);
    CHECK(j["samples"][10]["time_us"] == 8193.0);
    CHECK(j["samples"][10]["in_place_busbw_gbytes_per_s"] == 229.25);
    REQUIRE(j["fit"]["regimes"].size() >= 1);
    CHECK(j["fit"]["regimes"][0]["min_bytes"] == 0.0);
    CHECK(j["fit"]["regimes"].back()["max_bytes"].is_null());
    REQUIRE(j["predicted_time_us"].size() == 11);
    for (const auto& s : j["samples"]) {
        const std::string key = std::to_string(s["bytes"].get<long long>());
        REQUIRE(j["predicted_time_us"].contains(key));
        CHECK_REL(j["predicted_time_us"][key].get<double>(), s["time_us"].get<double>(), 0.10);
    }

    const Run list = run({"calibrate", "list", "--json"});
    REQUIRE(list.rc == 0);
    const auto l = nlohmann::json::parse(list.out);
    REQUIRE(l["calibrations"].size() == 1);
    CHECK(l["calibrations"][0]["name"] == "a100-ar");
    CHECK(l["calibrations"][0]["source"] == "nccl-tests");

    const Run show = run({"calibrate", "show", "a100-ar", "--json"});
    REQUIRE(show.rc == 0);
    const auto s = nlohmann::json::parse(show.out);
    CHECK(s["intra_node"][0]["raw"].size() == 11);
    CHECK(s["tool_versions"]["nccl"] == "2.27.3");
    CHECK(s["predicted_time_us"].size() == 11);

    const Run text = run({"calibrate", "show", "a100-ar"});
    CHECK(text.rc == 0);
    CHECK_THAT(text.out, Catch::Matchers::Contains("all_reduce over 8 ranks"));
}

TEST_CASE("calibrate import reads -J JSON, probe JSON and the validation CSV", "[cli][calibrate]") {
    TempDataDir data;
    Run r = run({"calibrate", "import", fixture("nccl_tests_allreduce_a100x8.json"), "--json"});
    REQUIRE(r.rc == 0);
    auto j = nlohmann::json::parse(r.out);
    CHECK(j["format"] == "nccl-tests-json");
    CHECK(j["samples"][3]["time_us"] == 134.3);
    r = run({"calibrate", "import", fixture("probe_a100x8_example.json"), "--json"});
    REQUIRE(r.rc == 0);
    j = nlohmann::json::parse(r.out);
    CHECK(j["source"] == "probe");
    CHECK(j["hbm_gbytes_per_s"] == 1650.0);
    r = run({"calibrate", "import",
             std::string(CLUSTERPLAN_VALIDATION_DIR) + "/nccl_allreduce/v100_4gpu.csv", "--json"});
    REQUIRE(r.rc == 0);
    j = nlohmann::json::parse(r.out);
    CHECK(j["samples"].size() == 1024);
    CHECK(j["ranks"] == 4);
    CHECK(nlohmann::json::parse(run({"calibrate", "list", "--json"}).out)["calibrations"].size() ==
          3);
}

TEST_CASE("malformed logs exit 2 naming the file and store nothing", "[cli][calibrate]") {
    TempDataDir data;
    REQUIRE(
        run({"calibrate", "import", fixture("nccl_tests_allreduce_a100x8.txt"), "--name", "keep"})
            .rc == 0);
    const std::string before = run({"calibrate", "show", "keep", "--json"}).out;
    for (const char* bad :
         {"malformed_truncated_row.txt", "malformed_bad_number.txt", "malformed_wrong_elements.txt",
          "malformed_no_header.txt", "unnamed_collective.txt", "malformed_json_field.json",
          "malformed_json_truncated.json", "malformed_probe_negative_time.json",
          "malformed_probe_schema.json", "README.md"}) {
        INFO(bad);
        const Run r = run({"calibrate", "import", fixture(bad), "--name", "bad"});
        CHECK(r.rc == 2);
        CHECK_THAT(r.err, Catch::Matchers::Contains(fixture(bad)));
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    }
    const Run missing = run({"calibrate", "import", "/nonexistent/file.txt"});
    CHECK(missing.rc == 2);
    // Same name again without --replace: refused, original kept.
    CHECK(
        run({"calibrate", "import", fixture("nccl_tests_allreduce_a100x8.json"), "--name", "keep"})
            .rc == 2);
    CHECK(run({"calibrate", "import", fixture("nccl_tests_allreduce_a100x8.txt"), "--instance",
               "no.such.type"})
              .rc == 2);
    const auto list = nlohmann::json::parse(run({"calibrate", "list", "--json"}).out);
    CHECK(list["calibrations"].size() == 1);
    CHECK(run({"calibrate", "show", "keep", "--json"}).out == before);
    CHECK(run({"calibrate", "show", "nope"}).rc == 2);
}

TEST_CASE("calibrate usage errors exit 1", "[cli][calibrate]") {
    TempDataDir data;
    CHECK(run({"calibrate"}).rc == 1);
    CHECK(run({"calibrate", "frobnicate"}).rc == 1);
    CHECK(run({"calibrate", "import"}).rc == 1);
    CHECK(run({"calibrate", "import", "a", "b"}).rc == 1);
    CHECK(run({"calibrate", "import", fixture("nccl_tests_allreduce_a100x8.txt"), "--bogus"}).rc ==
          1);
    CHECK(run({"calibrate", "import", fixture("nccl_tests_allreduce_a100x8.txt"), "--collective",
               "nope"})
              .rc == 1);
}
