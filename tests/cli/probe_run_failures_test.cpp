// `clusterplan probe run` and `calibrate import` when things go wrong on a real cluster: output
// around the document, failed sections, a failing rank, missing libraries, terminal escapes,
// NCCL/EFA settings that must reach every rank, a host that is another instance type.
#include "cli.h"
#include "fake_remote_env.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace cp::test;
using Catch::Matchers::Contains;

namespace {

const std::string kFailedDoc =
    std::string(CLUSTERPLAN_TEST_DATA_DIR) + "/calibration/probe_failed_nccl.json";
const std::string kSocketDoc =
    std::string(CLUSTERPLAN_TEST_DATA_DIR) + "/calibration/probe_p4d_2node_socket.json";

std::size_t stored_profiles() {
    return nlohmann::json::parse(run({"calibrate", "list", "--json"}).out)["calibrations"].size();
}

} // namespace

TEST_CASE("a banner and NCCL output before the document still parse", "[remote][cli]") {
    FakeRemote fake;
    setenv("FAKE_SSH_BANNER", "Welcome {to} the cluster", 1);
    setenv("FAKE_PROBE_NOISE", "1", 1);
    const Run r = run({"probe", "run", "--host", "gpu-node-1", "--probe", kFakeProbe, "--json"});
    INFO(r.err);
    REQUIRE(r.rc == 0);
    CHECK(nlohmann::json::parse(r.out)["host"] == "dgx-a100-01");
}

TEST_CASE("a probe run with a failed section is refused, or stored with the failure visible",
          "[remote][cli]") {
    FakeRemote fake;
    setenv("FAKE_PROBE_JSON", kFailedDoc.c_str(), 1);
    setenv("FAKE_PROBE_EXIT", "3", 1);
    Run r = run({"probe", "run", "--host", "gpu-node-1", "--probe", kFakeProbe, "--name", "half"});
    CHECK(r.rc == 2);
    CHECK_THAT(r.err, Contains("reported 1 error(s) in nccl") && Contains("nothing was stored") &&
                          Contains("--allow-partial"));
    CHECK(stored_profiles() == 0);
    r = run({"probe", "run", "--host", "gpu-node-1", "--probe", kFakeProbe, "--name", "half",
             "--allow-partial"});
    INFO(r.err);
    REQUIRE(r.rc == 0);
    CHECK_THAT(r.out, Contains("probe error: nccl: communicator initialisation"));
    const Run show = run({"calibrate", "show", "half", "--json"});
    const auto j = nlohmann::json::parse(show.out);
    REQUIRE(j["errors"].size() == 1);
    CHECK_THAT(j["errors"][0].get<std::string>(), Contains("NCCL_COMM_ID=node-a:29517"));
    CHECK_THAT(run({"calibrate", "show", "half"}).out, Contains("probe error: nccl:"));
}

TEST_CASE("calibrate import refuses a failed probe document unless --allow-partial",
          "[cli][calibration]") {
    FakeRemote fake;
    Run r = run({"calibrate", "import", kFailedDoc});
    CHECK(r.rc == 2);
    CHECK_THAT(r.err, Contains("probe_failed_nccl.json: the probe reported 1 error(s) in nccl"));
    CHECK(stored_profiles() == 0);
    r = run({"calibrate", "import", kFailedDoc, "--allow-partial", "--json"});
    REQUIRE(r.rc == 0);
    CHECK(nlohmann::json::parse(r.out)["errors"].size() == 1);
}

TEST_CASE("the host's DMI instance type is checked against --instance and recorded",
          "[cli][calibration]") {
    FakeRemote fake;
    Run r = run({"calibrate", "import", kSocketDoc, "--instance", "p4de.24xlarge"});
    CHECK(r.rc == 2);
    CHECK_THAT(r.err, Contains("--instance p4de.24xlarge but the probe ran on a p4d.24xlarge"));
    CHECK(stored_profiles() == 0);
    r = run({"calibrate", "import", kSocketDoc, "--json"});
    INFO(r.err);
    REQUIRE(r.rc == 0);
    const auto j = nlohmann::json::parse(r.out);
    CHECK(j["instance_type"] == "p4d.24xlarge");
    CHECK(j["inter_node_transport"] == "socket");
}

