#include "scaling_data.h"

#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/recommend.h"
#include "clusterplan/sim/search.h"

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
    const sim::CalibrationProfile* calibration = request.calibration ? &*request.calibration : nullptr;
    for (const sim::NodeSpec& node : request.nodes) {
        if (!sim::training_refusal(node).empty()) continue;
        const QString instance = QString::fromStdString(node.instance_type);
        const sim::ScalingBaseline baseline = sim::scaling_baseline(sc, node, calibration);
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
            out.evaluated += sim::evaluate_layouts(sc, cluster, space, calibration,
                                                   [&](const sim::Layout& l, const sim::PlanResult& r) {
                                                       if (!r.valid()) return;
                                                       auto& slot = best[{l.tp, l.pp}];
                                                       if (slot.second.step_time_s == 0 || r.step_time_s < slot.second.step_time_s) {
                                                           slot = {l, r};
                                                       }
                                                   });
            // Fastest plan of each family at this size, with its cost.
            std::map<LayoutFamily, charts::ScalingPoint> family_best;
            for (const auto& [key, lr] : best) {
                const LayoutFamily family = classify(lr.first);
                auto it = family_best.find(family);
                if (it != family_best.end() && it->second.tokens_per_s >= lr.second.tokens_per_s) continue;
                const sim::JobEconomics job = sim::job_economics(sc, node, nodes, lr.second.step_time_s);
                const double per_device = lr.second.samples_per_s / devices;
                family_best[family] = {devices, lr.second.tokens_per_s,
                                       base_per_device > 0 ? per_device / base_per_device : sim::kUnknown,
                                       job.cost_usd};
            }
            for (const auto& [family, point] : family_best) {
                charts::ScalingSeries& s = by_family[family];
                s.label = request.nodes.size() > 1 ? family_label(family) + QStringLiteral(" · ") + instance
                                                   : family_label(family);
                s.points.push_back(point);
            }
            if (progress) progress(++done, total);
        }
        for (auto& [family, s] : by_family) out.series.push_back(std::move(s));
        if (out.cancelled) break;
    }
    if (out.cancelled) {
        out.seconds = double(timer.nsecsElapsed()) / 1e9;
        return out;
    }
    // Ranking and the Pareto front come from sim's sweep, exactly as `clusterplan recommend`.
    sim::Scenario sweep_sc = sc;
    sweep_sc.nodes.reset();
    sweep_sc.constraints.max_nodes = request.max_nodes;
    sim::SweepOptions options;
    options.threads = 2;
    options.cancel = &cancel;
    const sim::SweepResult sweep = sim::sweep(sweep_sc, request.nodes, calibration, options);
    out.evaluated += sweep.evaluated;
    out.cancelled = sweep.cancelled;
    auto to_plan = [&](const sim::ConfigBest& c) {
        SweepPlan p;
        p.instance = QString::fromStdString(sweep.candidates[std::size_t(c.candidate)].instance_type);
        p.nodes = c.nodes;
        p.devices = c.layout.devices();
        p.layout = c.layout;
        p.family = classify(c.layout);
        p.step_time_s = c.step_time_s;
        p.tokens_per_s = c.tokens_per_s;
        p.mfu = c.mfu;
        p.time_to_train_h = c.job.time_to_train_h;
        p.cost_usd = c.job.cost_usd;
        p.spot_cost_usd = c.job.spot.priced ? c.job.spot.cost_usd : sim::kUnknown;
        p.spot_time_h = c.job.spot.priced ? c.job.spot.wall_time_h : sim::kUnknown;
        p.wall_time_h = p.time_to_train_h;
        p.option_cost_usd = p.cost_usd;
        return p;
    };
    for (const sim::ConfigBest& c : sweep.configs) out.plans.push_back(to_plan(c));
    const sim::Ranking ranking = sim::rank_options(sweep_sc, sweep, 50);
    auto option_plan = [&](const sim::PlanOption& o) {
        SweepPlan p = to_plan(sweep.configs[std::size_t(o.config)]);
        p.spot = o.spot;
        p.wall_time_h = o.wall_time_h;
        p.option_cost_usd = o.cost_usd;
        return p;
    };
    // Every option meeting the constraints, best first (ranking.ranked keeps one per instance).
    for (const sim::PlanOption& o : ranking.sorted) {
        if (out.ranked.size() >= 50) break;
        out.ranked.push_back(option_plan(o));
    }
    for (const sim::PlanOption& o : ranking.pareto) out.front.push_back(option_plan(o));
    out.objective = QString::fromStdString(ranking.objective_text);
    if (ranking.excluded_deadline > 0) out.excluded << QObject::tr("%1 miss the deadline").arg(ranking.excluded_deadline);
    if (ranking.excluded_budget > 0) out.excluded << QObject::tr("%1 exceed the budget").arg(ranking.excluded_budget);
    if (ranking.excluded_no_price > 0) out.excluded << QObject::tr("%1 have no price").arg(ranking.excluded_no_price);
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
    // The purchase option is part of what was clicked: a spot point must open as a spot plan,
    // or the Plan page would headline the on-demand figures of a different choice.
    sc.pricing = plan.spot ? sim::Pricing::spot : sim::Pricing::on_demand;
    return sc;
}

} // namespace cp::gui
