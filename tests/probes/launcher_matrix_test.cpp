// `clusterplan-probe --dry-run` under the fake launchers of tests/cli/fake_remote, which set the
// variables real Open MPI, Slurm, torchrun and `clusterplan probe run` over ssh set: every
// process must report the right rank, host count and GPUs. Runs the CUDA-free plan tool, and
// the real probe binary too where CUDA was found (its dry run must not need a driver).
#include "clusterplan/probe/report.h"
#include "clusterplan/remote/launch.h"
#include "clusterplan/remote/process.h"

#include <catch2/catch.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

using nlohmann::json;

namespace {

const std::string kFakeDir = std::string(CLUSTERPLAN_SOURCE_DIR) + "/tests/cli/fake_remote";

std::vector<std::string> probe_binaries() {
    std::vector<std::string> out = {CLUSTERPLAN_PROBE_PLAN_TOOL};
#ifdef CLUSTERPLAN_PROBE_BINARY
    out.push_back(CLUSTERPLAN_PROBE_BINARY);
#endif
    return out;
}

// Runs `argv`, returns every rank's plan keyed by rank.
std::map<int, json> plans_of(const std::vector<std::string>& argv) {
    cp::remote::ProcessJob job;
    job.argv = argv;
    job.timeout = std::chrono::seconds(60);
    const auto r = cp::remote::run_process(job);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto docs = cp::probe::extract_marked_documents(r.out);
    CHECK_FALSE(docs.truncated);
    std::map<int, json> out;
    for (const auto& d : docs.documents) {
        const json j = json::parse(d);
        CHECK(j["schema"] == "clusterplan.probe-plan/1");
        out[j["launch"]["rank"].get<int>()] = j;
    }
    return out;
}

std::vector<std::string> with(std::vector<std::string> argv, const std::string& probe,
                              const std::vector<std::string>& args) {
    argv.push_back(probe);
    argv.insert(argv.end(), args.begin(), args.end());
    return argv;
}

const std::vector<std::string> kDryRun8 = {"all", "--dry-run", "--visible-gpus", "8"};

} // namespace

TEST_CASE("mpirun, 8 ranks per node on 2 nodes: one GPU per rank, 2 hosts", "[probes][launchers]") {
    for (const auto& probe : probe_binaries()) {
        INFO(probe);
        const auto plans = plans_of(with({kFakeDir + "/mpirun", "-np", "16", "--host",
                                          "node-a,node-b", "--map-by", "ppr:8:node"},
                                         probe, kDryRun8));
        REQUIRE(plans.size() == 16);
        for (const auto& [rank, p] : plans) {
            CHECK(p["launch"]["launcher"] == "mpirun");
            CHECK(p["launch"]["local_size"] == 8);
            CHECK(p["launch"]["hosts"] == 2);
            CHECK(p["devices"] == json::array({rank % 8}));
            CHECK(p["binding"] == "partitioned");
            CHECK(p["nccl_ranks"] == 16);
        }
        // Local sections run on rank 0 only.
        CHECK(plans.at(0)["sections"] ==
              json::array({"info", "nccl", "gemm", "membw", "pcie", "p2p"}));
        CHECK(plans.at(5)["sections"] == json::array({"info", "nccl"}));
    }
}

TEST_CASE("mpirun as `probe run` starts it: one rank per node takes all 8 GPUs",
          "[probes][launchers]") {
    cp::remote::RankLaunch l;
    l.sha256_hex = std::string(64, 'a');
    l.comm_id = "node-a:29517";
    auto argv = cp::remote::mpirun_argv({"node-a", "node-b"}, l);
    // The launcher line up to the program, with the plan tool instead of the uploaded probe.
    argv.resize(static_cast<std::size_t>(std::find(argv.begin(), argv.end(), "sh") - argv.begin()));
    argv[0] = kFakeDir + "/mpirun";
    const auto plans = plans_of(with(argv, CLUSTERPLAN_PROBE_PLAN_TOOL, kDryRun8));
    REQUIRE(plans.size() == 2);
    for (const auto& [rank, p] : plans) {
        CHECK(p["launch"]["hosts"] == 2);
        CHECK(p["devices"].size() == 8);
        CHECK(p["binding"] == "all");
        CHECK(p["nccl_ranks"] == 16);
    }
}

TEST_CASE("mpirun, 2 ranks per node with --gpus 4", "[probes][launchers]") {
    const auto plans = plans_of(with(
        {kFakeDir + "/mpirun", "-np", "4", "--host", "node-a,node-b", "--map-by", "ppr:2:node"},
        CLUSTERPLAN_PROBE_PLAN_TOOL, {"nccl", "--dry-run", "--visible-gpus", "8", "--gpus", "4"}));
    REQUIRE(plans.size() == 4);
    CHECK(plans.at(0)["devices"] == json::array({0, 1, 2, 3}));
    CHECK(plans.at(1)["devices"] == json::array({4, 5, 6, 7}));
    CHECK(plans.at(3)["devices"] == json::array({4, 5, 6, 7}));
    CHECK(plans.at(3)["nccl_ranks"] == 16);
}

