#include "calibration_test_util.h"
#include "clusterplan/sim/calibration_import.h"
#include "tolerance.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

using namespace cp::sim;
using cp::test::calibration_fixture;
using cp::test::read_text;

namespace {
// Expected rows, exactly as printed in the fixture (tests/data/calibration/make_fixtures.py).
struct Row {
    double bytes, time_us, algbw, busbw, ip_time_us, ip_busbw;
};
const Row kRows[] = {
    {1048576, 92.79, 11.30, 19.78, 92.15, 19.91},
    {2097152, 93.25, 22.49, 39.36, 92.97, 39.48},
    {4194304, 95.80, 43.78, 76.62, 94.03, 78.06},
    {8388608, 134.30, 62.46, 109.31, 129.80, 113.10},
    {16777216, 232.40, 72.19, 126.33, 231.00, 127.10},
    {33554432, 358.10, 93.70, 163.98, 355.70, 165.08},
    {67108864, 579.90, 115.72, 202.52, 579.60, 202.62},
    {134217728, 1162.00, 115.51, 202.14, 1166.00, 201.44},
    {268435456, 2162.30, 124.14, 217.25, 2158.00, 217.68},
    {536870912, 4191.50, 128.09, 224.15, 4187.60, 224.36},
    {1073741824, 8193.00, 131.06, 229.35, 8196.40, 229.25},
};

void check_rows(const CollectiveTable& t, bool exact_algbw) {
    REQUIRE(t.samples.size() == std::size(kRows));
    for (std::size_t i = 0; i < std::size(kRows); ++i) {
        const auto& s = t.samples[i];
        INFO("row " << i);
        CHECK(s.bytes == kRows[i].bytes);
        CHECK(s.count == kRows[i].bytes / 4);
        CHECK(s.type == "float");
        CHECK(s.time_us == kRows[i].time_us);
        CHECK(s.busbw_gbytes_per_s == kRows[i].busbw);
        CHECK(s.in_place_time_us == kRows[i].ip_time_us);
        CHECK(s.in_place_busbw_gbytes_per_s == kRows[i].ip_busbw);
        if (exact_algbw)
            CHECK(s.algbw_gbytes_per_s == kRows[i].algbw);
        else
            CHECK_REL(s.algbw_gbytes_per_s, kRows[i].algbw, 0.001);
        CHECK(s.wrong <= 0);
    }
}
// The fixture's rows with each busbw column rewritten as algbw x `factor`, printed as nccl-tests
// prints it (2 decimals); every other line as it was.
std::string with_bus_factor(const std::string& text, double factor) {
    std::istringstream in(text);
    std::string out;
    for (std::string line; std::getline(in, line);) {
        std::istringstream words(line);
        std::vector<std::string> t{std::istream_iterator<std::string>(words), {}};
        if (line.empty() || line[0] == '#' || t.size() != 13 || !std::isdigit(t[0][0])) {
            out += line + "\n";
            continue;
        }
        for (const std::size_t alg : {std::size_t{6}, std::size_t{10}}) {
            char bus[32];
            std::snprintf(bus, sizeof bus, "%.2f", std::stod(t[alg]) * factor);
            t[alg + 1] = bus;
        }
        for (const std::string& w : t)
            out += "  " + w;
        out += "\n";
    }
    return out;
}

// The fixture with one token of the row of `bytes` replaced (column as split on blanks), and the
// 1-based number of that line.
std::string with_token(const std::string& text, const std::string& bytes, std::size_t column,
                       const std::string& value, std::size_t& line_no) {
    std::istringstream in(text);
    std::string out;
    line_no = 0;
    std::size_t n = 0;
    for (std::string line; std::getline(in, line);) {
        ++n;
        std::istringstream words(line);
        std::vector<std::string> t{std::istream_iterator<std::string>(words), {}};
        if (!t.empty() && t[0] == bytes && line[0] != '#') {
            line_no = n;
            t.at(column) = value;
            line.clear();
            for (const std::string& w : t)
                line += "  " + w;
        }
        out += line + "\n";
    }
    REQUIRE(line_no > 0);
    return out;
}
} // namespace

