// sim/io: the bounded reader, the safe writer, the JSON nesting bound and CSV cells.
#include "clusterplan/sim/io/csv_cell.h"
#include "clusterplan/sim/io/input_file.h"
#include "clusterplan/sim/io/json_depth.h"
#include "clusterplan/sim/io/output_file.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <stdlib.h>
#include <sys/stat.h>

namespace {

namespace fs = std::filesystem;
namespace io = cp::sim::io;

struct TempDir {
    fs::path path;
    TempDir() {
        char tmpl[] = "/tmp/cp-io-test-XXXXXX";
        path = mkdtemp(tmpl);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
};

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const std::exception& e) {
        return e.what();
    }
    return {};
}

} // namespace

TEST_CASE("read_input_file reads regular files up to the limit and refuses the rest", "[io]") {
    TempDir dir;
    const fs::path file = dir.path / "a.json";
    { std::ofstream(file) << "hello"; }
    CHECK(io::read_input_file(file, "the test file") == "hello");
    CHECK(io::read_input_file(file, "the test file", 5) == "hello");
    CHECK(error_of([&] { io::read_input_file(file, "the test file", 4); }) ==
          file.string() + ": the test file is larger than the 4 bytes limit");
    const fs::path fifo = dir.path / "fifo";
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    CHECK(error_of([&] {
              io::read_input_file(fifo, "the test file");
          }).find("a pipe (FIFO), not a regular file") != std::string::npos);
    CHECK(error_of([&] {
              io::read_input_file("/dev/zero", "the test file");
          }).find("a character device") != std::string::npos);
    CHECK(error_of([&] { io::read_input_file(dir.path, "the test file"); }).find("a directory") !=
          std::string::npos);
    CHECK(error_of([&] {
              io::read_input_file(dir.path / "missing", "the test file");
          }).find("cannot open") != std::string::npos);
    CHECK(io::format_byte_limit(io::kMaxInputBytes) == "64 MiB");
    CHECK(io::format_byte_limit(std::size_t{1} << 30) == "1 GiB");
}

TEST_CASE("write_output_file replaces the target atomically and follows no symlink", "[io]") {
    TempDir dir;
    const fs::path out = dir.path / "out.csv";
    io::write_output_file(out, "one");
    CHECK(slurp(out) == "one");
    io::write_output_file(out, "two");
    CHECK(slurp(out) == "two");
    const fs::path victim = dir.path / "victim";
    { std::ofstream(victim) << "keep"; }
    const fs::path link = dir.path / "link.csv";
    fs::create_symlink(victim, link);
    CHECK(error_of([&] { io::write_output_file(link, "x"); }).find("symbolic link") !=
          std::string::npos);
    CHECK(slurp(victim) == "keep");
    CHECK(error_of([&] {
              io::write_output_file(dir.path / "no-dir" / "x.csv", "x");
          }).find("does not exist") != std::string::npos);
    CHECK(error_of([&] { io::write_output_file("/dev/null", "x"); }).find("not a regular file") !=
          std::string::npos);
    std::size_t files = 0;
    for ([[maybe_unused]] const auto& e : fs::directory_iterator(dir.path))
        ++files;
    CHECK(files == 3); // out.csv, victim, link.csv: no temporary file left
}

TEST_CASE("json_nesting_problem bounds depth and ignores brackets in strings", "[io]") {
    CHECK_FALSE(io::json_nesting_problem(R"({"a": [1, {"b": "[[[[[["}]})"));
    CHECK_FALSE(io::json_nesting_problem(std::string(64, '[') + std::string(64, ']')));
    const auto problem = io::json_nesting_problem(std::string(65, '['));
    REQUIRE(problem);
    CHECK(*problem == "nests deeper than 64 levels (at byte 65)");
    CHECK(io::json_nesting_problem(R"(["\"", [[)", 2));
    CHECK_FALSE(io::json_nesting_problem(R"(["\"[[[[", []])", 2));
}

TEST_CASE("json_input_problem refuses a key twice in one object and a NUL byte", "[io]") {
    // The same key in sibling objects, in strings and as a value is fine.
    CHECK_FALSE(io::json_input_problem(R"({"a": {"k": 1}, "b": {"k": "k"}, "c": ["k", "k"]})"));
    CHECK_FALSE(io::json_input_problem(R"([{"k": 1}, {"k": 2}])"));
    CHECK_FALSE(io::json_input_problem(R"({"k\"": 1, "k": 2})"));
    const auto twice = io::json_input_problem(R"({"p": {"tp": 8, "pp": 1, "tp": 4}})");
    REQUIRE(twice);
    CHECK(*twice == "names p.tp twice in one object (at byte 26); give each field once");
    const auto in_list = io::json_input_problem(R"({"r": [{"s": 1}, {"s": 1, "s": 2}]})");
    REQUIRE(in_list);
    CHECK(in_list->find("r[].s twice") != std::string::npos);
    const auto nul = io::json_input_problem(std::string("{}\0{", 4));
    REQUIRE(nul);
    CHECK(nul->find("NUL byte (at byte 3)") != std::string::npos);
    // A long key is cut in the message.
    const std::string key(1000, 'k');
    const auto long_key = io::json_input_problem("{\"" + key + "\": 1, \"" + key + "\": 2}");
    REQUIRE(long_key);
    CHECK(long_key->size() < 200);
    CHECK(io::json_input_problem(std::string(65, '['))->find("nests deeper") == 0);
}

TEST_CASE("csv_cell quotes and neutralises formulas but leaves numbers", "[io]") {
    CHECK(io::csv_cell("plain") == "plain");
    CHECK(io::csv_cell("a,b") == "\"a,b\"");
    CHECK(io::csv_cell("say \"hi\"") == "\"say \"\"hi\"\"\"");
    CHECK(io::csv_cell("=cmd|' /C calc'!A0") == "'=cmd|' /C calc'!A0");
    CHECK(io::csv_cell("@SUM(A1)") == "'@SUM(A1)");
    CHECK(io::csv_cell("+1+2") == "'+1+2");
    CHECK(io::csv_cell("-2+3") == "'-2+3");
    CHECK(io::csv_cell("\tx") == "'\tx");
    CHECK(io::csv_cell("-3.5") == "-3.5");
    CHECK(io::csv_cell("-1e-4") == "-1e-4");
    CHECK(io::csv_cell("=a,b") == "\"'=a,b\"");
}
