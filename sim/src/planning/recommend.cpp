#include "clusterplan/sim/recommend.h"

#include "clusterplan/sim/format.h"
#include "clusterplan/sim/purchase_compare.h"
#include "clusterplan/sim/purchase_costs.h"
#include "clusterplan/sim/scaling.h"
#include "clusterplan/sim/wording.h"
#include "planning/recommend_noise.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <tuple>

namespace cp::sim {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
// A step component is worth a sentence when it takes at least this share of the step.
constexpr double kNotableShare = 0.05;

// Whether the planner chose any parallel field of this plan (instance and nodes aside).
bool layout_searched(const PlanReport& r) {
    return std::any_of(r.searched.begin(), r.searched.end(),
                       [](const std::string& f) { return f != "instance" && f != "nodes"; });
}

bool cost_objective(Objective o) {
    return o == Objective::cost || o == Objective::cost_under_deadline;
}

// Money in the planner's sentences: "$842,100", "$1.23M".
std::string usd(double v) {
    return is_known(v) ? fmt::usd_short(v) : "unknown cost";
}

// "12% cheaper than #1", "3.2× slower than #1", "as fast as #1": a compared with b.
std::string relative(double a, double b, const char* up, const char* down, const char* same,
                     const std::string& what) {
    const double ratio = a / b;
    if (std::abs(ratio - 1.0) < 0.005) return std::string(same) + " " + what;
    // Large gaps read better as factors.
    if (ratio >= 2.0) return fmt::number(ratio, 1) + "× " + up + " than " + what;
    return fmt::percent(std::abs(ratio - 1.0), 0) + " " + (ratio > 1.0 ? up : down) + " than " +
           what;
}

std::string hours(double h) {
    return format_duration_s(h * 3600.0);
}

std::string describe_option(const PlanReport& r) {
    return std::to_string(r.nodes) + " × " + r.instance + " (" + std::to_string(r.devices) + " × " +
           r.accelerator + ", " + purchase_label(r.purchase) + ")";
}

const char* link_name(IntraNodeLink link) {
    switch (link) {
    case IntraNodeLink::nvswitch:
        return "NVSwitch";
    case IntraNodeLink::nvlink:
        return "NVLink";
    case IntraNodeLink::pcie:
        return "PCIe";
    case IntraNodeLink::neuronlink:
        return "NeuronLink";
    case IntraNodeLink::rocem:
        return "RoCE";
    case IntraNodeLink::none:
        break;
    }
    return "no intra-node fabric";
}

// Sort key: the objective's figure, then the other figure, then identity (deterministic).
auto option_key(const SweepResult& sw, Objective objective, const PlanOption& o) {
    const ConfigBest& c = sw.configs[o.config];
    const double cost = is_known(o.cost_usd) ? o.cost_usd : kInf;
    const double primary = cost_objective(objective) ? cost : o.wall_time_h;
    const double secondary = cost_objective(objective) ? o.wall_time_h : cost;
    return std::make_tuple(primary, secondary, c.candidate, c.nodes, static_cast<int>(o.kind));
}

} // namespace

std::string why_nothing_fits(const CandidateSummary& s, const NodeSpec& node, const Scenario& sc) {
    const int max_nodes = sc.nodes ? *sc.nodes : sc.constraints.max_nodes;
    const std::string up_to = std::to_string(max_nodes) + (max_nodes == 1 ? " node" : " nodes");
    if (s.out_of_memory > 0 || (s.node_counts_pruned > 0 && s.evaluated == 0))
        return "no layout fits in the " + fmt::number(node.accelerator.memory_gib, 0) +
               " GiB of each " + node.accelerator.id + " on up to " + up_to + " (raise " +
               (sc.nodes ? "cluster.nodes" : "constraints.max_nodes") +
               " to spread the model over more devices, or offload with parallel.offload)";
    if (s.unknown_hardware > 0)
        return std::string("a figure the model needs is unknown for ") + node.accelerator.id +
               " (peak at " + enum_name(plan_precision(sc, node.accelerator)) +
               ", memory or bandwidth); try another precision";
    if (s.cannot_train > 0)
        return node.accelerator.id + " cannot train at " +
               enum_name(plan_precision(sc, node.accelerator));
    return "no layout is valid up to " + up_to + " (batch, heads or layer counts do not divide)";
}

