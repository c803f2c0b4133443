// The planner: turns a Scenario plus candidate hardware into evaluated plans. Fills the
// parallel settings a scenario leaves out (searched), computes time to train, on-demand and spot
// cost, tuning-job totals and scaling efficiency, and collects the assumptions behind them.
// Qt-free; the CLI, the GUI and the report generator all build their numbers from here.
#pragma once

#include "clusterplan/sim/calibration_profile.h"
#include "clusterplan/sim/hardware.h"
#include "clusterplan/sim/plan.h"
#include "clusterplan/sim/precision_choice.h"
#include "clusterplan/sim/prediction_interval.h"
#include "clusterplan/sim/result.h"
#include "clusterplan/sim/scenario.h"
#include "clusterplan/sim/spot_cost.h"
#include "clusterplan/sim/step_model.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cp::sim {

// ---- hardware --------------------------------------------------------------------------------

// Applies cluster.custom to `base` (a catalog instance, or nullptr for fully custom hardware).
// `accelerator` is the catalog entry named by custom.accelerator (nullptr if not named).
// Throws ScenarioError naming the cluster.custom field that is missing.
NodeSpec apply_custom_hardware(const NodeSpec* base, const CustomHardware& custom,
                               const AcceleratorSpec* accelerator, const std::string& origin);

// Empty when the node can train the scenario; otherwise one sentence why not (Inferentia is
// inference-only; QLoRA's 4-bit base weights need CUDA).
std::string training_refusal(const Scenario& scenario, const NodeSpec& node);

// ---- layouts ---------------------------------------------------------------------------------

// The layouts to try on one cluster: "bases" fix tp/pp/dp/virtual_stages/zero; every base is
// tried with each recompute mode and each micro-batch size (ascending, see evaluate_layouts).
struct LayoutSpace {
    std::vector<Layout> bases;
    std::vector<Recompute> recomputes;
    bool micro_batch_fixed = false;
};

// Fills `space` for `devices` accelerators, `per_node` per node. Fields the scenario gives are
// kept; the rest are searched (tp within a node and dividing the heads, pp up to the layer
// count, dp = devices / (tp·pp) dividing the global batch, ZeRO 0-3, virtual stages for the
// interleaved schedule). Reuses the vectors' storage.
void build_layout_space(const Scenario& scenario, int devices, int per_node, LayoutSpace& space);

// Layout with every field the scenario fixes (schedule, dp_comm ...) and tp=pp=dp=1.
Layout base_layout(const Scenario& scenario);

// Context parallelism is searched for long sequences only: from 8K tokens (NeMo's Llama 3 8B
// recipe runs cp 2 at 8K on H100), in powers of two keeping chunks of at least 2K tokens,
// whose attention GEMMs stay large enough to hide the K/V ring.
inline constexpr int kContextParallelMinSeqLen = 8192;
inline constexpr int kContextParallelMinChunk = 2048;
// The cp degrees tried on `devices` / tp ranks: the scenario's, or 1 and the long-sequence ones.
std::vector<int> context_parallel_candidates(const Scenario& scenario, int devices);

// Whether plan `r` (layout `l`) beats the best so far: faster, or as fast (within rounding) with a
// larger micro-batch. Generic models' step time does not depend on the micro-batch, and a
// practitioner then picks the largest that fits (fewer accumulation steps); first seen wins
// otherwise.
inline bool better_plan(const Layout& l, const PlanResult& r, const Layout& best_l,
                        const PlanResult& best) {
    const double tie = 1e-9 * best.step_time_s;
    if (r.step_time_s < best.step_time_s - tie) return true;
    return r.step_time_s <= best.step_time_s + tie && l.micro_batch > best_l.micro_batch;
}

// Evaluates every layout of `space` on `cluster`, calling visit(layout, result) for each.
// Micro-batches grow in powers of two dividing the per-replica batch; once one runs out of
// memory (or hits an unknown hardware figure) the larger ones are skipped, and so are not
// counted. Returns the number of evaluate() calls.
// A layout the planner chooses leaves the memory headroom free (Constraints::
// max_memory_fraction): one above it counts as not fitting. The one layout of a space the
// scenario fixes completely is evaluated as given.
inline void apply_memory_headroom(const Scenario& sc, const LayoutSpace& space, PlanResult& r) {
    const bool searched =
        !space.micro_batch_fixed || space.bases.size() * space.recomputes.size() > 1;
    if (searched && r.limit == Limit::none &&
        r.memory_gib.total > sc.constraints.max_memory_fraction * r.memory_gib.capacity)
        r.limit = Limit::out_of_memory;
}

