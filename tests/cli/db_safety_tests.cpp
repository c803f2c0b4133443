// Database safety end to end (issue 7), through the real `clusterplan` binary:
//  - kill -9 in the middle of an import leaves a healthy database holding either the old data
//    or the complete import, never a part of it;
//  - readers keep working (no "database is locked") while another process imports;
//  - kill -9 in the middle of `catalog refresh` (a download stalled half-way) changes nothing,
//    and the next refresh imports normally;
//  - a corrupt database file at start-up is reported (exit 2, naming the file and the way out),
//    left untouched, and `catalog rebuild` keeps it as a backup before starting afresh.
#include "cli_sandbox.h"
#include "local_http_server.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <string>
#include <thread>
#include <vector>

namespace {

using cp::test::CliResult;
using cp::test::read_bytes;
using cp::test::run_cli;
using cp::test::Sandbox;
namespace fs = std::filesystem;

// A valid SkyPilot vms.csv large enough that importing it takes a noticeable time.
std::string big_skypilot_csv() {
    const std::vector<std::string> types = {"p4d.24xlarge", "p5.48xlarge", "g5.xlarge",
                                            "g5.12xlarge",  "g4dn.xlarge", "trn1.32xlarge",
                                            "p3.16xlarge",  "g6.xlarge"};
    const std::vector<std::string> regions = {"us-east-1",      "us-west-2",    "eu-west-1",
                                              "ap-northeast-1", "eu-central-1", "us-east-2"};
    std::string csv = "InstanceType,AcceleratorName,AcceleratorCount,vCPUs,MemoryGiB,GpuInfo,Price,"
                      "SpotPrice,Region,AvailabilityZone\n";
    for (int i = 0; i < 20000; ++i) {
        const std::string& region = regions[static_cast<std::size_t>(i) % regions.size()];
        const std::string zone = region + "abcdef"[(i / 6) % 6];
        for (const auto& type : types) {
            csv += type + ",X,1,4,16,," + std::to_string(1.0 + i * 1e-4) + "," +
                   std::to_string(0.5 + i * 1e-4) + "," + region + "," + zone + "\n";
        }
    }
    return csv;
}

pid_t spawn_app(const std::vector<std::string>& argv, const fs::path& scratch) {
    std::vector<std::string> args{CLUSTERPLAN_APP_BINARY};
    args.insert(args.end(), argv.begin(), argv.end());
    std::vector<char*> c_args;
    for (auto& a : args)
        c_args.push_back(a.data());
    c_args.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    const fs::path log = scratch / "spawned.log";
    posix_spawn_file_actions_addopen(&actions, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0600);
    pid_t pid = -1;
    const int rc =
        posix_spawn(&pid, CLUSTERPLAN_APP_BINARY, &actions, nullptr, c_args.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    REQUIRE(rc == 0);
    return pid;
}

// Each sandbox's database records when it was created (meta.created_at); two databases made
// seconds apart differ there and nowhere else, so that row is left out of the comparison.
std::string without_creation_time(const std::string& dump) {
    std::string kept;
    std::size_t start = 0;
    while (start < dump.size()) {
        const std::size_t end = dump.find('\n', start);
        const std::size_t stop = end == std::string::npos ? dump.size() : end + 1;
        if (dump.compare(start, 13, "'created_at',") != 0) kept.append(dump, start, stop - start);
        start = stop;
    }
    return kept;
}

int wait_exit(pid_t pid) {
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

} // namespace

TEST_CASE("kill -9 during an import leaves the old data or the whole import", "[cli][db-safety]") {
    const std::string csv = big_skypilot_csv();
    // The database as a completed import leaves it.
    std::string imported;
    {
        Sandbox reference;
        REQUIRE(run_cli({"catalog", "list"}).code == 0);
        const fs::path file = reference.write("vms.csv", csv);
        REQUIRE(run_cli({"catalog", "import", file.string(), "--format", "skypilot", "--as-of",
                         "2025-06-01"})
                    .code == 0);
        imported = without_creation_time(reference.stored_data());
    }
    for (const int delay_ms : {20, 150, 600, 1500}) {
        Sandbox box;
        REQUIRE(run_cli({"catalog", "list"}).code == 0);
        const std::string before = without_creation_time(box.stored_data());
        REQUIRE(before != imported);
        const fs::path file = box.write("vms.csv", csv);
        const pid_t pid = spawn_app(
            {"catalog", "import", file.string(), "--format", "skypilot", "--as-of", "2025-06-01"},
            box.files_dir());
        std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
        kill(pid, SIGKILL);
        const int code = wait_exit(pid);
        INFO("killed after " << delay_ms << " ms (exit " << code << ")");
        const cp::catalog::Catalog catalog(box.database());
        CHECK(catalog.integrity_check() == "ok");
        const std::string after = without_creation_time(catalog.dump());
        CHECK((after == before || after == imported));
        // And the next run works normally.
        CHECK(run_cli({"catalog", "list"}).code == 0);
    }
}

TEST_CASE("kill -9 during a catalog refresh changes nothing", "[cli][db-safety][refresh]") {
    const fs::path mirror = fs::path(CLUSTERPLAN_TEST_DATA_DIR) / "catalog" / "refresh";
    Sandbox box;
    REQUIRE(run_cli({"catalog", "list"}).code == 0);
    const std::string before = box.stored_data();
    auto args = [](const std::string& base) {
        return std::vector<std::string>{"catalog",   "refresh",   "--base-url",  base,
                                        "--region",  "us-east-1", "--region",    "us-west-2",
                                        "--timeout", "30",        "--no-aws-cli"};
    };
    {
        cp::test::LocalHttpServer server(mirror);
        // The first region arrives whole; the second stalls half-way until the process dies.
        server.set_mode(cp::test::LocalHttpServer::Mode::stall, "us-west-2");
        const pid_t pid = spawn_app(args(server.base_url()), box.files_dir());
        // Killed once the stalled download has started (the server has seen both price lists).
        for (int i = 0; i < 500 && server.requests() < 2; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        CHECK(server.requests() == 2);
        kill(pid, SIGKILL);
        CHECK(wait_exit(pid) == 128 + SIGKILL);
    }
    const cp::catalog::Catalog catalog(box.database());
    CHECK(catalog.integrity_check() == "ok");
    CHECK(catalog.dump() == before);
    // The next refresh clears what the killed one left behind and imports normally.
    const cp::test::LocalHttpServer server(mirror);
    const CliResult again = run_cli(args(server.base_url()));
    INFO(again.err);
    CHECK(again.code == 0);
    CHECK(box.stored_data() != before);
}

TEST_CASE("readers keep working while another process imports", "[cli][db-safety]") {
    Sandbox box;
    REQUIRE(run_cli({"catalog", "list"}).code == 0);
    const fs::path file = box.write("vms.csv", big_skypilot_csv());
    const pid_t pid = spawn_app(
        {"catalog", "import", file.string(), "--format", "skypilot", "--as-of", "2025-06-01"},
        box.files_dir());
    int reads = 0;
    int failures = 0;
    std::string first_failure;
    int status = 0;
    while (waitpid(pid, &status, WNOHANG) == 0) {
        const CliResult r = run_cli({"catalog", "show", "p4d.24xlarge", "--json"});
        ++reads;
        if (r.code != 0) {
            if (failures++ == 0) first_failure = r.err;
        }
    }
    INFO("reads: " << reads << ", first failure: " << first_failure);
    CHECK(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 0);
    CHECK(reads > 0);
    CHECK(failures == 0);
}

TEST_CASE("a corrupt database is reported, kept, and rebuilt only on request", "[cli][db-safety]") {
    Sandbox box;
    REQUIRE(run_cli({"catalog", "list"}).code == 0);
    const std::string healthy = read_bytes(box.database());
    const std::vector<std::pair<std::string, std::string>> damages = {
        {"garbage", std::string("this is not a database\n") + std::string(8192, '\x5a')},
        {"truncated to its first page", healthy.substr(0, 4096)},
        {"zero bytes in the middle",
         healthy.substr(0, 4096) + std::string(healthy.size() - 4096, '\0')},
    };
    for (const auto& [label, bytes] : damages) {
        INFO("damage: " << label);
        for (const auto& entry : fs::directory_iterator(box.data_dir()))
            fs::remove_all(entry.path());
        {
            std::ofstream out(box.database(), std::ios::binary);
            out << bytes;
        }
        const CliResult r =
            cp::test::run_program(CLUSTERPLAN_APP_BINARY, {"catalog", "list"}, box.files_dir());
        INFO("stderr: " << r.err);
        CHECK(r.code == 2);
        CHECK(cp::test::line_count(r.err) == 1);
        CHECK(r.err.find("catalog.sqlite") != std::string::npos);
        CHECK(r.err.find("rebuild") != std::string::npos);
        CHECK(read_bytes(box.database()) == bytes); // never touched without being asked

        const CliResult rebuilt = run_cli({"catalog", "rebuild"});
        INFO("rebuild: " << rebuilt.out << rebuilt.err);
        CHECK(rebuilt.code == 0);
        bool backup_kept = false;
        for (const auto& entry : fs::directory_iterator(box.data_dir())) {
            const std::string name = entry.path().filename().string();
            if (name.rfind("catalog.sqlite.corrupt-", 0) == 0 && read_bytes(entry.path()) == bytes)
                backup_kept = true;
        }
        CHECK(backup_kept);
        CHECK(run_cli({"catalog", "list"}).code == 0);
    }
}
