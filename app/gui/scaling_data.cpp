#include "scaling_data.h"

#include "clusterplan/sim/planner.h"

#include <QElapsedTimer>
#include <QObject>

#include <algorithm>
#include <cmath>
#include <map>
#include <tuple>

namespace cp::gui {

QString family_label(LayoutFamily family) {
    switch (family) {
    case LayoutFamily::data: return QObject::tr("Data parallel");
    case LayoutFamily::tensor: return QObject::tr("Tensor + data parallel");
    case LayoutFamily::pipeline: return QObject::tr("Pipeline + data parallel");
    case LayoutFamily::three_d: return QObject::tr("3D (TP × PP × DP)");
    }
    return {};
}

namespace {
LayoutFamily classify(const sim::Layout& l) {
    if (l.tp > 1 && l.pp > 1) return LayoutFamily::three_d;
    if (l.tp > 1) return LayoutFamily::tensor;
    if (l.pp > 1) return LayoutFamily::pipeline;
    return LayoutFamily::data;
}

// Marks plans not dominated in (time, cost): no other plan is at least as fast and as cheap.
void mark_pareto(std::vector<SweepPlan>& plans) {
    std::vector<std::size_t> order(plans.size());
    for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return std::tie(plans[a].time_to_train_h, plans[a].cost_usd) < std::tie(plans[b].time_to_train_h, plans[b].cost_usd);
    });
    double best_cost = std::numeric_limits<double>::infinity();
    for (std::size_t i : order) {
        if (std::isnan(plans[i].cost_usd)) continue;
        if (plans[i].cost_usd < best_cost) {
            plans[i].on_front = true;
            best_cost = plans[i].cost_usd;
        }
    }
}
} // namespace

