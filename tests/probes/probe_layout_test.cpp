// Launcher environments -> ranks, hosts and the GPUs each probe process takes, as Open MPI,
// Slurm, torchrun and `clusterplan probe run` over ssh set them.
#include "clusterplan/probe/device_plan.h"
#include "clusterplan/probe/launch_env.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>

using namespace cp::probe;

namespace {

struct Env {
    std::map<std::string, std::string> vars;
    EnvLookup lookup() const {
        return [this](const char* name) -> const char* {
            auto it = vars.find(name);
            return it == vars.end() ? nullptr : it->second.c_str();
        };
    }
};

// Devices of every rank of a job, for a host with `visible` GPUs.
std::vector<std::vector<int>> devices_of_all(const std::function<Env(int)>& env_of, int world,
                                             int visible, int gpus = 0) {
    std::vector<std::vector<int>> out;
    for (int r = 0; r < world; ++r) {
        const Env e = env_of(r);
        const LaunchInfo l = detect_launch(e.lookup());
        CHECK(l.rank == r);
        out.push_back(
            plan_devices(visible, l, gpus, e.vars.count("CUDA_VISIBLE_DEVICES") != 0).devices);
    }
    return out;
}

} // namespace

TEST_CASE("mpirun with 8 ranks per node: one GPU each, two hosts", "[probes][launch]") {
    auto env_of = [](int r) {
        return Env{{{"OMPI_COMM_WORLD_SIZE", "16"},
                    {"OMPI_COMM_WORLD_RANK", std::to_string(r)},
                    {"OMPI_COMM_WORLD_LOCAL_RANK", std::to_string(r % 8)},
                    {"OMPI_COMM_WORLD_LOCAL_SIZE", "8"}}};
    };
    const LaunchInfo l = detect_launch(env_of(11).lookup());
    CHECK(l.launcher == "mpirun");
    CHECK(l.local_rank == 3);
    CHECK(l.local_size == 8);
    CHECK(l.hosts == 2);
    const auto devs = devices_of_all(env_of, 16, 8);
    for (int r = 0; r < 16; ++r)
        CHECK(devs[static_cast<std::size_t>(r)] == std::vector<int>{r % 8});
}

TEST_CASE("mpirun with one rank per node takes every GPU of its host", "[probes][launch]") {
    // The old rule gave each node one GPU whenever OMPI_COMM_WORLD_LOCAL_SIZE was set.
    Env e{{{"OMPI_COMM_WORLD_SIZE", "2"},
           {"OMPI_COMM_WORLD_RANK", "1"},
           {"OMPI_COMM_WORLD_LOCAL_RANK", "0"},
           {"OMPI_COMM_WORLD_LOCAL_SIZE", "1"}}};
    const LaunchInfo l = detect_launch(e.lookup());
    CHECK(l.hosts == 2);
    const DevicePlan p = plan_devices(8, l, 0, false);
    CHECK(p.devices == std::vector<int>{0, 1, 2, 3, 4, 5, 6, 7});
    CHECK(p.binding == "all");
}

TEST_CASE("mpirun with 2 ranks per node and --gpus 4 splits the host", "[probes][launch]") {
    auto env_of = [](int r) {
        return Env{{{"OMPI_COMM_WORLD_SIZE", "4"},
                    {"OMPI_COMM_WORLD_RANK", std::to_string(r)},
                    {"OMPI_COMM_WORLD_LOCAL_RANK", std::to_string(r % 2)},
                    {"OMPI_COMM_WORLD_LOCAL_SIZE", "2"}}};
    };
    const auto devs = devices_of_all(env_of, 4, 8, 4);
    CHECK(devs[0] == std::vector<int>{0, 1, 2, 3});
    CHECK(devs[1] == std::vector<int>{4, 5, 6, 7});
    CHECK(devs[3] == std::vector<int>{4, 5, 6, 7});
    CHECK(detect_launch(env_of(0).lookup()).hosts == 2);
    // Asking for more than the host has is refused, not silently shared.
    CHECK_THROWS_WITH(plan_devices(8, detect_launch(env_of(0).lookup()), 5, false),
                      Catch::Matchers::Contains("needs 10 GPUs but 8 are visible"));
}

