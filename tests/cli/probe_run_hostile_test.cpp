// `probe run` against a hostile remote: output that never ends (it was kept in memory, 4 GB in
// 10 s) and a document nested 100,000 deep (it crashed while being stored). Both exit 2 with one
// sentence, store nothing, and stop the remote.
#include "cli_sandbox.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <cstdlib>

namespace {

namespace fs = std::filesystem;
using cp::test::CliResult;
using cp::test::Sandbox;

const std::string kFakeDir = std::string(CLUSTERPLAN_SOURCE_DIR) + "/tests/cli/fake_remote";

// The fake ssh (tests/cli/fake_remote) runs the "remote" commands locally; the fake probe prints
// FAKE_PROBE_JSON.
struct HostileRemote {
    Sandbox box;
    std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
    std::string old_home = std::getenv("HOME") ? std::getenv("HOME") : "";
    explicit HostileRemote(const std::string& probe_output) {
        fs::create_directories(box.files_dir() / "home");
        setenv("HOME", (box.files_dir() / "home").c_str(), 1);
        setenv("FAKE_SSH_LOG", (box.files_dir() / "ssh.log").c_str(), 1);
        setenv("FAKE_PROBE_JSON", probe_output.c_str(), 1);
        setenv("PATH", (kFakeDir + ":" + old_path).c_str(), 1);
        for (const char* v : {"FAKE_GPU_NAME", "FAKE_DRIVER", "FAKE_PROBE_SLEEP",
                              "FAKE_SSH_UNREACHABLE", "FAKE_SSH_BANNER", "CLUSTERPLAN_PROBE"})
            unsetenv(v);
    }
    ~HostileRemote() {
        setenv("PATH", old_path.c_str(), 1);
        setenv("HOME", old_home.c_str(), 1);
        unsetenv("FAKE_PROBE_JSON");
        unsetenv("FAKE_SSH_LOG");
    }
};

} // namespace

TEST_CASE("probe run stops a remote whose output never ends", "[remote][cli][bad-input]") {
    HostileRemote remote("/dev/zero"); // the fake probe cats it: an endless stream of NUL bytes
    REQUIRE(cp::test::run_cli({"catalog", "list"}).code == 0);
    const std::string before = remote.box.stored_data();
    const auto start = std::chrono::steady_clock::now();
    const CliResult r = cp::test::run_cli(
        {"probe", "run", "--host", "gpu-node-1", "--probe", kFakeDir + "/fake-probe"});
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    INFO(r.err.substr(r.err.size() > 600 ? r.err.size() - 600 : 0));
    CHECK(r.code == 2);
    CHECK(r.err.find("more than 64 MiB") != std::string::npos);
    CHECK(seconds < 60);
    CHECK(remote.box.stored_data() == before);
}

TEST_CASE("probe run refuses a remote document nested 100,000 deep", "[remote][cli][bad-input]") {
    Sandbox scratch;
    const fs::path deep =
        scratch.write("deep.json", R"({"schema": "clusterplan.probe/1", "gemm": )" +
                                       std::string(100000, '[') + std::string(100000, ']') + "}");
    HostileRemote remote(deep.string());
    REQUIRE(cp::test::run_cli({"catalog", "list"}).code == 0);
    const std::string before = remote.box.stored_data();
    const CliResult r = cp::test::run_cli(
        {"probe", "run", "--host", "gpu-node-1", "--probe", kFakeDir + "/fake-probe"});
    INFO(r.err.substr(r.err.size() > 600 ? r.err.size() - 600 : 0));
    CHECK(r.code == 2);
    CHECK(r.err.find("nests deeper than 64") != std::string::npos);
    CHECK(remote.box.stored_data() == before);
}
