#include "clusterplan/sim/search.h"

#include "clusterplan/sim/calibration_lookup.h"
#include "clusterplan/sim/plan_interval.h"
#include "clusterplan/sim/planner.h"
#include "engine/memory_model.h"
#include "engine/model_state.h"
#include "engine/optimizer_state.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <optional>
#include <thread>

namespace cp::sim {
namespace {

constexpr double kBytesPerGib = 1024.0 * 1024.0 * 1024.0;

struct WorkItem {
    int candidate;
    int nodes;
};

struct ItemOutcome {
    std::optional<ConfigBest> best;
    std::uint64_t evaluated = 0;
    std::uint64_t valid = 0;
    std::uint64_t out_of_memory = 0;
    std::uint64_t unknown_hardware = 0;
    std::uint64_t cannot_train = 0;
    std::uint64_t invalid_layout = 0;
    bool pruned = false;
};

// Bytes per parameter that no layout can avoid keeping in accelerator memory (everything
// sharded over all devices): frozen LoRA/QLoRA base weights, else the optimizer state (or, when
// that is offloaded, the 16-bit weights); nothing with offloaded parameters.
double min_bytes_per_param(const Scenario& sc) {
    const ParallelSpec& p = sc.parallel;
    if (p.offload.params != OffloadTarget::none) return 0.0;
    const double w = weight_bytes_per_param(sc.precision);
    switch (sc.workload.finetune.method) {
    case TrainingMethod::qlora:
        return kNf4BytesPerParam;
    case TrainingMethod::lora:
        return w;
    case TrainingMethod::pretrain:
    case TrainingMethod::full:
        break;
    }
    if (p.offload.optimizer != OffloadTarget::none) return w;
    return std::max(w, optimizer_state_bytes_per_param(sc.training.optimizer, sc.precision));
}

ItemOutcome run_item(const Scenario& sc, const NodeSpec& node, int nodes,
                     const CalibrationProfile* cal, double min_params, LayoutSpace& space) {
    ItemOutcome out;
    cal = calibration_for(cal, node); // measured on another accelerator: datasheet here
    const Cluster cluster{node, nodes};
    const int devices = cluster.devices();
    // No layout fits when even fully sharded weights + optimizer state exceed all memory.
    if (is_known(node.accelerator.memory_gib) && min_bytes_per_param(sc) * min_params / devices >
                                                     node.accelerator.memory_gib * kBytesPerGib) {
        out.pruned = true;
        return out;
    }
    build_layout_space(sc, devices, node.accelerators_per_node, space);
    Layout best_layout;
    PlanResult best;
    bool found = false;
    out.evaluated =
        evaluate_layouts(sc, cluster, space, cal, [&](const Layout& l, const PlanResult& r) {
            if (r.limit == Limit::none) {
                ++out.valid;
                // Deterministic: enumeration order, equal times resolved toward the larger
                // micro-batch.
                if (!found || better_plan(l, r, best_layout, best)) {
                    found = true;
                    best = r;
                    best_layout = l;
                }
            } else if (r.limit == Limit::out_of_memory) {
                ++out.out_of_memory;
            } else if (r.limit == Limit::unknown_hardware) {
                ++out.unknown_hardware;
            } else if (r.limit == Limit::cannot_train) {
                ++out.cannot_train;
            } else {
                ++out.invalid_layout;
            }
        });
    if (!found) return out;
    ConfigBest c;
    c.nodes = nodes;
    c.layout = best_layout;
    c.step_time_s = best.step_time_s;
    c.samples_per_s = best.samples_per_s;
    c.tokens_per_s = best.tokens_per_s;
    c.mfu = best.mfu;
    c.memory_gib = best.memory_gib.total;
    c.memory_capacity_gib = best.memory_gib.capacity;
    c.job = job_economics(sc, node, nodes, best.step_time_s);
    c.interval = plan_interval(best, best_layout, node.accelerator, cal);
    out.best = c;
    return out;
}

} // namespace

double min_parameter_count(const Workload& w) {
    if (w.kind == WorkloadKind::generic) return w.params;
    const double shape_params = total_params(w);
    return w.params > 0 ? std::min(w.params, shape_params) : shape_params;
}

SweepResult sweep(const Scenario& sc, std::vector<NodeSpec> candidates,
                  const CalibrationProfile* cal, const SweepOptions& options) {
    const auto start = std::chrono::steady_clock::now();
    SweepResult result;
    result.candidates = std::move(candidates);
    result.summaries.resize(result.candidates.size());

    std::vector<WorkItem> items;
    for (std::size_t i = 0; i < result.candidates.size(); ++i) {
        const NodeSpec& node = result.candidates[i];
        CandidateSummary& summary = result.summaries[i];
        summary.instance = node.instance_type;
        summary.skipped = training_refusal(sc, node);
        if (!summary.skipped.empty()) continue;
        const Precision precision = plan_precision(sc, node.accelerator);
        if (!is_known(node.accelerator.peak(precision))) {
            // No published peak at this precision: one probe plan confirms the model cannot
            // price it, and the instance is skipped instead of evaluating every layout.
            LayoutSpace probe;
            build_layout_space(sc, node.accelerators_per_node, node.accelerators_per_node, probe);
            if (!probe.bases.empty()) {
                Layout l = probe.bases.front();
                l.recompute = probe.recomputes.front();
                const PlanResult r = evaluate(sc.workload, Cluster{node, 1}, l, precision,
                                              calibration_for(cal, node));
                ++result.evaluated;
                ++summary.evaluated;
                if (r.limit == Limit::unknown_hardware || r.limit == Limit::cannot_train) {
                    summary.skipped = node.instance_type + ": " + node.accelerator.id +
                                      " has no published " + enum_name(precision) +
                                      " peak, so it is not planned at this precision";
                    continue;
                }
            }
        }
        if (sc.nodes) {
            items.push_back({static_cast<int>(i), *sc.nodes});
        } else {
            for (int n = 1; n <= sc.constraints.max_nodes; ++n)
                items.push_back({static_cast<int>(i), n});
        }
    }

    const double min_params = min_parameter_count(sc.workload);
    std::vector<ItemOutcome> outcomes(items.size());
    std::atomic<std::size_t> next{0};
    std::atomic<std::size_t> done{0};
    std::atomic<bool> stopped{false};
    auto worker = [&] {
        LayoutSpace space; // per thread, storage reused across items
        for (;;) {
            if (options.cancel && options.cancel->load(std::memory_order_relaxed)) {
                stopped = true;
                return;
            }
            const std::size_t k = next.fetch_add(1, std::memory_order_relaxed);
            if (k >= items.size()) return;
            const WorkItem& item = items[k];
            outcomes[k] =
                run_item(sc, result.candidates[item.candidate], item.nodes, cal, min_params, space);
            if (outcomes[k].best) outcomes[k].best->candidate = item.candidate;
            const std::size_t d = done.fetch_add(1, std::memory_order_relaxed) + 1;
            if (options.progress) options.progress(options.progress_user, d, items.size());
        }
    };
    const int threads =
        std::max(1, std::min<int>(options.threads,
                                  static_cast<int>(std::max<std::size_t>(items.size(), 1))));
    result.threads = std::max(1, options.threads);
    std::vector<std::thread> pool;
    for (int t = 1; t < threads; ++t)
        pool.emplace_back(worker);
    worker();
    for (auto& th : pool)
        th.join();
    result.cancelled = stopped.load();

    // Merge in item order: identical for any thread count.
    for (std::size_t k = 0; k < items.size(); ++k) {
        const ItemOutcome& o = outcomes[k];
        CandidateSummary& summary = result.summaries[items[k].candidate];
        result.evaluated += o.evaluated;
        result.valid += o.valid;
        result.out_of_memory += o.out_of_memory;
        result.node_counts_pruned += o.pruned ? 1 : 0;
        summary.evaluated += o.evaluated;
        summary.out_of_memory += o.out_of_memory;
        summary.unknown_hardware += o.unknown_hardware;
        summary.cannot_train += o.cannot_train;
        summary.invalid_layout += o.invalid_layout;
        summary.node_counts_pruned += o.pruned ? 1 : 0;
        if (o.best) {
            ++summary.configs_fitting;
            if (summary.min_nodes_fitting == 0) summary.min_nodes_fitting = items[k].nodes;
            result.configs.push_back(*o.best);
        }
    }
    result.elapsed_s =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return result;
}

} // namespace cp::sim