TEST_CASE("nccl-tests text output (current layout) imports exactly", "[calibration][import]") {
    const std::string path = calibration_fixture("nccl_tests_allreduce_a100x8.txt");
    const std::string text = read_text(path);
    REQUIRE(detect_collective_format(text) == CollectiveFormat::nccl_tests_text);
    const CollectiveTable t = parse_nccl_tests_text(text, path);
    CHECK(t.collective == "all_reduce");
    CHECK(t.ranks == 8);
    CHECK(t.nodes == 1);
    CHECK(t.hosts == std::vector<std::string>{"dgx-a100-01"});
    CHECK(t.device == "NVIDIA A100-SXM4-80GB");
    CHECK(t.nccl_version == "2.27.3");
    CHECK(t.avg_busbw_gbytes_per_s == 146.767);
    check_rows(t, true);
}

TEST_CASE("nccl-tests text output (2.10 layout, no root column) imports exactly",
          "[calibration][import]") {
    const std::string path = calibration_fixture("nccl_tests_allreduce_a100x8_old.txt");
    // The old layout does not name its test: the hint supplies it.
    REQUIRE_THROWS_AS(parse_nccl_tests_text(read_text(path), path), CalibrationInputError);
    const CollectiveTable t = parse_nccl_tests_text(read_text(path), path, "all_reduce_perf");
    CHECK(t.collective == "all_reduce");
    CHECK(t.ranks == 8);
    check_rows(t, true);
}

TEST_CASE("nccl-tests -J JSON imports exactly", "[calibration][import]") {
    const std::string path = calibration_fixture("nccl_tests_allreduce_a100x8.json");
    const std::string text = read_text(path);
    REQUIRE(detect_collective_format(text) == CollectiveFormat::nccl_tests_json);
    const CollectiveTable t = parse_nccl_tests_json(text, path);
    CHECK(t.collective == "all_reduce");
    CHECK(t.ranks == 8);
    CHECK(t.nccl_version == "2.27.3");
    CHECK(t.avg_busbw_gbytes_per_s == 150.123);
    check_rows(t, false);
}

TEST_CASE("validation CSV tables import with ranks from busbw/algbw", "[calibration][import]") {
    for (int n = 2; n <= 8; ++n) {
        for (const char* gpu : {"a100", "v100"}) {
            const std::string path = std::string(CLUSTERPLAN_VALIDATION_DIR) + "/nccl_allreduce/" +
                                     gpu + "_" + std::to_string(n) + "gpu.csv";
            const std::string text = read_text(path);
            REQUIRE(detect_collective_format(text) == CollectiveFormat::csv);
            const CollectiveTable t = parse_nccl_csv(text, path);
            INFO(path);
            CHECK(t.ranks == n);
            CHECK(t.samples.size() == 1024);
            CHECK(t.samples.front().bytes == 1048576);
            CHECK(t.samples.back().bytes == 1073741824);
            // busbw as printed, algbw recomputed from size and time.
            const auto& s = t.samples.front();
            CHECK_REL(s.algbw_gbytes_per_s * busbw_factor("all_reduce", n), s.busbw_gbytes_per_s,
                      0.01);
        }
    }
}

