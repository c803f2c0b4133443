// Which local GPUs one probe process drives, and how many hosts a job spans, decided without
// CUDA so the rules run in CI and in `clusterplan-probe --dry-run` on hosts with no driver.
#pragma once

#include "clusterplan/probe/launch_env.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cp::probe {

struct DevicePlan {
    std::vector<int> devices; // CUDA ordinals in this process
    // "all": alone on the host; "partitioned": the host's GPUs split by local rank;
    // "launcher": the launcher narrowed CUDA_VISIBLE_DEVICES per process, all of them taken.
    std::string binding;
};

// `visible`: CUDA devices this process sees; `requested`: --gpus (0 = decide);
// `visibility_restricted`: CUDA_VISIBLE_DEVICES is set for this process. Throws UsageError when
// the processes on this host would share a GPU (NCCL rejects duplicate GPUs in a communicator).
DevicePlan plan_devices(int visible, const LaunchInfo& launch, int requested,
                        bool visibility_restricted);

// GPUs visible to this process without initialising CUDA: CUDA_VISIBLE_DEVICES when set (CUDA
// stops at the first invalid entry), else the driver's /proc/driver/nvidia/gpus entries.
// nullopt when neither says (no driver).
std::optional<int>
visible_gpus_without_cuda(const EnvLookup& env,
                          const std::string& proc_gpus_dir = "/proc/driver/nvidia/gpus");
int count_cuda_visible_devices(std::string_view value);

// 64-bit FNV-1a of the host name (as nccl-tests hashes host names to find ranks sharing a host;
// any stable hash does, collisions between a job's hosts being ~n^2/2^64).
std::uint64_t host_hash(std::string_view hostname);

// Host layout from every NCCL rank's (host hash, process rank), gathered after communicator
// initialisation: distinct hosts and the processes each runs.
struct HostLayout {
    int hosts = 0;
    int max_processes_per_host = 0;
    int min_processes_per_host = 0;
};
HostLayout layout_from_hashes(const std::vector<std::uint64_t>& host_hashes,
                              const std::vector<int>& process_ranks);

} // namespace cp::probe