TEST_CASE("srun, 8 tasks per node on 2 nodes, with and without --gpus-per-task",
          "[probes][launchers]") {
    for (const auto& probe : probe_binaries()) {
        INFO(probe);
        auto plans = plans_of(with(
            {kFakeDir + "/srun", "--nodes=2", "--ntasks-per-node=8", "--nodelist=node-a,node-b"},
            probe, kDryRun8));
        REQUIRE(plans.size() == 16);
        for (const auto& [rank, p] : plans) {
            CHECK(p["launch"]["launcher"] == "slurm");
            CHECK(p["launch"]["hosts"] == 2);
            CHECK(p["devices"] == json::array({rank % 8}));
        }
        // --gpus-per-task=1: each task sees only its GPU (CUDA_VISIBLE_DEVICES) and takes it.
        plans = plans_of(
            with({kFakeDir + "/srun", "--nodes=2", "--ntasks-per-node=8", "--gpus-per-task=1"},
                 probe, {"all", "--dry-run"}));
        REQUIRE(plans.size() == 16);
        for (const auto& [rank, p] : plans) {
            CHECK(p["visible_gpus"] == 1);
            CHECK(p["devices"] == json::array({0}));
            CHECK(p["binding"] == "launcher");
        }
    }
}

TEST_CASE("torchrun, 8 processes per node on 2 nodes", "[probes][launchers]") {
    for (const auto& probe : probe_binaries()) {
        INFO(probe);
        const auto plans = plans_of(
            with({kFakeDir + "/torchrun", "--nnodes=2", "--nproc-per-node=8", "--no-python"}, probe,
                 kDryRun8));
        REQUIRE(plans.size() == 16);
        for (const auto& [rank, p] : plans) {
            CHECK(p["launch"]["launcher"] == "torchrun");
            CHECK(p["launch"]["local_rank"] == rank % 8);
            CHECK(p["launch"]["hosts"] == 2);
            CHECK(p["devices"] == json::array({rank % 8}));
        }
    }
}

TEST_CASE("ssh, as `probe run` starts it: one process per host with all its GPUs",
          "[probes][launchers]") {
    for (int rank = 0; rank < 2; ++rank) {
        cp::remote::RankLaunch l;
        l.rank = rank;
        l.world_size = 2;
        l.comm_id = "node-a:29517";
        const std::string command = "env " + cp::remote::launch_environment(l) + " " +
                                    cp::remote::shell_quote(CLUSTERPLAN_PROBE_PLAN_TOOL) +
                                    " all --dry-run --visible-gpus 8";
        auto argv = cp::remote::ssh_argv({}, rank == 0 ? "node-a" : "node-b", command);
        argv[0] = kFakeDir + "/ssh";
        const auto plans = plans_of(argv);
        REQUIRE(plans.size() == 1);
        const json& p = plans.at(rank);
        CHECK(p["launch"]["launcher"] == "nccl_comm_id");
        CHECK(p["launch"]["hosts"] == 2);
        CHECK(p["devices"] == json::array({0, 1, 2, 3, 4, 5, 6, 7}));
        CHECK(p["nccl_ranks"] == 16);
    }
}

TEST_CASE("too many processes for the host's GPUs is refused before anything runs",
          "[probes][launchers]") {
    cp::remote::ProcessJob job;
    job.argv = with({kFakeDir + "/mpirun", "-np", "8", "--map-by", "ppr:8:node"},
                    CLUSTERPLAN_PROBE_PLAN_TOOL, {"all", "--dry-run", "--visible-gpus", "4"});
    const auto r = cp::remote::run_process(job);
    CHECK(r.exit_code == 1);
    CHECK_THAT(r.err, Catch::Matchers::Contains("8 processes on this host but only 4 GPU(s)"));
}

#ifdef CLUSTERPLAN_PROBE_BINARY
TEST_CASE("the real probe's dry run needs no driver", "[probes][launchers]") {
    cp::remote::ProcessJob job;
    job.argv = {CLUSTERPLAN_PROBE_BINARY, "nccl", "--dry-run", "--quick"};
    const auto r = cp::remote::run_process(job);
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto docs = cp::probe::extract_marked_documents(r.out);
    REQUIRE(docs.documents.size() == 1);
    const json p = json::parse(docs.documents[0]);
    CHECK(p["iterations"]["nccl_timed"] == 5);
    CHECK(p["sections"] == json::array({"info", "nccl"}));
    CHECK_FALSE(p["nccl_sizes"].empty());
}
#endif