std::string no_price_sentence(const Scenario& sc, int options) {
    std::string out = std::to_string(options) + " options have no known price";
    if (sc.custom && !is_known(sc.custom->usd_per_node_hour))
        out += " (give cluster.custom.usd_per_node_hour, or rank by objective \"time\")";
    return out;
}

namespace {

// The excluded option that missed the deadline or budget by the smallest factor, in words;
// without one, why no option existed at all.
std::string nearest_miss(const Scenario& sc, const SweepResult& sw,
                         const std::vector<PlanOption>& missed, int no_price) {
    const Constraints& k = sc.constraints;
    const PlanOption* best = nullptr;
    double best_excess = kInf;
    for (const PlanOption& o : missed) {
        double excess = 0;
        if (is_known(k.deadline_hours)) excess = std::max(excess, o.wall_time_h / k.deadline_hours);
        if (is_known(k.budget_usd) && is_known(o.cost_usd))
            excess = std::max(excess, o.cost_usd / k.budget_usd);
        if (excess < best_excess) {
            best_excess = excess;
            best = &o;
        }
    }
    if (best) {
        const ConfigBest& c = sw.configs[static_cast<std::size_t>(best->config)];
        std::string out = "the nearest plan, " + std::to_string(c.nodes) + " × " +
                          sw.candidates[static_cast<std::size_t>(c.candidate)].instance_type +
                          (best->spot ? " on spot" : " on demand") + ", takes " +
                          hours(best->wall_time_h) + " for " + usd(best->cost_usd);
        if (is_known(k.deadline_hours) && best->wall_time_h > k.deadline_hours)
            out += ", " + fmt::percent(best->wall_time_h / k.deadline_hours - 1.0, 0) +
                   " over the " + hours(k.deadline_hours) + " deadline";
        if (is_known(k.budget_usd) && is_known(best->cost_usd) && best->cost_usd > k.budget_usd)
            out += ", " + fmt::percent(best->cost_usd / k.budget_usd - 1.0, 0) + " over the " +
                   usd(k.budget_usd) + " budget";
        return out;
    }
    if (no_price > 0) return no_price_sentence(sc, no_price);
    std::string out;
    for (std::size_t i = 0; i < sw.summaries.size(); ++i) {
        const CandidateSummary& s = sw.summaries[i];
        out += (out.empty() ? "" : "; ") + s.instance + ": " +
               (s.skipped.empty() ? why_nothing_fits(s, sw.candidates[i], sc) : s.skipped);
        if (out.size() > 300) break; // the first few say it; the report lists every instance
    }
    return out.empty() ? std::string("no instance to plan on") : out;
}

} // namespace