ScalingData compute_scaling(const ScalingRequest& request, const std::atomic<bool>& cancel,
                            const std::function<void(int, int)>& progress) {
    ScalingData out;
    QElapsedTimer timer;
    timer.start();
    sim::Scenario sc = request.scenario;
    // Every layout is searched here: the page compares layout families.
    sc.parallel.tp.reset();
    sc.parallel.pp.reset();
    sc.parallel.dp.reset();
    sc.parallel.micro_batch.reset();
    sc.parallel.zero.reset();
    sc.parallel.recompute.reset();
    std::vector<int> node_counts;
    for (int n = 1; n <= std::max(1, request.max_nodes); n *= 2) node_counts.push_back(n);
    const int total = int(node_counts.size() * request.nodes.size());
    int done = 0;
    sim::LayoutSpace space;
    for (const sim::NodeSpec& node : request.nodes) {
        if (!sim::training_refusal(node).empty()) continue;
        const QString instance = QString::fromStdString(node.instance_type);
        const sim::ScalingBaseline baseline = sim::scaling_baseline(sc, node, nullptr);
        const double base_per_device = baseline.devices > 0 ? baseline.samples_per_s / baseline.devices : 0;
        std::map<LayoutFamily, charts::ScalingSeries> by_family;
        for (int nodes : node_counts) {
            if (cancel.load()) {
                out.cancelled = true;
                break;
            }
            sim::Cluster cluster{node, nodes};
            const int devices = cluster.devices();
            sim::build_layout_space(sc, devices, node.accelerators_per_node, space);
            // Best (fastest) valid plan per (tp, pp) at this size.
            std::map<std::pair<int, int>, std::pair<sim::Layout, sim::PlanResult>> best;
            out.evaluated += sim::evaluate_layouts(sc, cluster, space, nullptr,
                                                   [&](const sim::Layout& l, const sim::PlanResult& r) {
                                                       if (!r.valid()) return;
                                                       auto& slot = best[{l.tp, l.pp}];
                                                       if (slot.second.step_time_s == 0 || r.step_time_s < slot.second.step_time_s) {
                                                           slot = {l, r};
                                                       }
                                                   });
            std::map<LayoutFamily, const SweepPlan*> family_best;
            const std::size_t first = out.plans.size();
            for (const auto& [key, lr] : best) {
                const sim::JobEconomics job = sim::job_economics(sc, node, nodes, lr.second.step_time_s);
                SweepPlan p;
                p.instance = instance;
                p.nodes = nodes;
                p.devices = devices;
                p.layout = lr.first;
                p.family = classify(lr.first);
                p.step_time_s = lr.second.step_time_s;
                p.tokens_per_s = lr.second.tokens_per_s;
                p.mfu = lr.second.mfu;
                p.time_to_train_h = job.time_to_train_h;
                p.cost_usd = job.cost_usd;
                p.spot_cost_usd = job.spot.priced ? job.spot.cost_usd : sim::kUnknown;
                p.spot_time_h = job.spot.priced ? job.spot.wall_time_h : sim::kUnknown;
                const auto& c = sc.constraints;
                p.meets_constraints = nodes <= c.max_nodes &&
                                      (std::isnan(c.deadline_hours) || p.time_to_train_h <= c.deadline_hours) &&
                                      (std::isnan(c.budget_usd) || std::isnan(p.cost_usd) || p.cost_usd <= c.budget_usd);
                out.plans.push_back(p);
            }
            for (std::size_t i = first; i < out.plans.size(); ++i) {
                const SweepPlan& p = out.plans[i];
                auto it = family_best.find(p.family);
                if (it == family_best.end() || p.tokens_per_s > it->second->tokens_per_s) family_best[p.family] = &p;
            }
            for (const auto& [family, p] : family_best) {
                charts::ScalingSeries& s = by_family[family];
                s.label = request.nodes.size() > 1 ? family_label(family) + QStringLiteral(" · ") + instance
                                                   : family_label(family);
                const double per_device = p->tokens_per_s / sc.workload.tokens_per_sample() / p->devices;
                s.points.push_back({p->devices, p->tokens_per_s,
                                    base_per_device > 0 ? per_device / base_per_device : sim::kUnknown, p->cost_usd});
            }
            if (progress) progress(++done, total);
        }
        for (auto& [family, s] : by_family) out.series.push_back(std::move(s));
        if (out.cancelled) break;
    }
    mark_pareto(out.plans);
    for (std::size_t i = 0; i < out.plans.size(); ++i) {
        if (out.plans[i].meets_constraints) out.ranked.push_back(int(i));
    }
    const bool by_time = sc.constraints.objective == sim::Objective::time ||
                         sc.constraints.objective == sim::Objective::time_under_budget;
    std::sort(out.ranked.begin(), out.ranked.end(), [&](int a, int b) {
        const SweepPlan& pa = out.plans[std::size_t(a)];
        const SweepPlan& pb = out.plans[std::size_t(b)];
        const double ca = std::isnan(pa.cost_usd) ? std::numeric_limits<double>::max() : pa.cost_usd;
        const double cb = std::isnan(pb.cost_usd) ? std::numeric_limits<double>::max() : pb.cost_usd;
        return by_time ? std::tie(pa.time_to_train_h, ca) < std::tie(pb.time_to_train_h, cb)
                       : std::tie(ca, pa.time_to_train_h) < std::tie(cb, pb.time_to_train_h);
    });
    out.seconds = double(timer.nsecsElapsed()) / 1e9;
    return out;
}

sim::Scenario scenario_for(const sim::Scenario& base, const SweepPlan& plan) {
    sim::Scenario sc = base;
    sc.instance = plan.instance.toStdString();
    sc.nodes = plan.nodes;
    sc.parallel.tp = plan.layout.tp;
    sc.parallel.pp = plan.layout.pp;
    sc.parallel.dp = plan.layout.dp;
    sc.parallel.micro_batch = plan.layout.micro_batch;
    sc.parallel.zero = plan.layout.zero;
    sc.parallel.recompute = plan.layout.recompute;
    sc.parallel.virtual_stages = plan.layout.virtual_stages;
    return sc;
}

} // namespace cp::gui
