#include "clusterplan/sim/scaling.h"

#include "clusterplan/sim/calibration_lookup.h"

#include <algorithm>
#include <cmath>
#include <optional>

namespace cp::sim {
namespace {

// The node as used at `size`: fewer accelerators below one node, same links and price.
NodeSpec node_at(const NodeSpec& node, const ScalingSize& size) {
    NodeSpec used = node;
    used.accelerators_per_node = size.accelerators_per_node;
    return used;
}

// Evaluates every layout of the (layout-searched) scenario at `size`; visit(layout, result).
template <class Visit>
std::uint64_t evaluate_size(const Scenario& searched, const NodeSpec& node, const ScalingSize& size,
                            const CalibrationProfile* cal, LayoutSpace& space, Visit&& visit) {
    const Cluster cluster{node_at(node, size), size.nodes};
    build_layout_space(searched, cluster.devices(), size.accelerators_per_node, space);
    return evaluate_layouts(searched, cluster, space, cal, visit);
}

// Keeps the fastest fitting plan offered (ties: larger micro-batch, then first seen).
struct Fastest {
    bool found = false;
    Layout layout;
    PlanResult result;
    void offer(const Layout& l, const PlanResult& r) {
        if (r.limit != Limit::none) return;
        if (found && !better_plan(l, r, layout, result)) return;
        found = true;
        layout = l;
        result = r;
    }
};

std::string layout_text(const Layout& l) {
    return "tp " + std::to_string(l.tp) + " × pp " + std::to_string(l.pp) + " × dp " +
           std::to_string(l.dp) + ", micro-batch " + std::to_string(l.micro_batch) + ", " +
           enum_name(l.recompute) + " recompute, ZeRO-" + std::to_string(l.zero);
}

std::string join_and(const std::vector<std::string>& items) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i)
        out += (i == 0 ? "" : i + 1 == items.size() ? " and " : ", ") + items[i];
    return out;
}

} // namespace

Scenario with_layout_searched(Scenario scenario) {
    ParallelSpec& p = scenario.parallel;
    p.tp.reset();
    p.pp.reset();
    p.dp.reset();
    p.micro_batch.reset();
    p.virtual_stages.reset();
    p.zero.reset();
    p.recompute.reset();
    return scenario;
}

std::vector<ScalingSize> scaling_sizes(int accelerators_per_node, int max_nodes) {
    std::vector<ScalingSize> sizes;
    const int per_node = std::max(1, accelerators_per_node);
    for (int d = 1; d < per_node; d *= 2)
        if (per_node % d == 0) sizes.push_back({1, d});
    for (int nodes = 1; nodes <= std::max(1, max_nodes); nodes *= 2)
        sizes.push_back({nodes, per_node});
    return sizes;
}

ScalingBaseline scaling_baseline(const Scenario& scenario, const NodeSpec& node,
                                 const CalibrationProfile* cal) {
    cal = calibration_for(cal, node);
    // The reference is the best the small configuration can do, whatever layout the scenario
    // fixes for the large one.
    const Scenario searched = with_layout_searched(scenario);
    LayoutSpace space;
    for (const ScalingSize& size :
         scaling_sizes(node.accelerators_per_node, searched.constraints.max_nodes)) {
        Fastest best;
        evaluate_size(searched, node, size, cal, space,
                      [&](const Layout& l, const PlanResult& r) { best.offer(l, r); });
        if (best.found && best.result.samples_per_s > 0)
            return {size.devices(), best.result.samples_per_s, best.layout};
    }
    return {};
}

double scaling_efficiency(const ScalingBaseline& baseline, double samples_per_s, int devices) {
    if (baseline.devices <= 0 || baseline.samples_per_s <= 0 || devices <= 0) return kUnknown;
    return (samples_per_s / devices) / (baseline.samples_per_s / baseline.devices);
}