TEST_CASE("srun with 8 tasks per node on 2 nodes", "[probes][launch]") {
    auto env_of = [](int r) {
        return Env{{{"SLURM_PROCID", std::to_string(r)},
                    {"SLURM_NTASKS", "16"},
                    {"SLURM_LOCALID", std::to_string(r % 8)},
                    {"SLURM_NODEID", std::to_string(r / 8)},
                    {"SLURM_NNODES", "2"},
                    {"SLURM_STEP_TASKS_PER_NODE", "8(x2)"},
                    {"SLURM_TASKS_PER_NODE", "8(x2)"}}};
    };
    const LaunchInfo l = detect_launch(env_of(9).lookup());
    CHECK(l.launcher == "slurm");
    CHECK(l.local_rank == 1);
    CHECK(l.local_size == 8);
    CHECK(l.hosts == 2);
    const auto devs = devices_of_all(env_of, 16, 8);
    for (int r = 0; r < 16; ++r)
        CHECK(devs[static_cast<std::size_t>(r)] == std::vector<int>{r % 8});
}

TEST_CASE("srun --gpus-per-task: each task sees its own GPU", "[probes][launch]") {
    Env e{{{"SLURM_PROCID", "5"},
           {"SLURM_NTASKS", "8"},
           {"SLURM_LOCALID", "5"},
           {"SLURM_NODEID", "0"},
           {"SLURM_STEP_TASKS_PER_NODE", "8"},
           {"CUDA_VISIBLE_DEVICES", "5"}}};
    const LaunchInfo l = detect_launch(e.lookup());
    CHECK(l.hosts == 1);
    const DevicePlan p = plan_devices(1, l, 0, true);
    CHECK(p.devices == std::vector<int>{0});
    CHECK(p.binding == "launcher");
    // Without a per-task CUDA_VISIBLE_DEVICES, 8 tasks on 4 GPUs would share GPUs: refused.
    CHECK_THROWS_WITH(plan_devices(4, l, 0, false), Catch::Matchers::Contains("would share a GPU"));
}

TEST_CASE("Slurm's compressed tasks-per-node lists", "[probes][launch]") {
    CHECK(parse_slurm_tasks_per_node("8(x2),4", "V") == std::vector<int>{8, 8, 4});
    CHECK(parse_slurm_tasks_per_node("1", "V") == std::vector<int>{1});
    CHECK_THROWS_AS(parse_slurm_tasks_per_node("8(x", "V"), UsageError);
    CHECK_THROWS_AS(parse_slurm_tasks_per_node("x,2", "V"), UsageError);
    Env uneven{{{"SLURM_PROCID", "8"},
                {"SLURM_NTASKS", "12"},
                {"SLURM_LOCALID", "0"},
                {"SLURM_NODEID", "2"},
                {"SLURM_STEP_TASKS_PER_NODE", "4(x2),4"}}};
    CHECK(detect_launch(uneven.lookup()).hosts == 3);
}

TEST_CASE("torchrun with 8 processes per node", "[probes][launch]") {
    auto env_of = [](int r) {
        return Env{{{"RANK", std::to_string(r)},
                    {"WORLD_SIZE", "16"},
                    {"LOCAL_RANK", std::to_string(r % 8)},
                    {"LOCAL_WORLD_SIZE", "8"},
                    {"GROUP_RANK", std::to_string(r / 8)},
                    {"TORCHELASTIC_RUN_ID", "none"},
                    {"MASTER_ADDR", "node-a"}}};
    };
    const LaunchInfo l = detect_launch(env_of(15).lookup());
    CHECK(l.launcher == "torchrun");
    CHECK(l.local_rank == 7);
    CHECK(l.hosts == 2);
    const auto devs = devices_of_all(env_of, 16, 8);
    for (int r = 0; r < 16; ++r)
        CHECK(devs[static_cast<std::size_t>(r)] == std::vector<int>{r % 8});
}

TEST_CASE("clusterplan probe run over ssh: one process per host with all its GPUs",
          "[probes][launch]") {
    auto env_of = [](int r) {
        return Env{{{"RANK", std::to_string(r)},
                    {"WORLD_SIZE", "4"},
                    {"LOCAL_RANK", "0"},
                    {"LOCAL_WORLD_SIZE", "1"},
                    {"NCCL_COMM_ID", "node-a:29517"}}};
    };
    const LaunchInfo l = detect_launch(env_of(3).lookup());
    CHECK(l.launcher == "nccl_comm_id");
    CHECK(l.hosts == 4);
    for (const auto& d : devices_of_all(env_of, 4, 8))
        CHECK(d.size() == 8);
}