Ranking rank_options(const Scenario& sc, const SweepResult& sw, int top_n) {
    Ranking rk;
    std::vector<PlanOption> missed; // excluded by the deadline or the budget
    const Constraints& k = sc.constraints;
    // Only what the scenario's pricing allows (purchase_allowed); an option it names explicitly
    // is counted even when unpriced, so the summary can say so.
    const bool named = sc.pricing != Pricing::any;
    const int trials = sc.training.trials;
    const int parallel = std::min(sc.training.max_parallel_trials, trials);
    const int waves = (trials + parallel - 1) / parallel;
    auto add = [&](int index, PurchaseKind kind, double job_time_h, double job_cost) {
        PlanOption o{index, kind == PurchaseKind::spot, waves * job_time_h, trials * job_cost,
                     kind};
        ++rk.options_considered;
        if (is_known(k.deadline_hours) && o.wall_time_h > k.deadline_hours) {
            ++rk.excluded_deadline;
            missed.push_back(o);
            return;
        }
        if ((is_known(k.budget_usd) || cost_objective(k.objective)) && !is_known(o.cost_usd)) {
            ++rk.excluded_no_price;
            return;
        }
        if (is_known(k.budget_usd) && o.cost_usd > k.budget_usd) {
            ++rk.excluded_budget;
            missed.push_back(o);
            return;
        }
        rk.sorted.push_back(o);
    };
    for (std::size_t i = 0; i < sw.configs.size(); ++i) {
        const ConfigBest& c = sw.configs[i];
        const int index = static_cast<int>(i);
        if (purchase_allowed(sc, PurchaseKind::on_demand))
            add(index, PurchaseKind::on_demand, c.job.time_to_train_h, c.job.cost_usd);
        if (purchase_allowed(sc, PurchaseKind::spot) && c.job.spot.feasible && c.job.spot.priced)
            add(index, PurchaseKind::spot, c.job.spot.wall_time_h, c.job.spot.cost_usd);
        const CommittedCosts& m = c.job.committed;
        if (purchase_allowed(sc, PurchaseKind::capacity_block) &&
            (named || m.capacity_block.available))
            add(index, PurchaseKind::capacity_block, c.job.time_to_train_h,
                m.capacity_block.cost_usd);
        if (purchase_allowed(sc, PurchaseKind::reserved_1y))
            add(index, PurchaseKind::reserved_1y, c.job.time_to_train_h,
                m.reserved_1y.job_cost_usd);
        if (purchase_allowed(sc, PurchaseKind::reserved_3y))
            add(index, PurchaseKind::reserved_3y, c.job.time_to_train_h,
                m.reserved_3y.job_cost_usd);
    }
    std::sort(rk.sorted.begin(), rk.sorted.end(), [&](const PlanOption& a, const PlanOption& b) {
        return option_key(sw, k.objective, a) < option_key(sw, k.objective, b);
    });
    std::set<std::pair<int, PurchaseKind>> seen;
    for (const PlanOption& o : rk.sorted) {
        if (static_cast<int>(rk.ranked.size()) >= top_n) break;
        if (seen.insert({sw.configs[o.config].candidate, o.kind}).second) rk.ranked.push_back(o);
    }
    // Pareto front of (wall time, cost): fastest first, keep an option only if it is cheaper than
    // every faster one.
    std::vector<PlanOption> priced;
    for (const PlanOption& o : rk.sorted)
        if (is_known(o.cost_usd)) priced.push_back(o);
    std::sort(priced.begin(), priced.end(), [&](const PlanOption& a, const PlanOption& b) {
        return option_key(sw, Objective::time, a) < option_key(sw, Objective::time, b);
    });
    double best_cost = kInf;
    for (const PlanOption& o : priced) {
        if (o.cost_usd < best_cost) {
            rk.pareto.push_back(o);
            best_cost = o.cost_usd;
        }
    }
    switch (k.objective) {
    case Objective::cost:
        rk.objective_text = "lowest cost";
        break;
    case Objective::time:
        rk.objective_text = "shortest time";
        break;
    case Objective::cost_under_deadline:
        rk.objective_text = "lowest cost within the " + hours(k.deadline_hours) + " deadline";
        break;
    case Objective::time_under_budget:
        rk.objective_text = "shortest time within the " + usd(k.budget_usd) + " budget";
        break;
    }
    if (rk.sorted.empty()) rk.nearest_miss = nearest_miss(sc, sw, missed, rk.excluded_no_price);
    return rk;
}

PlanReport option_report(const Scenario& sc, const SweepResult& sw, const PlanOption& o,
                         const CalibrationProfile* cal, const ScalingBaseline* baseline) {
    const ConfigBest& c = sw.configs[o.config];
    PlanReport r =
        make_plan_report(sc, sw.candidates[c.candidate], c.nodes, c.layout, cal, baseline);
    r.spot = o.spot;
    r.purchase = o.kind;
    r.searched = searched_fields(sc);
    if (!sc.nodes) r.searched.insert(r.searched.begin(), "nodes");
    if (sc.instance.empty()) r.searched.insert(r.searched.begin(), "instance");
    std::string fields;
    for (const auto& f : r.searched)
        fields += (fields.empty() ? "" : ", ") + f;
    if (!fields.empty())
        r.note =
            "searched " + fields + ": best of " + std::to_string(sw.evaluated) + " plans evaluated";
    return r;
}

