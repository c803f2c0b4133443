// Sweep: every valid (instance, nodes, tp, pp, dp, micro-batch, virtual stages, ZeRO, recompute)
// of a scenario, evaluated on several threads. Memory stays bounded: for each (instance, node
// count) only the fastest fitting layout is kept — within one cluster a faster plan is also
// cheaper, so these hold every Pareto-optimal plan. Results do not depend on the thread count.
#pragma once

#include "clusterplan/sim/calibration_profile.h"
#include "clusterplan/sim/hardware.h"
#include "clusterplan/sim/plan.h"
#include "clusterplan/sim/prediction_interval.h"
#include "clusterplan/sim/scenario.h"
#include "clusterplan/sim/spot_cost.h"

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

namespace cp::sim {

struct SweepOptions {
    int threads = 1;
    // Polled between work items; set to true to stop early (the GUI's cancel button).
    const std::atomic<bool>* cancel = nullptr;
    // Called from worker threads with (items done, items total); may be empty.
    void (*progress)(void* user, std::size_t done, std::size_t total) = nullptr;
    void* progress_user = nullptr;
};

// The fastest fitting layout for one (instance, node count).
struct ConfigBest {
    int candidate = 0; // index into SweepResult::candidates
    int nodes = 0;
    Layout layout;
    double step_time_s = 0;
    double samples_per_s = 0;
    double tokens_per_s = 0;
    double mfu = 0;
    double memory_gib = 0; // total per device
    double memory_capacity_gib = 0;
    JobEconomics job; // one trial: time, on-demand and spot cost
    PredictionInterval interval;
};

struct CandidateSummary {
    std::string instance;
    std::uint64_t evaluated = 0;
    int configs_fitting = 0;         // node counts with a fitting layout
    int min_nodes_fitting = 0;       // 0: none fits
    std::uint64_t out_of_memory = 0; // results by limit, to say why nothing fits
    std::uint64_t unknown_hardware = 0;
    std::uint64_t cannot_train = 0;
    std::uint64_t invalid_layout = 0;
    std::uint64_t node_counts_pruned = 0;
    std::string skipped; // why the instance was not searched (empty if it was)
};

struct SweepResult {
    std::uint64_t evaluated = 0; // evaluate() calls
    std::uint64_t valid = 0;     // of which valid and fitting in memory
    std::uint64_t out_of_memory = 0;
    std::uint64_t node_counts_pruned = 0; // (instance, nodes) skipped: cluster memory too small
    double elapsed_s = 0;
    int threads = 1;
    bool cancelled = false;
    std::vector<NodeSpec> candidates;
    std::vector<CandidateSummary> summaries; // parallel to candidates
    std::vector<ConfigBest> configs;         // ordered by (candidate, nodes)
};

// Node counts swept: cluster.nodes when given, else 1..constraints.max_nodes.
// `candidates` are the instances to try (the caller applies constraints.instances); those that
// cannot train are listed with the reason and skipped.
SweepResult sweep(const Scenario& scenario, std::vector<NodeSpec> candidates,
                  const CalibrationProfile* calibration, const SweepOptions& options = {});

// Lower bound of the parameters, used to skip clusters whose total memory cannot hold the
// sharded weights and optimizer state (the bytes per parameter depend on method and offload).
double min_parameter_count(const Workload& workload);

} // namespace cp::sim
