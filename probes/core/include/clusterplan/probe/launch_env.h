// Which launcher started this probe process and where the process sits in the job: global
// rank/size, rank and process count on its host, and the host count the launcher states. Read
// from the variables each launcher really sets (Open MPI, Slurm, torchrun, `clusterplan probe
// run` over ssh), never guessed from the device count.
#pragma once

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cp::probe {

// A bad command line or launcher environment: one sentence naming the option/variable.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct LaunchInfo {
    std::string launcher = "single"; // single, mpirun, slurm, torchrun, nccl_comm_id, env
    int rank = 0;
    int world_size = 1;
    int local_rank = 0; // among the processes on this host
    int local_size = 1; // processes on this host
    int hosts = 1;      // as the launcher states it (0 = it does not say)
};

// Looks up one environment variable; nullptr when unset.
using EnvLookup = std::function<const char*(const char*)>;
EnvLookup process_env();

// First launcher whose variables are present wins: Open MPI, Slurm, torchrun, then the plain
// RANK/WORLD_SIZE that `clusterplan probe run` exports over ssh. Throws UsageError naming the
// variable when a value is not an integer or is inconsistent (rank >= size, ...).
LaunchInfo detect_launch(const EnvLookup& env);

// Slurm's compressed task counts ("8(x2),4" = 8, 8, 4 tasks on nodes 0, 1, 2).
std::vector<int> parse_slurm_tasks_per_node(const std::string& text, const std::string& variable);

} // namespace cp::probe