std::vector<std::string> explain_limits(const PlanReport& r) {
    std::vector<std::string> out;
    if (!r.result.valid()) {
        out.push_back(r.limit_reason);
        return out;
    }
    const PlanResult& p = r.result;
    const StepBreakdown& b = p.breakdown_s;
    const double step = p.step_time_s;
    const Layout& l = r.layout;
    auto share = [&](double part) { return step > 0 ? part / step : 0.0; };
    out.push_back("compute is " + fmt::percent(share(b.compute_s), 0) + " of the " +
                  format_duration_s(step) + " step, at " + fmt::percent(p.mfu, 0) + " MFU");
    if (share(b.pp_bubble_s) >= kNotableShare) {
        out.push_back(
            "pipeline bubble: " + fmt::percent(share(b.pp_bubble_s), 0) + " of the step (pp=" +
            std::to_string(l.pp) + " with " + std::to_string(l.micro_batches()) +
            " micro-batches per step; more micro-batches or interleaving would shrink it)");
    }
    if (share(b.dp_comm_exposed_s) >= kNotableShare) {
        const bool multi_node = r.nodes > 1;
        std::string where =
            multi_node
                ? "the " + fmt::number(r.node.inter_node_gbps, 0) + " Gbps inter-node network"
                : std::string("the ") + link_name(r.node.intra_link) + " links inside the node";
        out.push_back("network: gradient synchronisation (dp=" + std::to_string(l.dp) + ") over " +
                      where + " is exposed for " + fmt::percent(share(b.dp_comm_exposed_s), 0) +
                      " of the step");
    }
    if (share(b.tp_comm_s) >= kNotableShare) {
        out.push_back("tensor-parallel all-reduces (tp=" + std::to_string(l.tp) + " over " +
                      link_name(r.node.intra_link) + ") take " +
                      fmt::percent(share(b.tp_comm_s), 0) + " of the step");
    }
    if (share(b.pp_comm_s) >= kNotableShare)
        out.push_back("pipeline transfers take " + fmt::percent(share(b.pp_comm_s), 0) +
                      " of the step");
    if (share(b.recompute_s) >= kNotableShare && l.recompute == Recompute::none) {
        // Without activation recompute the recompute time is fused attention's own: its
        // backward pass recomputes the attention scores by design, not to save memory.
        out.push_back("fused attention recomputes the attention scores in the backward pass, "
                      "costing " +
                      fmt::percent(share(b.recompute_s), 0) + " of the step");
    } else if (share(b.recompute_s) >= kNotableShare) {
        // Only a searched recompute mode was chosen to fit; a scenario's own choice is just a cost.
        const bool chosen =
            std::find(r.searched.begin(), r.searched.end(), "recompute") != r.searched.end();
        out.push_back(std::string("memory: activations are recomputed (") + enum_name(l.recompute) +
                      (chosen ? ") to fit, costing " : ", as the scenario sets), costing ") +
                      fmt::percent(share(b.recompute_s), 0) + " of the step");
    }
    if (share(b.optimizer_s) >= kNotableShare)
        out.push_back("the optimizer step takes " + fmt::percent(share(b.optimizer_s), 0) +
                      " of the step");
    if (share(b.host_overhead_s) >= kNotableShare)
        out.push_back(
            "host-bound: the GPUs wait " + fmt::percent(share(b.host_overhead_s), 0) +
            " of the step for the host to issue kernels (layers too small at micro-batch " +
            std::to_string(l.micro_batch) +
            "; a larger micro-batch or less tensor parallelism helps)");
    if (inter_node_over_tcp(r))
        out.push_back("network: " + r.node.instance_type +
                      " has no EFA, so NCCL falls back to TCP sockets between "
                      "the " +
                      std::to_string(r.nodes) +
                      " nodes; the inter-node times are optimistic unless "
                      "calibrated");
    const MemoryGib& m = p.memory_gib;
    if (m.capacity > 0 && m.total / m.capacity >= 0.85) {
        out.push_back("memory is " + fmt::percent(m.total / m.capacity, 0) + " full (" +
                      fmt::number(m.total, 1) + " of " + fmt::number(m.capacity, 1) +
                      " GiB per device): a larger micro-batch would not fit");
    }
    if (is_known(r.scaling_efficiency) && r.scaling_efficiency < 0.8) {
        out.push_back("scaling efficiency " + fmt::percent(r.scaling_efficiency, 0) + " of " +
                      (r.scaling_reference_devices == 1
                           ? std::string("one device's")
                           : std::to_string(r.scaling_reference_devices) + " devices'") +
                      " per-device throughput");
    }
    const SpotEstimate& s = r.job.spot;
    // A tuning job is compared as a whole, every trial included, as its headline figures are:
    // one trial's spot saving beside the whole job's cost would mix two scales. Expected
    // interruptions add up over the trials.
    const bool tuning = r.hpo.trials > 1;
    const double od_cost = tuning ? r.hpo.cost_usd : r.job.cost_usd;
    const double spot_cost = tuning ? r.hpo.spot_cost_usd : s.cost_usd;
    const double overhead_h = tuning ? r.hpo.spot_wall_time_h - r.hpo.wall_time_h : s.overhead_h;
    const double interruptions = s.expected_interruptions * r.hpo.trials;
    const std::string whole = tuning ? " (whole tuning job)" : "";
    if (r.spot && s.feasible) {
        std::string saving;
        if (is_known(od_cost) && od_cost > 0)
            saving = "; " + fmt::percent(1.0 - spot_cost / od_cost, 0) + " cheaper than on demand";
        out.push_back("spot risk" + whole + ": " + format_expected_interruptions(interruptions) +
                      (r.node.spot_advisor_known
                           ? " (Spot Advisor " + spot_bucket_label(r.node.spot_interruption_bucket)
                           : std::string(" (no Spot Advisor data: >20% assumed")) +
                      ", cluster MTBF " + hours(s.mtbf_h) +
                      "); checkpoints, restarts and lost work add " + hours(overhead_h) + saving);
    }
    if (!r.spot && s.feasible && s.priced && is_known(od_cost) && od_cost > 0) {
        out.push_back(
            std::string(tuning ? "on spot the whole tuning job" : "on spot the same plan") +
            " would cost about " + usd(spot_cost) + " (" +
            fmt::percent(1.0 - spot_cost / od_cost, 0) + " less) and take " + hours(overhead_h) +
            " longer, " + format_expected_interruptions(interruptions));
    }
    if (r.spot && r.nodes > 1)
        out.push_back("spot capacity: " + std::to_string(r.nodes) + " × " + r.instance +
                      " in one zone at once is not guaranteed (no published capacity figures); a "
                      "Capacity Block or on-demand capacity reservation is");
    if (std::string line = purchase_side_by_side(r.job); !line.empty())
        out.push_back(std::move(line));
    if (r.hpo.trials > 1) {
        out.push_back("tuning job: " + std::to_string(r.hpo.trials) + " trials, " +
                      std::to_string(r.hpo.max_parallel_trials) + " at a time (" +
                      std::to_string(r.hpo.waves) + " waves, up to " +
                      std::to_string(r.hpo.peak_nodes) + " nodes at once)");
    }
    return out;
}

