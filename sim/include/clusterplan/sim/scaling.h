// Scaling curves: the best plan of each layout family (data, tensor, pipeline, model parallel,
// any) at growing device counts on one instance type, with throughput, scaling efficiency
// against the planner's reference configuration, and cost. One computation behind the planner's
// scaling efficiency, the GUI's Scaling page and the report's scaling charts, so they agree.
// Qt-free.
#pragma once

#include "clusterplan/sim/planner.h"

#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace cp::sim {

// The scenario with every layout field (tp, pp, dp, micro_batch, virtual_stages, zero,
// recompute) left to the planner; fields that choose a method (schedule, dp_comm, sequence
// parallel ...) are kept. Scaling compares what each cluster size can do at best.
Scenario with_layout_searched(Scenario scenario);

// One cluster size of a scaling curve. Below one node the node keeps its links but uses fewer
// accelerators; it is still billed as the whole instance (AWS rents whole instances).
struct ScalingSize {
    int nodes = 1;
    int accelerators_per_node = 1; // used on each node
    int devices() const { return nodes * accelerators_per_node; }
};

// 1, 2, 4 ... devices within one node (powers of two dividing `accelerators_per_node`), then
// 1, 2, 4 ... whole nodes up to `max_nodes` (at least one node).
std::vector<ScalingSize> scaling_sizes(int accelerators_per_node, int max_nodes);

// The smallest size of scaling_sizes(per node, constraints.max_nodes) on which some layout fits,
// and its fastest plan: scaling efficiency is relative to it (one device when the model fits on
// one).
struct ScalingBaseline {
    int devices = 0; // 0: nothing fits up to the limit searched
    double samples_per_s = 0;
    Layout layout; // the reference's fastest layout (explains efficiency above 1)
};
ScalingBaseline scaling_baseline(const Scenario& scenario, const NodeSpec& node,
                                 const CalibrationProfile* calibration);

// throughput(n) / (n × reference throughput per device); NaN without a reference.
double scaling_efficiency(const ScalingBaseline& baseline, double samples_per_s, int devices);

// Why a plan scales above 100 %: one plain sentence naming what the reference configuration had
// to use (recompute, ZeRO stage, micro-batch, tp/pp) that `layout` does not. Empty when
// `efficiency` does not exceed 100 % (as printed, rounded to a whole percent).
std::string superlinear_scaling_note(const ScalingBaseline& baseline, const Layout& layout,
                                     int devices, double efficiency);

// data: tp = pp = 1; tensor: tp > 1, pp = 1; pipeline: pp > 1, tp = 1; model: dp = 1 and
// tp·pp > 1; any: every layout (the best 3D layout).
enum class LayoutFamily { data, tensor, pipeline, model, any };
inline constexpr std::array<LayoutFamily, 5> kLayoutFamilies = {
    LayoutFamily::data, LayoutFamily::tensor, LayoutFamily::pipeline, LayoutFamily::model,
    LayoutFamily::any};
bool in_family(const Layout& layout, LayoutFamily family);

struct ScalingPoint {
    bool found = false; // false: no layout of the family fits at this size
    Layout layout;
    PlanResult result;
    double throughput = 0;                // tokens/s for transformers, samples/s for generic models
    double scaling_efficiency = kUnknown; // against ScalingCurves::baseline
    double cost_usd = kUnknown;           // on demand, whole training run (NaN: no price)
};

struct ScalingRow {
    ScalingSize size;
    std::array<ScalingPoint, kLayoutFamilies.size()> best; // indexed by LayoutFamily
    const ScalingPoint& at(LayoutFamily family) const { return best[std::size_t(family)]; }
};

struct ScalingOptions {
    const CalibrationProfile* calibration = nullptr;   // a profile of other hardware is ignored
    const std::atomic<bool>* cancel = nullptr;         // polled before each size
    std::function<void(int done, int total)> progress; // after each size, on the caller's thread
};

struct ScalingCurves {
    ScalingBaseline baseline;
    bool tokens = true;           // throughput unit: tokens/s (else samples/s)
    std::vector<ScalingRow> rows; // one per size evaluated, in the order given
    std::uint64_t evaluated = 0;  // evaluate() calls for the rows
    bool cancelled = false;
};

// Evaluates every layout (all fields searched) at each size and keeps each family's fastest
// plan that fits. Deterministic; stops early, with `cancelled` set, when options.cancel is set.
ScalingCurves scaling_curves(const Scenario& scenario, const NodeSpec& node,
                             const std::vector<ScalingSize>& sizes,
                             const ScalingOptions& options = {});

} // namespace cp::sim
