// clusterplan-probe's command line and the run plan derived from it and the launcher's
// environment, CUDA-free: `--dry-run` prints this plan on hosts without a driver.
#pragma once

#include "clusterplan/probe/device_plan.h"
#include "clusterplan/probe/launch_env.h"
#include "clusterplan/probe/schedule.h"

#include <optional>
#include <string>
#include <vector>

namespace cp::probe {

struct Options {
    std::string command; // info, gemm, membw, pcie, p2p, nccl, all
    int gpus = 0;        // --gpus: per process, 0 = decide from the launcher layout
    int iterations = 20; // --iters: timed NCCL/membw iterations
    double max_bytes = 1024.0 * 1024 * 1024; // --max-bytes: NCCL upper size (memory permitting)
    double min_bytes = 1024;
    bool quick = false;
    bool graphs = false; // --graphs: also time NCCL through CUDA graphs (small-message alpha)
    int nccl_timeout_s = 300;
    std::string instance; // --instance: EC2 type the host must be (checked against DMI)
    bool dry_run = false;
    int visible_gpus = -1; // --visible-gpus (dry run): plan as if N GPUs were visible
};

// Throws UsageError with one sentence naming the option.
Options parse_options(const std::vector<std::string>& args);
const char* usage_text();
bool is_probe_command(const std::string& command);

struct RunPlan {
    LaunchInfo launch;
    Iterations iterations;
    std::optional<int> visible_gpus; // nullopt: unknown without a driver
    DevicePlan devices;              // empty when visible_gpus is unknown
    std::vector<std::string> sections;
    std::vector<std::string> notes;
};
// Everything but the device count comes from options and environment; `visible` is what CUDA
// (or, in a dry run, the driver's files) reports. Throws UsageError on an impossible layout.
RunPlan make_plan(const Options& options, const EnvLookup& env, std::optional<int> visible);

// The plan as one JSON object (schema clusterplan.probe-plan/1) for --dry-run.
std::string plan_json(const Options& options, const RunPlan& plan);

} // namespace cp::probe