TEST_CASE("malformed nccl-tests logs are rejected naming file, line and field",
          "[calibration][import]") {
    struct Case {
        const char* file;
        const char* expect;
    };
    const Case cases[] = {
        {"malformed_truncated_row.txt", "line 26: expected 13 columns"},
        {"malformed_bad_number.txt", "line 27: field 'time'"},
        {"malformed_wrong_elements.txt", "17 wrong elements"},
        {"malformed_no_header.txt", "line 18: data row before"},
        {"unnamed_collective.txt", "--collective"},
    };
    for (const auto& c : cases) {
        const std::string path = calibration_fixture(c.file);
        INFO(c.file);
        try {
            parse_nccl_tests_text(read_text(path), path);
            FAIL("no error for " << c.file);
        } catch (const CalibrationInputError& e) {
            const std::string msg = e.what();
            CHECK(msg.find(path) != std::string::npos);
            CHECK_THAT(msg, Catch::Matchers::Contains(c.expect));
        }
    }
    const std::string bad_field = calibration_fixture("malformed_json_field.json");
    CHECK_THROWS_WITH(parse_nccl_tests_json(read_text(bad_field), bad_field),
                      Catch::Matchers::Contains("results[3].out_of_place.time is not a number"));
    const std::string truncated = calibration_fixture("malformed_json_truncated.json");
    CHECK_THROWS_WITH(parse_nccl_tests_json(read_text(truncated), truncated),
                      Catch::Matchers::Contains("invalid JSON"));
    CHECK_THROWS_AS(
        parse_nccl_csv("size(B),count,type,time(ns),busbw(GB/s)\n1024,256,float,abc,1.0\n",
                       "x.csv"),
        CalibrationInputError);
    // A message is whole bytes (a fractional size made the fit return negative times).
    CHECK_THROWS_WITH(
        parse_nccl_csv("size(B),count,type,time(ns),busbw(GB/s)\n1024,256,float,1000,1.0\n"
                       "1.5e-300,256,float,900,1.0\n",
                       "y.csv"),
        Catch::Matchers::Contains("is not a whole number of bytes"));
    // 1 MiB in 1e-7 ns is 1e10 TB/s (it was stored as a fit); a size beyond 2^50 bytes failed in
    // the fit without naming the file.
    CHECK_THROWS_WITH(
        parse_nccl_csv("size(B),count,type,time(ns),busbw(GB/s)\n1048576,262144,float,1e-7,1.0\n",
                       "fast.csv"),
        Catch::Matchers::Contains("fast.csv: size 1048576 bytes in 1e-10 us is beyond any link"));
    CHECK_THROWS_WITH(
        parse_nccl_csv("size(B),count,type,time(ns),busbw(GB/s)\n1e26,256,float,1000,1.0\n",
                       "huge.csv"),
        Catch::Matchers::Contains("huge.csv: a size beyond 2^50 bytes"));
    // The fastest fixture row stays accepted: 1 GiB all-reduce on 8 A100 in 8,193 us.
    CHECK_NOTHROW(parse_nccl_csv(
        "size(B),count,type,time(ns),busbw(GB/s)\n1073741824,268435456,float,8193000,229.35\n",
        "ok.csv"));
}

TEST_CASE("collective names and busbw factors follow nccl-tests", "[calibration]") {
    CHECK(canonical_collective("./build/all_reduce_perf") == "all_reduce");
    CHECK(canonical_collective("AllGather") == "all_gather");
    CHECK(canonical_collective("reduce_scatter_perf") == "reduce_scatter");
    CHECK(canonical_collective("sendrecv") == "sendrecv");
    CHECK(canonical_collective("bogus").empty());
    CHECK(busbw_factor("all_reduce", 8) == 1.75);
    CHECK(busbw_factor("all_gather", 4) == 0.75);
    CHECK(busbw_factor("broadcast", 8) == 1.0);
}

TEST_CASE("multi-host nccl-tests logs count their nodes from the rank lines",
          "[calibration][import]") {
    const std::string path = calibration_fixture("nccl_tests_allreduce_a100x8.txt");
    std::string text = read_text(path);
    // Ranks 4..7 on a second host: the same run across two nodes.
    for (const char* r : {"Rank  4", "Rank  5", "Rank  6", "Rank  7"}) {
        const auto pos = text.find(std::string(r));
        REQUIRE(pos != std::string::npos);
        const auto host = text.find("dgx-a100-01", pos);
        text.replace(host, 11, "dgx-a100-02");
    }
    const CollectiveTable t = parse_nccl_tests_text(text, "two-node.txt");
    CHECK(t.ranks == 8);
    CHECK(t.nodes == 2);
    CHECK(t.hosts == std::vector<std::string>{"dgx-a100-01", "dgx-a100-02"});
}