TEST_CASE("one failing rank is named with its reason", "[remote][cli]") {
    FakeRemote fake;
    setenv("FAKE_PROBE_FAIL_RANK", "1", 1);
    Run r = run({"probe", "run", "--host", "node-a", "--host", "node-b", "--probe", kFakeProbe});
    CHECK(r.rc == 2);
    CHECK_THAT(r.err,
               Contains("probe rank 1 on host node-b failed (exit 2): nccl: ncclCommInitRank"));
    for (const char* launcher : {"mpirun", "srun"}) {
        r = run({"probe", "run", "--launcher", launcher, "--host", "node-a", "--host", "node-b",
                 "--probe", kFakeProbe});
        CHECK(r.rc == 2);
        CHECK_THAT(r.err, Contains("probe rank 1 failed (exit 2): nccl: ncclCommInitRank"));
    }
    CHECK(stored_profiles() == 0);
}

TEST_CASE("the pre-flight finds a missing libnccl before uploading", "[remote][cli]") {
    FakeRemote fake;
    setenv("FAKE_MISSING_LIBS", "libnccl.so.2", 1);
    // Not in the toolkit directory either (this machine may have CUDA where CI does not).
    setenv("CUDA_HOME", "/nonexistent", 1);
    const char* ld_path = std::getenv("LD_LIBRARY_PATH");
    const std::string saved_ld_path = ld_path ? ld_path : "";
    unsetenv("LD_LIBRARY_PATH");
    const Run r = run({"probe", "run", "--host", "gpu-node-1", "--probe", kFakeProbe});
    CHECK(r.rc == 2);
    CHECK_THAT(r.err,
               Contains("host gpu-node-1 lacks libnccl.so.2") && Contains("LD_LIBRARY_PATH"));
    CHECK_FALSE(std::filesystem::exists(fake.cache()));
    unsetenv("CUDA_HOME");
    if (ld_path) setenv("LD_LIBRARY_PATH", saved_ld_path.c_str(), 1);
}

TEST_CASE("terminal escapes from remote output never reach the terminal", "[remote][cli]") {
    FakeRemote fake;
    setenv("FAKE_PROBE_ESCAPES", "1", 1);
    const Run r = run({"probe", "run", "--host", "gpu-node-1", "--probe", kFakeProbe});
    INFO(r.err);
    REQUIRE(r.rc == 0);
    CHECK_THAT(r.err, Contains("clusterplan-probe: red done"));
    CHECK(r.err.find('\x1b') == std::string::npos);
    CHECK(r.err.find('\a') == std::string::npos);
}

TEST_CASE("NCCL and EFA settings reach every rank with every launcher", "[remote][cli]") {
    FakeRemote fake;
    setenv("NCCL_SOCKET_IFNAME", "ens5,ens6", 1);
    setenv("FI_PROVIDER", "efa", 1);
    for (const char* launcher : {"ssh", "mpirun", "srun"}) {
        INFO(launcher);
        const Run r = run({"probe", "run", "--launcher", launcher, "--host", "node-a", "--host",
                           "node-b", "--probe", kFakeProbe, "--env",
                           "NCCL_NET_PLUGIN=/opt/aws-ofi-nccl/lib/libnccl-net.so", "--instance",
                           "p4d.24xlarge"});
        INFO(r.err);
        REQUIRE(r.rc == 0);
        CHECK_THAT(
            r.err,
            Contains(
                "args all --instance p4d.24xlarge NCCL_SOCKET_IFNAME=ens5,ens6 FI_PROVIDER=efa"));
        if (std::string(launcher) == "ssh") CHECK_THAT(r.err, Contains("LOCAL_WORLD_SIZE=1"));
    }
    unsetenv("NCCL_SOCKET_IFNAME");
    unsetenv("FI_PROVIDER");
    // Variables the launch owns, and malformed ones, are refused before anything runs.
    for (const char* bad : {"NCCL_COMM_ID=x:1", "RANK=3", "1BAD=x", "NOEQUALS"}) {
        const Run r =
            run({"probe", "run", "--host", "node-a", "--probe", kFakeProbe, "--env", bad});
        CHECK(r.rc == 2);
    }
}