template <class Visit>
std::uint64_t evaluate_layouts(const Scenario& sc, const Cluster& cluster, const LayoutSpace& space,
                               const CalibrationProfile* calibration, Visit&& visit) {
    std::uint64_t evaluated = 0;
    const int global_batch = sc.parallel.global_batch;
    const Precision precision = plan_precision(sc, cluster.node.accelerator);
    for (const Layout& base : space.bases) {
        const int per_replica = global_batch / base.dp;
        for (Recompute recompute : space.recomputes) {
            Layout layout = base;
            layout.recompute = recompute;
            if (space.micro_batch_fixed) {
                PlanResult r = evaluate(sc.workload, cluster, layout, precision, calibration);
                apply_memory_headroom(sc, space, r);
                ++evaluated;
                visit(layout, r);
                continue;
            }
            for (int mb = 1; mb <= per_replica; mb *= 2) {
                if (per_replica % mb != 0) break;
                layout.micro_batch = mb;
                PlanResult r = evaluate(sc.workload, cluster, layout, precision, calibration);
                apply_memory_headroom(sc, space, r);
                ++evaluated;
                visit(layout, r);
                // Larger micro-batches need more memory and cannot make a missing figure known.
                if (r.limit == Limit::out_of_memory || r.limit == Limit::unknown_hardware ||
                    r.limit == Limit::cannot_train)
                    break;
            }
        }
    }
    return evaluated;
}

// ---- reports ---------------------------------------------------------------------------------

// The reference of scaling efficiency (scaling.h, where it is computed).
struct ScalingBaseline;

// Everything `simulate --json` reports for one plan (DESIGN.md), computed once so the CLI, GUI
// and report show identical numbers.
struct PlanReport {
    std::string scenario_name;
    std::string instance;
    std::string accelerator;
    NodeSpec node; // the hardware the plan ran on (prices, links)
    int nodes = 0;
    int devices = 0;
    Layout layout;
    Precision precision = Precision::bf16;
    WorkloadKind workload_kind =
        WorkloadKind::transformer; // generic models count samples, not tokens
    PlanResult result;
    PredictionInterval interval; // of step time and every figure derived from it
    JobEconomics job;            // one trial
    HpoEstimate hpo;             // all trials
    double scaling_efficiency = kUnknown;
    int scaling_reference_devices = 0;               // 1, or the smallest fitting device count
    bool spot = false;                               // purchase option this report is ranked on
    PurchaseKind purchase = PurchaseKind::on_demand; // the same, for every purchase option
    std::vector<std::string> searched;               // parallel fields the planner chose
    std::string note;                                // e.g. "layout searched: ..."
    std::string limit_reason;                        // why the plan is not valid / does not fit
    std::vector<std::string> assumptions;
    std::string calibration_source = "datasheet";
    std::string calibration_date; // empty for datasheet values
    double usd_per_node_hour = kUnknown;
    double usd_per_node_hour_spot = kUnknown;
    std::string price_as_of;

    // Headline figures for the chosen purchase option.
    double wall_time_h() const { return spot ? job.spot.wall_time_h : job.time_to_train_h; }
    double effective_cost_usd() const {
        switch (purchase) {
        case PurchaseKind::capacity_block:
            return job.committed.capacity_block.cost_usd;
        case PurchaseKind::reserved_1y:
            return job.committed.reserved_1y.job_cost_usd;
        case PurchaseKind::reserved_3y:
            return job.committed.reserved_3y.job_cost_usd;
        default:
            return spot ? job.spot.cost_usd : job.cost_usd;
        }
    }
};

// The purchase option a plan of `pricing` is headlined with (`any`: on demand, the others side
// by side).
PurchaseKind headline_purchase(Pricing pricing);

// One sentence for a Limit ("does not fit in memory: 93.1 GiB needed of 80 GiB" ...).
std::string describe_limit(const PlanResult& result);

// Builds the report for a plan already evaluated (result may be recomputed). `baseline` may be
// null (then it is computed).
// Whether the plan crosses nodes without EFA and no calibration measured that network: NCCL then
// runs over TCP sockets, slower than the RDMA-class figures the model uses (model_constants.h).
bool inter_node_over_tcp(const PlanReport& report);

PlanReport make_plan_report(const Scenario& scenario, const NodeSpec& node, int nodes,
                            const Layout& layout, const CalibrationProfile* calibration,
                            const ScalingBaseline* baseline = nullptr);

// `simulate`: the scenario's instance and node count, the searched fields filled by the fastest
// layout that fits (or, when none fits, the one closest to fitting, reported as not fitting).
// Throws ScenarioError for a layout that cannot match the cluster (tp·pp·dp ≠ devices ...).
PlanReport simulate_plan(const Scenario& scenario, const NodeSpec& node,
                         const CalibrationProfile* calibration);

// The parallel fields a scenario leaves to the planner ("tp", "micro_batch", ...).
std::vector<std::string> searched_fields(const Scenario& scenario);

} // namespace cp::sim