TEST_CASE("a log with several consecutive runs gives one table per run", "[calibration][import]") {
    const std::string path = calibration_fixture("nccl_tests_allreduce_a100x8.txt");
    const std::string one = read_text(path);
    // The same timings as an all_gather: busbw is algbw x (n-1)/n there.
    std::string second = with_bus_factor(one, 7.0 / 8.0);
    const auto pos = second.find("all_reduce_perf");
    second.replace(pos, 15, "all_gather_perf");
    const std::string both = one + "NCCL INFO chatter between runs\n" + second;
    const auto tables = parse_nccl_tests_text_runs(both, "two-runs.log");
    REQUIRE(tables.size() == 2);
    CHECK(tables[0].collective == "all_reduce");
    CHECK(tables[1].collective == "all_gather");
    CHECK(tables[1].samples.size() == 11);
    // The single-run parser refuses the combined log rather than mixing two tables.
    CHECK_THROWS_AS(parse_nccl_tests_text(both, "two-runs.log"), CalibrationInputError);
    // Errors in the second run still name the line in the whole file.
    std::string broken = both;
    const auto last_row = broken.rfind("  1073741824");
    broken.replace(broken.find("8193.00", last_row), 7, "81x3.00");
    const auto line_no =
        std::count(broken.begin(), broken.begin() + static_cast<long>(last_row), '\n') + 1;
    CHECK_THROWS_WITH(
        parse_nccl_tests_text_runs(broken, "two-runs.log"),
        Catch::Matchers::Contains("two-runs.log line " + std::to_string(line_no) + ":"));
    // One run: identical to the single-run parser.
    REQUIRE(parse_nccl_tests_text_runs(one, path).size() == 1);
}

TEST_CASE("nccl-tests rows whose bandwidths contradict size and time are refused",
          "[calibration][import]") {
    const std::string path = calibration_fixture("nccl_tests_allreduce_a100x8.txt");
    const std::string text = read_text(path);
    std::size_t line_no = 0;
    // 8 MiB in 134.30 us is 62.46 GB/s; 62.50 is beyond the printed digits' rounding.
    std::string bad = with_token(text, "8388608", 6, "62.50", line_no);
    CHECK_THROWS_WITH(parse_nccl_tests_text(bad, "x.txt"),
                      Catch::Matchers::Contains("x.txt line " + std::to_string(line_no) +
                                                ": column 'algbw' is 62.50 GB/s") &&
                          Catch::Matchers::Contains("size / time is 62.46"));
    // all_reduce on 8 ranks: busbw = algbw x 2(n-1)/n = 1.75 x algbw.
    bad = with_token(text, "8388608", 7, "110.30", line_no);
    CHECK_THROWS_WITH(parse_nccl_tests_text(bad, "x.txt"),
                      Catch::Matchers::Contains("x.txt line " + std::to_string(line_no) +
                                                ": column 'busbw' is 110.30") &&
                          Catch::Matchers::Contains("for 8 ranks (1.75)"));
    bad = with_token(text, "1073741824", 11, "229.40", line_no);
    CHECK_THROWS_WITH(
        parse_nccl_tests_text(bad, "x.txt"),
        Catch::Matchers::Contains("line " + std::to_string(line_no) + ": column 'in-place busbw'"));
    bad = with_token(text, "2097152", 9, "94.00", line_no);
    CHECK_THROWS_WITH(parse_nccl_tests_text(bad, "x.txt"),
                      Catch::Matchers::Contains("line " + std::to_string(line_no) +
                                                ": column 'in-place algbw' is 22.56"));
    // The last printed digit's rounding is allowed: 19.775 prints as 19.78 or 19.77.
    CHECK_NOTHROW(parse_nccl_tests_text(with_token(text, "1048576", 7, "19.77", line_no), "x"));
    // Each collective's factor: all_gather (n-1)/n, broadcast 1.
    std::string gather = with_bus_factor(text, 7.0 / 8.0);
    gather.replace(gather.find("all_reduce_perf"), 15, "all_gather_perf");
    CHECK(parse_nccl_tests_text(gather, "ag.txt").ranks == 8);
    CHECK_THROWS_WITH(parse_nccl_tests_text(gather, "ag.txt", "broadcast"),
                      Catch::Matchers::Contains("column 'busbw'") &&
                          Catch::Matchers::Contains("broadcast's bus factor (1)"));
    CHECK_NOTHROW(parse_nccl_tests_text(with_bus_factor(text, 1.0), "bc.txt", "broadcast"));

    // -J JSON prints the same numbers: a bus_bw off algbw x 1.75 is refused naming the field.
    const std::string json_path = calibration_fixture("nccl_tests_allreduce_a100x8.json");
    std::string json = read_text(json_path);
    const auto bus = json.find("\"bus_bw\":") + 9;
    json.replace(bus, json.find(',', bus) - bus, "21.5");
    CHECK_THROWS_WITH(parse_nccl_tests_json(json, "x.json"),
                      Catch::Matchers::Contains("x.json: results[0]: field 'out_of_place.bus_bw' "
                                                "is 21.5 GB/s"));
}