RecommendResult recommend(const Scenario& sc, std::vector<NodeSpec> candidates,
                          const CalibrationProfile* cal, int top_n, const SweepOptions& options) {
    RecommendResult res;
    res.sweep = sweep(sc, std::move(candidates), cal, options);
    res.ranking = rank_options(sc, res.sweep, top_n);
    const SweepResult& sw = res.sweep;
    const Ranking& rk = res.ranking;

    std::map<int, ScalingBaseline> baselines; // per candidate: computed once
    auto baseline = [&](int candidate) -> const ScalingBaseline* {
        auto it = baselines.find(candidate);
        if (it == baselines.end())
            it = baselines.emplace(candidate, scaling_baseline(sc, sw.candidates[candidate], cal))
                     .first;
        return &it->second;
    };
    auto report = [&](const PlanOption& o) {
        return option_report(sc, sw, o, cal, baseline(sw.configs[o.config].candidate));
    };

    const PlanOption* fastest = rk.pareto.empty() ? nullptr : &rk.pareto.front();
    const PlanOption* cheapest = rk.pareto.empty() ? nullptr : &rk.pareto.back();
    for (std::size_t i = 0; i < rk.ranked.size(); ++i) {
        const PlanOption& o = rk.ranked[i];
        Recommendation rec;
        rec.rank = static_cast<int>(i) + 1;
        rec.report = report(o);
        const std::string what = describe_option(rec.report);
        // A tuning job's options rank on the whole job; the headline figures are per trial.
        const std::string figures = hours(o.wall_time_h) + " for " + usd(o.cost_usd) +
                                    (sc.training.trials > 1 ? " for the whole tuning job" : "");
        if (i == 0) {
            rec.reasons.push_back("best by " + rk.objective_text + ": " + what + ", " + figures);
            if (rk.ranked.size() > 1) {
                const PlanOption& next = rk.ranked[1];
                const PlanReport next_r = report(next);
                if (cost_objective(sc.constraints.objective) && is_known(next.cost_usd) &&
                    next.cost_usd > 0)
                    rec.reasons.push_back(fmt::percent(1.0 - o.cost_usd / next.cost_usd, 0) +
                                          " cheaper than the next choice, " +
                                          describe_option(next_r));
                else if (next.wall_time_h > 0)
                    rec.reasons.push_back(fmt::percent(1.0 - o.wall_time_h / next.wall_time_h, 0) +
                                          " faster than the next choice, " +
                                          describe_option(next_r));
            }
        } else {
            const PlanOption& top = rk.ranked[0];
            std::string cmp = "#" + std::to_string(rec.rank) + ": " + what + ", " + figures;
            if (is_known(o.cost_usd) && is_known(top.cost_usd) && top.cost_usd > 0) {
                cmp += "; " +
                       relative(o.cost_usd, top.cost_usd, "more expensive", "cheaper",
                                "as cheap as", "#1") +
                       ", " +
                       relative(o.wall_time_h, top.wall_time_h, "slower", "faster", "as fast as",
                                "#1");
            }
            rec.reasons.push_back(cmp);
        }
        if (fastest && fastest->config == o.config && fastest->kind == o.kind &&
            rk.pareto.size() > 1)
            rec.reasons.push_back("the fastest plan on the time-cost Pareto front");
        else if (cheapest && cheapest->config == o.config && cheapest->kind == o.kind &&
                 !(i == 0 && cost_objective(sc.constraints.objective))) // #1 by cost says so
            rec.reasons.push_back("the cheapest plan found");
        rec.reasons.push_back("layout tp=" + std::to_string(rec.report.layout.tp) +
                              ", pp=" + std::to_string(rec.report.layout.pp) +
                              ", dp=" + std::to_string(rec.report.layout.dp) + ", micro-batch " +
                              std::to_string(rec.report.layout.micro_batch) + ", ZeRO-" +
                              std::to_string(rec.report.layout.zero) + ", recompute " +
                              enum_name(rec.report.layout.recompute) +
                              (layout_searched(rec.report) ? " was the fastest of its cluster"
                                                           : " as the scenario sets it"));
        rec.limits = explain_limits(rec.report);
        res.recommendations.push_back(std::move(rec));
    }
    for (const PlanOption& o : rk.pareto)
        res.pareto.push_back(report(o));

    // What was excluded, in words.
    for (const auto& s : sw.summaries) {
        if (!s.skipped.empty()) {
            res.summary.push_back("skipped: " + s.skipped);
        } else if (s.configs_fitting == 0) {
            res.summary.push_back(s.instance + ": " +
                                  why_nothing_fits(s, sw.candidates[&s - sw.summaries.data()], sc));
        }
    }
    if (rk.excluded_deadline > 0)
        res.summary.push_back(std::to_string(rk.excluded_deadline) + " options miss the " +
                              hours(sc.constraints.deadline_hours) + " deadline");
    if (rk.excluded_budget > 0)
        res.summary.push_back(std::to_string(rk.excluded_budget) + " options exceed the " +
                              usd(sc.constraints.budget_usd) + " budget");
    if (rk.excluded_no_price > 0)
        res.summary.push_back(no_price_sentence(sc, rk.excluded_no_price));
    if (rk.ranked.empty())
        res.summary.push_back(
            "no plan meets the constraints: raise max_nodes, the deadline or the budget, "
            "or allow more instance types");
    add_interval_notes(sc, res);
    return res;
}

} // namespace cp::sim
