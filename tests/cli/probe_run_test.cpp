// `clusterplan probe run` end to end without a network: a fake `ssh` first on PATH runs the
// remote commands locally, a fake nvidia-smi reports GPUs and a fake probe prints a fixture.
#include "cli.h"
#include "clusterplan/remote/launch.h"
#include "clusterplan/remote/probe_runner.h"
#include "clusterplan/remote/sha256.h"
#include "fake_remote_env.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>

namespace fs = std::filesystem;

using namespace cp::test;

TEST_CASE("sha256 matches the FIPS 180-4 test vectors", "[remote]") {
    using cp::remote::sha256_hex;
    CHECK(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    CHECK(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    CHECK(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
          "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    CHECK(sha256_hex(std::string(1000000, 'a')) ==
          "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("probe run uploads, launches, collects and stores through ssh", "[remote][cli]") {
    FakeRemote fake;
    setenv("FAKE_SSH_BANNER", "Welcome to gpu-node-1 (login banner on stdout)", 1);
    const Run r = run({"probe", "run", "--host", "gpu-node-1", "--probe", kFakeProbe, "--instance",
                       "p4d.24xlarge", "--name", "node1", "--json"});
    INFO(r.err);
    REQUIRE(r.rc == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["stored"] == true);
    CHECK(j["name"] == "node1");
    CHECK(j["source"] == "probe");
    CHECK(j["instance_type"] == "p4d.24xlarge");
    CHECK(j["hosts"][0]["uploaded"] == true);
    CHECK(j["hosts"][0]["driver"] == "580.65.06");
    const std::string sha = cp::remote::sha256_file_hex(kFakeProbe);
    CHECK(j["probe_sha256"] == sha);
    // Content-addressed copy on the "remote" side, byte-identical; no run files left behind.
    const fs::path cached = fake.cache() / ("probe-" + sha);
    REQUIRE(fs::exists(cached));
    CHECK(slurp(cached) == slurp(kFakeProbe));
    for (const auto& e : fs::directory_iterator(fake.cache()))
        CHECK(e.path().filename().string().rfind("probe-", 0) == 0);
    // Progress was streamed from the remote probe's stderr.
    CHECK_THAT(r.err,
               Catch::Matchers::Contains("[gpu-node-1] probe: clusterplan-probe: gemm bf16"));
    CHECK_THAT(r.err, Catch::Matchers::Contains("[gpu-node-1] upload: verified sha256"));
    // Every ssh call was BatchMode to the named host.
    const std::string log = slurp(fake.log());
    CHECK(log.find("gpu-node-1\t") == 0);
    const auto list = nlohmann::json::parse(run({"calibrate", "list", "--json"}).out);
    REQUIRE(list["calibrations"].size() == 1);
    CHECK(list["calibrations"][0]["name"] == "node1");

    // A second run finds the cached binary and does not upload again.
    const Run again =
        run({"probe", "run", "--host", "gpu-node-1", "--probe", kFakeProbe, "--json"});
    REQUIRE(again.rc == 0);
    CHECK(nlohmann::json::parse(again.out)["hosts"][0]["uploaded"] == false);
    CHECK_THAT(again.err, Catch::Matchers::Contains("already cached"));
}

TEST_CASE("multi-host probe runs one process per host with NCCL_COMM_ID of host 0",
          "[remote][cli]") {
    FakeRemote fake;
    const Run r = run({"probe", "run", "--host", "alice@node-a", "--host", "node-b", "--probe",
                       kFakeProbe, "--port", "31000"});
    INFO(r.err);
    REQUIRE(r.rc == 0);
    CHECK_THAT(r.err, Catch::Matchers::Contains("[alice@node-a] probe: clusterplan-probe: rank 0/2 "
                                                "command all NCCL_COMM_ID=node-a:31000"));
    CHECK_THAT(
        r.err,
        Catch::Matchers::Contains(
            "[node-b] probe: clusterplan-probe: rank 1/2 command all NCCL_COMM_ID=node-a:31000"));
    CHECK_THAT(r.out, Catch::Matchers::Contains("Stored as calibration 'node-a-probe-"));
}

TEST_CASE("hostile host names are rejected before anything runs", "[remote][cli][security]") {
    FakeRemote fake;
    for (const std::string host :
         {"h;rm -rf ~", "$(id)", "`id`", "a b", "-oProxyCommand=touch /tmp/x", "h|id", "h&id",
          "h>x", "../x", "h\nid", "'h'", "\"h\"", "h\\x", "user@", "@h", ""}) {
        INFO(host);
        const Run r = run({"probe", "run", "--host", host, "--probe", kFakeProbe});
        CHECK(r.rc == 2);
        CHECK_THAT(r.err, Catch::Matchers::Contains("is not a valid host name"));
        CHECK_FALSE(cp::remote::is_valid_host(host));
    }
    CHECK_FALSE(fs::exists(fake.log())); // ssh was never started
    CHECK(nlohmann::json::parse(run({"calibrate", "list", "--json"}).out)["calibrations"].empty());
    CHECK_THROWS_AS(cp::remote::ssh_argv({}, "$(id)", "true"), std::invalid_argument);
    CHECK_THROWS_AS(cp::remote::mpirun_argv({"ok", "h;id"}, {}), std::invalid_argument);
    CHECK(cp::remote::is_valid_host("ubuntu@ip-10-0-0-12.ec2.internal"));
    CHECK(cp::remote::is_valid_host("10.0.0.12"));
}

TEST_CASE("incompatible hosts get a clear message and nothing is stored", "[remote][cli]") {
    FakeRemote fake;
    setenv("FAKE_GPU_NAME", "Tesla V100-SXM2-16GB", 1);
    Run r = run({"probe", "run", "--host", "p3-node", "--probe", kFakeProbe});
    CHECK(r.rc == 2);
    CHECK_THAT(r.err, Catch::Matchers::Contains("V100") && Catch::Matchers::Contains("CUDA 13") &&
                          Catch::Matchers::Contains("calibrate import"));
    unsetenv("FAKE_GPU_NAME");
    // A P3 instance type is refused from the catalog, before ssh is started at all.
    setenv("FAKE_SSH_UNREACHABLE", "p3-host", 1);
    for (const char* p3 : {"p3.16xlarge", "p3dn.24xlarge"}) {
        r = run({"probe", "run", "--host", "p3-host", "--instance", p3, "--probe", kFakeProbe});
        CHECK(r.rc == 2);
        CHECK_THAT(
            r.err,
            Catch::Matchers::Contains("V100") && Catch::Matchers::Contains("CUDA 13") &&
                Catch::Matchers::Contains("calibrate import FILE --instance " + std::string(p3)) &&
                !Catch::Matchers::Contains("cannot reach"));
    }
    unsetenv("FAKE_SSH_UNREACHABLE");
    setenv("FAKE_DRIVER", "535.183.01", 1);
    r = run({"probe", "run", "--host", "old-driver", "--probe", kFakeProbe});
    CHECK(r.rc == 2);
    CHECK_THAT(r.err,
               Catch::Matchers::Contains("driver 535.183.01") && Catch::Matchers::Contains("580"));
    unsetenv("FAKE_DRIVER");
    setenv("FAKE_SSH_UNREACHABLE", "down-node", 1);
    r = run({"probe", "run", "--host", "down-node", "--probe", kFakeProbe});
    CHECK(r.rc == 2);
    CHECK_THAT(r.err, Catch::Matchers::Contains("cannot reach host down-node"));
    CHECK_FALSE(fs::exists(fake.cache()));
    CHECK(nlohmann::json::parse(run({"calibrate", "list", "--json"}).out)["calibrations"].empty());
    CHECK(run({"probe", "run", "--host", "x", "--probe", "/nonexistent/probe"}).rc == 2);
    CHECK(run({"probe", "run", "--host", "x", "--launcher", "telnet", "--probe", kFakeProbe}).rc ==
          1);
    CHECK(run({"probe", "run"}).rc == 1);
}

TEST_CASE("cancel stops the local client and the remote probe", "[remote]") {
    FakeRemote fake;
    setenv("FAKE_PROBE_SLEEP", "30", 1);
    cp::remote::RunOptions opt;
    opt.hosts = {"gpu-node-1"};
    opt.probe_path = kFakeProbe;
    cp::remote::ProbeRunner runner(opt);
    std::atomic<bool> probe_started{false};
    std::thread canceller([&] {
        for (int i = 0; i < 200 && !probe_started; ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        std::this_thread::sleep_for(std::chrono::milliseconds(200));
        runner.cancel();
    });
    const auto t0 = std::chrono::steady_clock::now();
    CHECK_THROWS_WITH(runner.run([&](const cp::remote::ProgressEvent& e) {
        if (e.stage == "probe") probe_started = true;
    }),
                      Catch::Matchers::Contains("cancelled"));
    canceller.join();
    unsetenv("FAKE_PROBE_SLEEP");
    CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(15));
    REQUIRE(probe_started);
    const pid_t pid = std::stoi(slurp(fake.root / "home/fake-probe.pid"));
    std::this_thread::sleep_for(std::chrono::milliseconds(300));
    CHECK_FALSE(process_running(pid)); // the probe process is gone
    for (const auto& e : fs::directory_iterator(fake.cache()))
        CHECK(e.path().filename().string().rfind("run-", 0) != 0); // pid file cleaned up
    // The cancel command went to the host.
    CHECK_THAT(slurp(fake.log()), Catch::Matchers::Contains("kill -TERM"));
}

TEST_CASE("mpirun and srun launchers build argv for those engines", "[remote]") {
    cp::remote::RankLaunch l;
    l.sha256_hex = std::string(64, 'a');
    l.gpus = 4;
    l.comm_id = "node-a:29517";
    const auto m = cp::remote::mpirun_argv({"node-a", "bob@node-b"}, l);
    REQUIRE(m.size() >= 10);
    CHECK(m[0] == "mpirun");
    CHECK(m[2] == "2");
    CHECK(m[4] == "node-a,node-b");
    CHECK(std::find(m.begin(), m.end(), "NCCL_COMM_ID=node-a:29517") != m.end());
    CHECK(m.back() ==
          "exec \"$HOME/.cache/clusterplan/probe-" + l.sha256_hex + "\" 'all' --gpus 4");
    const auto s = cp::remote::srun_argv({"node-a", "node-b"}, l);
    CHECK(s[0] == "srun");
    CHECK(std::find(s.begin(), s.end(), "--nodelist=node-a,node-b") != s.end());
    CHECK(std::find(s.begin(), s.end(), "--ntasks-per-node=1") != s.end());
    l.probe_command = "all; rm -rf ~";
    CHECK_THROWS_AS(cp::remote::mpirun_argv({"node-a"}, l), std::invalid_argument);
    CHECK(cp::remote::shell_quote("it's") == "'it'\\''s'");
}

TEST_CASE("mpirun and srun launchers run the uploaded probe once per host", "[remote][cli]") {
    FakeRemote fake;
    for (const char* launcher : {"mpirun", "srun"}) {
        INFO(launcher);
        const Run r = run({"probe", "run", "--launcher", launcher, "--host", "node-a", "--host",
                           "node-b", "--probe", kFakeProbe, "--gpus", "8", "--json"});
        INFO(r.err);
        REQUIRE(r.rc == 0);
        CHECK(nlohmann::json::parse(r.out)["source"] == "probe");
        CHECK_THAT(r.err,
                   Catch::Matchers::Contains("rank 0/2 command all NCCL_COMM_ID=node-a:29517"));
        CHECK_THAT(r.err,
                   Catch::Matchers::Contains("rank 1/2 command all NCCL_COMM_ID=node-a:29517"));
        CHECK_THAT(slurp(fake.log()),
                   Catch::Matchers::Contains(std::string(launcher) +
                                             "\tsh -c exec \"$HOME/.cache/clusterplan/probe-"));
    }
    CHECK(nlohmann::json::parse(run({"calibrate", "list", "--json"}).out)["calibrations"].size() ==
          2);
}
