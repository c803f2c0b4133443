#include "scaling_data.h"

#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/recommend.h"
#include "clusterplan/sim/scaling.h"
#include "clusterplan/sim/search.h"

#include <QElapsedTimer>
#include <QObject>
#include <algorithm>
#include <cmath>

namespace cp::gui {

QString family_label(LayoutFamily family) {
    switch (family) {
    case LayoutFamily::data:
        return QObject::tr("Data parallel");
    case LayoutFamily::tensor:
        return QObject::tr("Tensor + data parallel");
    case LayoutFamily::pipeline:
        return QObject::tr("Pipeline + data parallel");
    case LayoutFamily::three_d:
        return QObject::tr("3D (TP × PP × DP)");
    }
    return {};
}

QString series_label(LayoutFamily family) {
    // The 3D line is the envelope: the best layout of any kind at each size.
    return family == LayoutFamily::three_d ? QObject::tr("Best layout (3D: TP × PP × DP)")
                                           : family_label(family);
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
    // Every layout is searched here: the page compares layout families.
    const sim::Scenario sc = sim::with_layout_searched(request.scenario);
    const sim::CalibrationProfile* calibration =
        request.calibration ? &*request.calibration : nullptr;
    // The report's device counts: 1, 2, 4 ... within a node, then whole nodes doubling.
    std::vector<std::vector<sim::ScalingSize>> sizes;
    int total = 0;
    for (const sim::NodeSpec& node : request.nodes) {
        sizes.push_back(sim::scaling_sizes(node.accelerators_per_node, request.max_nodes));
        if (sim::training_refusal(sc, node).empty()) total += int(sizes.back().size());
    }
    int done = 0;
    sim::ScalingOptions scaling_options;
    scaling_options.calibration = calibration;
    scaling_options.cancel = &cancel;
    scaling_options.progress = [&](int step, int) {
        if (progress) progress(done + step, total);
    };
    // The page's four families; its "3D" line is the best of every layout (sim's `any`).
    const std::pair<LayoutFamily, sim::LayoutFamily> families[] = {
        {LayoutFamily::data, sim::LayoutFamily::data},
        {LayoutFamily::tensor, sim::LayoutFamily::tensor},
        {LayoutFamily::pipeline, sim::LayoutFamily::pipeline},
        {LayoutFamily::three_d, sim::LayoutFamily::any}};
    for (std::size_t i = 0; i < request.nodes.size(); ++i) {
        const sim::NodeSpec& node = request.nodes[i];
        if (!sim::training_refusal(sc, node).empty()) continue;
        const sim::ScalingCurves curves = sim::scaling_curves(sc, node, sizes[i], scaling_options);
        done += int(curves.rows.size());
        out.evaluated += curves.evaluated;
        const QString instance = QString::fromStdString(node.instance_type);
        for (const auto& [family, sim_family] : families) {
            charts::ScalingSeries s;
            s.label = series_label(family);
            // The best layout often is one of the others: dashed, the one below stays visible.
            s.dashed = sim_family == sim::LayoutFamily::any;
            if (request.nodes.size() > 1) s.label += QStringLiteral(" · ") + instance;
            for (const sim::ScalingRow& row : curves.rows) {
                const sim::ScalingPoint& p = row.at(sim_family);
                if (p.found)
                    s.points.push_back(
                        {row.size.devices(), p.throughput, p.scaling_efficiency, p.cost_usd});
            }
            if (!s.points.empty()) out.series.push_back(std::move(s));
        }
        if (curves.cancelled) {
            out.cancelled = true;
            out.seconds = double(timer.nsecsElapsed()) / 1e9;
            return out;
        }
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
        p.instance =
            QString::fromStdString(sweep.candidates[std::size_t(c.candidate)].instance_type);
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
    for (const sim::ConfigBest& c : sweep.configs)
        out.plans.push_back(to_plan(c));
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
    for (const sim::PlanOption& o : ranking.pareto)
        out.front.push_back(option_plan(o));
    out.objective = QString::fromStdString(ranking.objective_text);
    if (ranking.excluded_deadline > 0)
        out.excluded << QObject::tr("%1 miss the deadline").arg(ranking.excluded_deadline);
    if (ranking.excluded_budget > 0)
        out.excluded << QObject::tr("%1 exceed the budget").arg(ranking.excluded_budget);
    if (ranking.excluded_no_price > 0)
        out.excluded << QObject::tr("%1 have no price").arg(ranking.excluded_no_price);
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
