// Hostile files, whatever command reads them: JSON nested 100,000 deep (the recursion in
// serialising it overflowed the stack), JSON with a key twice or a NUL byte (read silently), a
// FIFO, /dev/zero, /dev/urandom, a directory and a file over the size limit (they hung or grew to
// gigabytes). Each is refused with exit 2 and one sentence naming the file, before anything is
// stored, with memory bounded.
#include "bad_input_support.h"

#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>

namespace {

using namespace cp::test;
using json = nlohmann::json;
namespace fs = std::filesystem;

constexpr std::size_t kDeep = 100000;

// Every command that reads a file the user names, {file} standing for it.
std::vector<std::vector<std::string>> file_readers() {
    return {
        {"simulate", "{file}"},
        {"sweep", "{file}", "--threads", "1"},
        {"recommend", "{file}"},
        {"serve", "{file}"},
        {"catalog", "import", "{file}"},
        {"catalog", "import", "{file}", "--format", "aws-spot-history"},
        {"catalog", "import", "{file}", "--format", "aws-price-list"},
        {"calibrate", "import", "{file}"},
    };
}

std::vector<std::string> with_file(const std::vector<std::string>& argv, const std::string& file) {
    std::vector<std::string> out;
    for (const auto& a : argv)
        out.push_back(a == "{file}" ? file : a);
    return out;
}

void expect_refused(const Sandbox& box, const std::string& path,
                    const std::vector<std::string>& mentions) {
    for (const auto& argv : file_readers()) {
        const std::string before = box.stored_data();
        const CliResult r = run_cli(with_file(argv, path));
        INFO(argv[0] << " " << argv[1] << " on " << path << ": exit " << r.code
                     << ", stderr: " << r.err);
        check_rejected(box, r, before, fs::path(path).filename().string(), mentions);
    }
}

} // namespace

TEST_CASE("JSON nested 100,000 deep is refused by every JSON reader",
          "[cli][bad-input][hostile-files]") {
    Sandbox box;
    REQUIRE(run_cli({"catalog", "list"}).code == 0);
    const std::vector<Case> cases = {
        {"deep scenario value",
         "deep-scenario.json",
         with(base_scenario().dump(), "\"bad-input baseline\"", nested_json(kDeep)),
         {"nests deeper than 64"}},
        {"deep probe document",
         "deep-probe.json",
         R"({"schema": "clusterplan.probe/1", "gemm": )" + nested_json(kDeep) + "}",
         {"nests deeper than 64"}},
        {"deep nccl-tests JSON",
         "deep-nccl.json",
         R"({"results": )" + nested_json(kDeep) + "}",
         {"nests deeper than 64"}},
        {"deep spot price history",
         "deep-history.json",
         R"({"SpotPriceHistory": )" + nested_json(kDeep) + "}",
         {"nests deeper than 64"}},
        {"deep object chain",
         "deep-objects.json",
         std::string(kDeep, '{'),
         {"nests deeper than 64"}},
    };
    for (const Case& c : cases) {
        expect_rejected(box, c, {"simulate", "{file}"});
        expect_rejected(box, c, {"calibrate", "import", "{file}", "--json"});
        expect_rejected(box, c, {"catalog", "import", "{file}", "--format", "aws-spot-history"});
    }
    // 64 levels is the bound, not 63: a document nested exactly that deep still parses (and is
    // then rejected for what it says, not for its depth).
    const fs::path at_limit =
        box.write("at-limit.json",
                  with(base_scenario().dump(), "\"bad-input baseline\"", nested_json(63, "\"x\"")));
    const CliResult r = run_cli({"simulate", at_limit.string()});
    CHECK(r.code == 2);
    CHECK(r.err.find("nests deeper") == std::string::npos);
    CHECK(r.err.find("name") != std::string::npos);
}