std::string superlinear_scaling_note(const ScalingBaseline& baseline, const Layout& layout,
                                     int devices, double efficiency) {
    if (!is_known(efficiency) || std::lround(efficiency * 100.0) <= 100 || baseline.devices <= 0)
        return {};
    const Layout& ref = baseline.layout;
    // What the reference pays per sample that this plan does not.
    std::vector<std::string> costs;
    if (ref.recompute > layout.recompute)
        costs.push_back(std::string(enum_name(ref.recompute)) + " activation recompute");
    if (ref.zero > layout.zero) costs.push_back("ZeRO stage " + std::to_string(ref.zero));
    if (ref.micro_batch < layout.micro_batch)
        costs.push_back("micro-batch " + std::to_string(ref.micro_batch));
    if (ref.pp > layout.pp)
        costs.push_back("a " + std::to_string(ref.pp) +
                        "-stage pipeline, whose bubble idles devices");
    if (ref.tp > layout.tp)
        costs.push_back("tensor parallel over " + std::to_string(ref.tp) + " devices");
    const std::string head = "scaling efficiency is above 100 % (" +
                             std::to_string(std::lround(efficiency * 100.0)) + " %) because the " +
                             std::to_string(baseline.devices) +
                             "-device reference is slower per device than this " +
                             std::to_string(devices) + "-device plan";
    const std::string ref_text = "its fastest fitting layout: " + layout_text(ref);
    if (costs.empty()) return head + " (" + ref_text + "), not because the hardware speeds up";
    return head + ": to fit in memory it uses " + join_and(costs) + " (" + ref_text +
           "), which this plan does not";
}

bool in_family(const Layout& l, LayoutFamily family) {
    switch (family) {
    case LayoutFamily::data:
        return l.tp == 1 && l.pp == 1;
    case LayoutFamily::tensor:
        return l.tp > 1 && l.pp == 1;
    case LayoutFamily::pipeline:
        return l.pp > 1 && l.tp == 1;
    case LayoutFamily::model:
        return l.dp == 1 && l.tp * l.pp > 1;
    case LayoutFamily::any:
        return true;
    }
    return false;
}

namespace {

// The baseline read off rows already evaluated: scaling_baseline walks the canonical sizes in
// order and stops at the first that fits, so when the rows start with those same sizes up to
// a fitting one, that row is the baseline and nothing needs evaluating twice. Empty optional:
// the rows do not decide it.
std::optional<ScalingBaseline> baseline_from_rows(const std::vector<ScalingRow>& rows,
                                                  const std::vector<ScalingSize>& canonical) {
    for (std::size_t i = 0; i < canonical.size(); ++i) {
        if (i >= rows.size() || rows[i].size.nodes != canonical[i].nodes ||
            rows[i].size.accelerators_per_node != canonical[i].accelerators_per_node)
            return std::nullopt;
        const ScalingPoint& best = rows[i].at(LayoutFamily::any);
        if (best.found && best.result.samples_per_s > 0)
            return ScalingBaseline{canonical[i].devices(), best.result.samples_per_s, best.layout};
    }
    return ScalingBaseline{}; // every canonical size evaluated, none fits
}

} // namespace

ScalingCurves scaling_curves(const Scenario& scenario, const NodeSpec& node,
                             const std::vector<ScalingSize>& sizes, const ScalingOptions& options) {
    ScalingCurves out;
    const CalibrationProfile* cal = calibration_for(options.calibration, node);
    const Scenario searched = with_layout_searched(scenario);
    out.tokens = searched.workload.kind == WorkloadKind::transformer;
    LayoutSpace space;
    int done = 0;
    for (const ScalingSize& size : sizes) {
        if (options.cancel && options.cancel->load()) {
            out.cancelled = true;
            break;
        }
        std::array<Fastest, kLayoutFamilies.size()> best;
        out.evaluated += evaluate_size(searched, node, size, cal, space,
                                       [&](const Layout& l, const PlanResult& r) {
                                           for (LayoutFamily f : kLayoutFamilies)
                                               if (in_family(l, f))
                                                   best[std::size_t(f)].offer(l, r);
                                       });
        ScalingRow row;
        row.size = size;
        const NodeSpec used = node_at(node, size);
        for (std::size_t f = 0; f < best.size(); ++f) {
            if (!best[f].found) continue;
            const PlanResult& r = best[f].result;
            ScalingPoint& p = row.best[f];
            p.found = true;
            p.layout = best[f].layout;
            p.result = r;
            p.throughput = out.tokens ? r.tokens_per_s : r.samples_per_s;
            p.cost_usd = job_economics(searched, used, size.nodes, r.step_time_s).cost_usd;
        }
        out.rows.push_back(row);
        if (options.progress) options.progress(++done, int(sizes.size()));
    }
    // Efficiency needs the reference, which the rows usually contain already (a cancelled run's
    // partial rows are still shown, so they get it too).
    const std::optional<ScalingBaseline> known = baseline_from_rows(
        out.rows, scaling_sizes(node.accelerators_per_node, searched.constraints.max_nodes));
    out.baseline = known ? *known : scaling_baseline(searched, node, cal);
    for (ScalingRow& row : out.rows)
        for (ScalingPoint& p : row.best)
            if (p.found)
                p.scaling_efficiency =
                    scaling_efficiency(out.baseline, p.result.samples_per_s, row.size.devices());
    return out;
}

} // namespace cp::sim
