#include "clusterplan/probe/launch_env.h"

#include <cctype>
#include <cstdlib>
#include <string>

namespace cp::probe {
namespace {

// Job sizes are bounded well above any cluster (2^20 processes) so a typo cannot overflow.
constexpr long kMaxProcesses = 1L << 20;

// "NAME='value'" for messages.
std::string quoted(const std::string& variable, const std::string& text) {
    std::string s = variable;
    s += "='";
    s += text;
    s += "'";
    return s;
}

int parse_int(const std::string& text, const std::string& variable, long min_value) {
    if (text.empty() || text.size() > 9)
        throw UsageError(quoted(variable, text) + " is not a process count or rank");
    for (char c : text)
        if (!std::isdigit(static_cast<unsigned char>(c)))
            throw UsageError(quoted(variable, text) + " is not a non-negative integer");
    const long v = std::strtol(text.c_str(), nullptr, 10);
    if (v < min_value || v > kMaxProcesses)
        throw UsageError(variable + "=" + text + " is outside " + std::to_string(min_value) + ".." +
                         std::to_string(kMaxProcesses));
    return static_cast<int>(v);
}

struct Reader {
    const EnvLookup& env;
    bool has(const char* name) const {
        const char* v = env(name);
        return v && *v;
    }
    int get(const char* name, long min_value) const {
        return parse_int(env(name), name, min_value);
    }
    int get_or(const char* name, long min_value, int fallback) const {
        return has(name) ? get(name, min_value) : fallback;
    }
};

void check(const LaunchInfo& l, const char* rank_var, const char* local_var) {
    if (l.rank >= l.world_size)
        throw UsageError(std::string(rank_var) + "=" + std::to_string(l.rank) +
                         " is not below the job size " + std::to_string(l.world_size));
    if (l.local_rank >= l.local_size)
        throw UsageError(std::string(local_var) + "=" + std::to_string(l.local_rank) +
                         " is not below the processes on this host (" +
                         std::to_string(l.local_size) + ")");
    if (l.local_size > l.world_size)
        throw UsageError("the launcher puts " + std::to_string(l.local_size) +
                         " processes on this host but " + std::to_string(l.world_size) +
                         " in the whole job");
}

// Hosts implied by a uniform layout, 0 when the layout is not uniform (the NCCL host-name
// exchange then counts them).
int uniform_hosts(int world, int local) {
    return local > 0 && world % local == 0 ? world / local : 0;
}

} // namespace

EnvLookup process_env() {
    return [](const char* name) -> const char* { return std::getenv(name); };
}

std::vector<int> parse_slurm_tasks_per_node(const std::string& text, const std::string& variable) {
    std::vector<int> out;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        const std::size_t comma = text.find(',', pos);
        const std::string item =
            text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos);
        const std::size_t paren = item.find("(x");
        const int tasks = parse_int(item.substr(0, paren), variable, 1);
        int repeat = 1;
        if (paren != std::string::npos) {
            if (item.back() != ')')
                throw UsageError(quoted(variable, text) + " is not Slurm's N(xM) list");
            repeat = parse_int(item.substr(paren + 2, item.size() - paren - 3), variable, 1);
        }
        if (out.size() + static_cast<std::size_t>(repeat) > static_cast<std::size_t>(kMaxProcesses))
            throw UsageError(quoted(variable, text) + " lists too many nodes");
        out.insert(out.end(), static_cast<std::size_t>(repeat), tasks);
        if (comma == std::string::npos) break;
        pos = comma + 1;
    }
    return out;
}

LaunchInfo detect_launch(const EnvLookup& env) {
    const Reader r{env};
    LaunchInfo l;
    if (r.has("OMPI_COMM_WORLD_SIZE")) {
        // Open MPI (mpirun/mpiexec): LOCAL_SIZE is the processes on this node.
        l.launcher = "mpirun";
        l.world_size = r.get("OMPI_COMM_WORLD_SIZE", 1);
        l.rank = r.get("OMPI_COMM_WORLD_RANK", 0);
        l.local_rank = r.get_or("OMPI_COMM_WORLD_LOCAL_RANK", 0, 0);
        l.local_size = r.get_or("OMPI_COMM_WORLD_LOCAL_SIZE", 1, 1);
        l.hosts = uniform_hosts(l.world_size, l.local_size);
        check(l, "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_LOCAL_RANK");
        return l;
    }
    if (r.has("SLURM_PROCID") && (r.has("SLURM_NTASKS") || r.has("SLURM_NPROCS"))) {
        l.launcher = "slurm";
        l.world_size = r.has("SLURM_NTASKS") ? r.get("SLURM_NTASKS", 1) : r.get("SLURM_NPROCS", 1);
        l.rank = r.get("SLURM_PROCID", 0);
        l.local_rank = r.get_or("SLURM_LOCALID", 0, 0);
        const int node = r.get_or("SLURM_NODEID", 0, 0);
        // The step's own layout first (srun inside an allocation), then the job's.
        bool per_node_known = false;
        for (const char* var : {"SLURM_STEP_TASKS_PER_NODE", "SLURM_TASKS_PER_NODE"}) {
            if (!r.has(var)) continue;
            const auto per_node = parse_slurm_tasks_per_node(env(var), var);
            if (static_cast<std::size_t>(node) >= per_node.size())
                throw UsageError("SLURM_NODEID=" + std::to_string(node) + " has no entry in " +
                                 var);
            l.local_size = per_node[static_cast<std::size_t>(node)];
            l.hosts = static_cast<int>(per_node.size());
            per_node_known = true;
            break;
        }
        if (!per_node_known) {
            l.hosts = r.has("SLURM_STEP_NUM_NODES") ? r.get("SLURM_STEP_NUM_NODES", 1)
                                                    : r.get_or("SLURM_NNODES", 1, 0);
            if (l.hosts > 0 && l.world_size % l.hosts == 0) l.local_size = l.world_size / l.hosts;
        }
        check(l, "SLURM_PROCID", "SLURM_LOCALID");
        return l;
    }
    if (r.has("WORLD_SIZE")) {
        // torchrun sets LOCAL_WORLD_SIZE and TORCHELASTIC_RUN_ID; `clusterplan probe run` over
        // ssh sets RANK/WORLD_SIZE/LOCAL_RANK/LOCAL_WORLD_SIZE and NCCL_COMM_ID.
        l.launcher = r.has("TORCHELASTIC_RUN_ID") || r.has("GROUP_RANK") ? "torchrun"
                     : r.has("NCCL_COMM_ID")                             ? "nccl_comm_id"
                                                                         : "env";
        l.world_size = r.get("WORLD_SIZE", 1);
        l.rank = r.get_or("RANK", 0, 0);
        l.local_rank = r.get_or("LOCAL_RANK", 0, 0);
        // Without LOCAL_WORLD_SIZE a process is taken to be alone on its host (the ssh layout).
        l.local_size = r.get_or("LOCAL_WORLD_SIZE", 1, 1);
        l.hosts = uniform_hosts(l.world_size, l.local_size);
        check(l, "RANK", "LOCAL_RANK");
        return l;
    }
    return l;
}

} // namespace cp::probe