TEST_CASE("a key given twice or a NUL byte is refused by every JSON reader",
          "[cli][bad-input][hostile-files]") {
    Sandbox box;
    REQUIRE(run_cli({"catalog", "list"}).code == 0);
    const std::string scenario = base_scenario().dump();
    // The parser kept the last of two keys and stopped reading at a NUL byte: `"tp": 8, "tp": 4`
    // was planned with tp 4 and refused for dp, and a file cut by a NUL was read up to it.
    const std::vector<Case> scenarios = {
        {"tp given twice",
         "twice.json",
         with(scenario, "\"tp\":8", "\"tp\":8,\"tp\":4"),
         {"parallel.tp", "twice"}},
        {"NUL then garbage", "nul.json", scenario + std::string("\0{\"x\":", 6), {"NUL byte"}},
    };
    for (const Case& c : scenarios) {
        expect_rejected(box, c, {"simulate", "{file}"});
        expect_rejected(box, c, {"recommend", "{file}", "--json"});
    }
    const std::vector<Case> imports = {
        {"nccl-tests JSON with a key twice",
         "twice-nccl.json",
         R"({"results": [{"size": 8, "size": 16}]})",
         {"results[].size", "twice"}},
        {"spot price history with a key twice",
         "twice-history.json",
         R"({"SpotPriceHistory": [], "SpotPriceHistory": []})",
         {"SpotPriceHistory", "twice"}},
        {"spot price feed with a key twice",
         "twice-feed.json",
         R"({"config": {"regions": [], "regions": []}})",
         {"config.regions", "twice"}},
    };
    expect_rejected(box, imports[0], {"calibrate", "import", "{file}", "--json"});
    expect_rejected(box, imports[1],
                    {"catalog", "import", "{file}", "--format", "aws-spot-history"});
    expect_rejected(box, imports[2], {"catalog", "import", "{file}", "--format", "aws-spot-feed"});
}

TEST_CASE("a FIFO, devices and directories are refused before a byte is read",
          "[cli][bad-input][hostile-files]") {
    Sandbox box;
    REQUIRE(run_cli({"catalog", "list"}).code == 0);
    const fs::path fifo = box.files_dir() / "pipe.json";
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    // With no writer, opening the FIFO for reading used to block forever.
    expect_refused(box, fifo.string(), {"pipe"});
    expect_refused(box, "/dev/zero", {"character device"});
    expect_refused(box, "/dev/urandom", {"character device"});
    expect_refused(box, box.files_dir().string(), {"directory"});
}

TEST_CASE("files over the 64 MiB limit are refused by their size, not read",
          "[cli][bad-input][hostile-files]") {
    Sandbox box;
    REQUIRE(run_cli({"catalog", "list"}).code == 0);
    // Sparse: 1 GiB + 1 byte of file without 1 GiB of disk. The price-list limit is 1 GiB.
    const fs::path huge = box.files_dir() / "huge.json";
    { std::ofstream(huge) << "{"; }
    fs::resize_file(huge, (std::uintmax_t{1} << 30) + 1);
    expect_refused(box, huge.string(), {"limit"});
    const fs::path big = box.write("big.csv", "x");
    fs::resize_file(big, (std::uintmax_t{64} << 20) + 1);
    for (const auto& argv :
         {std::vector<std::string>{"simulate", big.string()},
          std::vector<std::string>{"calibrate", "import", big.string()},
          std::vector<std::string>{"catalog", "import", big.string(), "--format", "csv"}}) {
        const std::string before = box.stored_data();
        const CliResult r = run_cli(argv);
        INFO(argv[0] << ": " << r.err);
        check_rejected(box, r, before, "big.csv", {"64 MiB"});
    }
}

TEST_CASE("the real binary refuses a 1 GiB file and /dev/zero within 1 GiB of address space",
          "[cli][bad-input][hostile-files][binary]") {
    Sandbox box;
    const std::string app = CLUSTERPLAN_APP_BINARY;
    REQUIRE(run_program(app, {"catalog", "list"}, box.files_dir()).code == 0);
    const fs::path huge = box.files_dir() / "huge.json";
    { std::ofstream(huge) << "{"; }
    fs::resize_file(huge, std::uintmax_t{1} << 30);
    for (const auto& argv : {std::vector<std::string>{"simulate", huge.string()},
                             std::vector<std::string>{"catalog", "import", huge.string()},
                             std::vector<std::string>{"simulate", "/dev/zero"},
                             std::vector<std::string>{"calibrate", "import", "/dev/urandom"}}) {
        // Memory bounded: the program runs with 1 GiB of address space, so reading the file (or
        // the endless device) would fail with an allocation error instead of the refusal. The
        // sanitizers reserve far more address space up front, so they run without the limit.
#if defined(__SANITIZE_ADDRESS__)
        std::vector<std::string> args = argv;
        const std::string program = app;
#else
        std::vector<std::string> args = {"-c", "ulimit -v 1048576 && exec \"$0\" \"$@\"", app};
        args.insert(args.end(), argv.begin(), argv.end());
        const std::string program = "/bin/sh";
#endif
        const CliResult r = run_program(program, args, box.data_dir());
        INFO(argv[0] << " " << argv[1] << ": exit " << r.code << ", stderr: " << r.err);
        CHECK(r.code == 2);
        CHECK(line_count(r.err) == 1);
        CHECK((r.err.find("limit") != std::string::npos ||
               r.err.find("character device") != std::string::npos));
        CHECK(r.err.find("alloc") == std::string::npos);
    }
}
