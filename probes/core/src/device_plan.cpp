#include "clusterplan/probe/device_plan.h"

#include <algorithm>
#include <cctype>
#include <dirent.h>
#include <map>
#include <set>

namespace cp::probe {

DevicePlan plan_devices(int visible, const LaunchInfo& launch, int requested,
                        bool visibility_restricted) {
    if (visible <= 0) throw UsageError("no CUDA devices are visible to this process");
    if (requested < 0) throw UsageError("--gpus must be at least 1");
    DevicePlan p;
    const int local = std::max(1, launch.local_size);
    if (local == 1) {
        if (requested > visible)
            throw UsageError("--gpus " + std::to_string(requested) + " but this host has " +
                             std::to_string(visible) + " visible GPU(s)");
        const int take = requested > 0 ? requested : visible;
        for (int i = 0; i < take; ++i)
            p.devices.push_back(i);
        p.binding = "all";
        return p;
    }
    const std::string where = std::to_string(local) + " processes on this host";
    if (visible < local) {
        // Fewer GPUs than processes: only sound when the launcher gave each process its own
        // (Slurm --gpus-per-task, a per-rank CUDA_VISIBLE_DEVICES).
        if (!visibility_restricted)
            throw UsageError(
                where + " but only " + std::to_string(visible) +
                " GPU(s): processes would share a GPU (start at most one process per GPU)");
        const int take = requested > 0 ? requested : visible;
        if (take > visible)
            throw UsageError("--gpus " + std::to_string(requested) + " but this process sees " +
                             std::to_string(visible) + " GPU(s)");
        for (int i = 0; i < take; ++i)
            p.devices.push_back(i);
        p.binding = "launcher";
        return p;
    }
    const int per = requested > 0 ? requested : visible / local;
    if (static_cast<long>(per) * local > visible)
        throw UsageError(where + " x --gpus " + std::to_string(per) + " needs " +
                         std::to_string(per * local) + " GPUs but " + std::to_string(visible) +
                         " are visible");
    for (int i = 0; i < per; ++i)
        p.devices.push_back(launch.local_rank * per + i);
    p.binding = "partitioned";
    return p;
}

int count_cuda_visible_devices(std::string_view value) {
    // Entries are indices, GPU-/MIG- UUIDs or prefixes; the first empty or malformed one ends
    // the list, as in CUDA ("-1" hides every device).
    int n = 0;
    std::size_t pos = 0;
    while (pos <= value.size()) {
        const std::size_t comma = value.find(',', pos);
        std::string_view item = value.substr(
            pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos);
        while (!item.empty() && std::isspace(static_cast<unsigned char>(item.front())))
            item.remove_prefix(1);
        while (!item.empty() && std::isspace(static_cast<unsigned char>(item.back())))
            item.remove_suffix(1);
        const bool index = !item.empty() && std::all_of(item.begin(), item.end(), [](char c) {
            return std::isdigit(static_cast<unsigned char>(c)) != 0;
        });
        const bool uuid = item.rfind("GPU-", 0) == 0 || item.rfind("MIG-", 0) == 0;
        if (!index && !uuid) break;
        ++n;
        if (comma == std::string_view::npos) break;
        pos = comma + 1;
    }
    return n;
}

std::optional<int> visible_gpus_without_cuda(const EnvLookup& env,
                                             const std::string& proc_gpus_dir) {
    if (const char* v = env("CUDA_VISIBLE_DEVICES")) return count_cuda_visible_devices(v);
    DIR* d = opendir(proc_gpus_dir.c_str());
    if (!d) return std::nullopt;
    int n = 0;
    while (const dirent* e = readdir(d))
        if (e->d_name[0] != '.') ++n;
    closedir(d);
    return n;
}

std::uint64_t host_hash(std::string_view hostname) {
    // FNV-1a 64-bit offset basis and prime (Fowler/Noll/Vo, IETF draft-eastlake-fnv).
    std::uint64_t h = 14695981039346656037ULL;
    for (unsigned char c : hostname) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    return h;
}

HostLayout layout_from_hashes(const std::vector<std::uint64_t>& host_hashes,
                              const std::vector<int>& process_ranks) {
    std::map<std::uint64_t, std::set<int>> per_host;
    for (std::size_t i = 0; i < host_hashes.size(); ++i)
        per_host[host_hashes[i]].insert(i < process_ranks.size() ? process_ranks[i]
                                                                 : static_cast<int>(i));
    HostLayout l;
    l.hosts = static_cast<int>(per_host.size());
    for (const auto& [hash, procs] : per_host) {
        const int n = static_cast<int>(procs.size());
        l.max_processes_per_host = std::max(l.max_processes_per_host, n);
        l.min_processes_per_host =
            l.min_processes_per_host == 0 ? n : std::min(l.min_processes_per_host, n);
    }
    return l;
}

} // namespace cp::probe