TEST_CASE("a single process takes every GPU, or --gpus of them", "[probes][launch]") {
    Env none;
    const LaunchInfo l = detect_launch(none.lookup());
    CHECK(l.launcher == "single");
    CHECK(l.world_size == 1);
    CHECK(plan_devices(4, l, 0, false).devices.size() == 4);
    CHECK(plan_devices(4, l, 2, false).devices == std::vector<int>{0, 1});
    CHECK_THROWS_AS(plan_devices(4, l, 5, false), UsageError);
    CHECK_THROWS_AS(plan_devices(0, l, 0, false), UsageError);
}

TEST_CASE("malformed launcher variables name the variable", "[probes][launch]") {
    CHECK_THROWS_WITH(detect_launch(Env{{{"OMPI_COMM_WORLD_SIZE", "x"}}}.lookup()),
                      Catch::Matchers::Contains("OMPI_COMM_WORLD_SIZE"));
    CHECK_THROWS_WITH(detect_launch(Env{{{"WORLD_SIZE", "2"}, {"RANK", "2"}}}.lookup()),
                      Catch::Matchers::Contains("RANK=2 is not below the job size 2"));
    CHECK_THROWS_WITH(detect_launch(Env{{{"WORLD_SIZE", "99999999999"}}}.lookup()),
                      Catch::Matchers::Contains("WORLD_SIZE"));
    CHECK_THROWS_WITH(
        detect_launch(Env{
            {{"WORLD_SIZE", "4"}, {"RANK", "1"}, {"LOCAL_RANK", "3"}, {"LOCAL_WORLD_SIZE", "2"}}}
                          .lookup()),
        Catch::Matchers::Contains("LOCAL_RANK=3"));
    CHECK_THROWS_WITH(detect_launch(Env{{{"WORLD_SIZE", "-1"}}}.lookup()),
                      Catch::Matchers::Contains("WORLD_SIZE"));
}

TEST_CASE("hosts are counted from host-name hashes, not processes", "[probes][launch]") {
    // 16 NCCL ranks from 2 processes (8 GPUs each) on one host: one host, not two nodes.
    std::vector<std::uint64_t> hashes(16, host_hash("ip-10-0-0-1"));
    std::vector<int> procs;
    for (int i = 0; i < 16; ++i)
        procs.push_back(i / 8);
    HostLayout h = layout_from_hashes(hashes, procs);
    CHECK(h.hosts == 1);
    CHECK(h.max_processes_per_host == 2);
    // Two hosts, 8 single-GPU processes each.
    for (int i = 8; i < 16; ++i)
        hashes[static_cast<std::size_t>(i)] = host_hash("ip-10-0-0-2");
    for (int i = 0; i < 16; ++i)
        procs[static_cast<std::size_t>(i)] = i;
    h = layout_from_hashes(hashes, procs);
    CHECK(h.hosts == 2);
    CHECK(h.min_processes_per_host == 8);
    CHECK(host_hash("a") != host_hash("b"));
    CHECK(host_hash("") == 14695981039346656037ULL); // FNV-1a offset basis
}

TEST_CASE("GPUs visible without initialising CUDA", "[probes][launch]") {
    CHECK(count_cuda_visible_devices("0,1,2,3") == 4);
    CHECK(count_cuda_visible_devices("") == 0);
    CHECK(count_cuda_visible_devices("-1") == 0);
    CHECK(count_cuda_visible_devices("0,1,-1,2") == 2); // CUDA stops at the first invalid entry
    CHECK(count_cuda_visible_devices("GPU-8a9b,MIG-1c2d") == 2);
    Env e{{{"CUDA_VISIBLE_DEVICES", "2,3"}}};
    CHECK(visible_gpus_without_cuda(e.lookup(), "/nonexistent") == 2);
    CHECK_FALSE(visible_gpus_without_cuda(Env{}.lookup(), "/nonexistent").has_value());
}
