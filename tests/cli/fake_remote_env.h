// Shared by the `probe run` tests: a private HOME, data dir and ssh log with the fake remote
// tools (tests/cli/fake_remote) first on PATH, and the CLI run in-process.
#pragma once

#include "cli.h"

#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace cp::test {

inline const std::string kFakeDir = std::string(CLUSTERPLAN_SOURCE_DIR) + "/tests/cli/fake_remote";
inline const std::string kFakeProbe = kFakeDir + "/fake-probe";

inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// A private HOME, data dir and ssh log; PATH starts with the fakes.
struct FakeRemote {
    std::filesystem::path root;
    std::string old_path = std::getenv("PATH") ? std::getenv("PATH") : "";
    std::string old_home = std::getenv("HOME") ? std::getenv("HOME") : "";
    FakeRemote() {
        char tmpl[] = "/tmp/cp-probe-run-XXXXXX";
        root = mkdtemp(tmpl);
        std::filesystem::create_directories(root / "home");
        std::filesystem::create_directories(root / "data");
        setenv("HOME", (root / "home").c_str(), 1);
        setenv("CLUSTERPLAN_DATA_DIR", (root / "data").c_str(), 1);
        setenv("FAKE_SSH_LOG", log().c_str(), 1);
        setenv("FAKE_PROBE_JSON",
               (std::string(CLUSTERPLAN_TEST_DATA_DIR) + "/calibration/probe_a100x8_example.json")
                   .c_str(),
               1);
        setenv("PATH", (kFakeDir + ":" + old_path).c_str(), 1);
        for (const char* v :
             {"FAKE_GPU_NAME", "FAKE_DRIVER", "FAKE_PROBE_SLEEP", "FAKE_SSH_UNREACHABLE",
              "FAKE_SSH_BANNER", "CLUSTERPLAN_PROBE", "FAKE_PROBE_NOISE", "FAKE_PROBE_FAIL_RANK",
              "FAKE_PROBE_EXIT", "FAKE_PROBE_ESCAPES", "FAKE_MISSING_LIBS"})
            unsetenv(v);
    }
    ~FakeRemote() {
        unsetenv("FAKE_SSH_BANNER");
        setenv("PATH", old_path.c_str(), 1);
        setenv("HOME", old_home.c_str(), 1);
        unsetenv("CLUSTERPLAN_DATA_DIR");
        std::error_code ec;
        std::filesystem::remove_all(root, ec);
    }
    std::filesystem::path log() const { return root / "ssh.log"; }
    std::filesystem::path cache() const { return root / "home/.cache/clusterplan"; }
};

// Alive and not a zombie (orphans are reaped by PID 1, which in containers may never happen).
inline bool process_running(pid_t pid) {
    if (kill(pid, 0) != 0) return false;
    const std::string stat = slurp("/proc/" + std::to_string(pid) + "/stat");
    const auto paren = stat.rfind(')');
    return paren != std::string::npos && paren + 2 < stat.size() && stat[paren + 2] != 'Z';
}

struct Run {
    int rc;
    std::string out, err;
};

inline Run run(const std::vector<std::string>& argv) {
    std::ostringstream out, err;
    cp::cli::Io io{out, err};
    const int rc = cp::cli::run(argv, io);
    return {rc, out.str(), err.str()};
}

} // namespace cp::test
