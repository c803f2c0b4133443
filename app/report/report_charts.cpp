// The report's figures: its data handed to the shared chart builders (scaling_specs.h,
// plan_specs.h), which the GUI draws too; the renderers draw the specs (chart_image.h).
#include "plan_fields.h"
#include "plan_specs.h"
#include "report_format.h"
#include "report_sections.h"
#include "scaling_specs.h"

#include <QMap>
#include <algorithm>
#include <cmath>
#include <utility>

namespace cp::report {
namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

Figure pareto_figure(const ReportData& data) {
    std::vector<charts::ParetoPoint> points;
    for (const auto& p : data.cost_time) {
        charts::ParetoPoint point;
        point.time_h = p.time_to_train_h;
        point.cost_usd = p.cost_usd;
        point.on_front = p.on_front;
        point.rank = p.rank;
        point.tag = qs(p.label);
        points.push_back(point);
    }
    const charts::ParetoLimits limits{data.scenario.constraints.deadline_hours,
                                      data.scenario.constraints.budget_usd};
    return Figure{
        charts::pareto_spec(points, limits),
        QStringLiteral(
            "Every plan meeting the constraints (grey; on demand and, where allowed, spot with "
            "expected interruptions), the Pareto front (no plan is both faster and cheaper), the "
            "ranked plans (#1 is the recommendation) and the deadline or budget when set."),
        QStringLiteral("pareto")};
}

std::vector<Figure> scaling_figures(const ReportData& data) {
    QMap<QString, charts::ScalingSeries> by_strategy;
    QStringList order;
    for (const auto& p : data.scaling) {
        const QString name = qs(p.strategy);
        if (!by_strategy.contains(name)) {
            order << name;
            by_strategy[name].label = name;
        }
        by_strategy[name].points.push_back({p.devices, p.throughput, p.efficiency, std::nan("")});
    }
    // Same strategy, same colour in every report: data parallel first, then model parallel,
    // then the rest.
    auto family = [](const QString& name) {
        if (name.startsWith(QLatin1String("Data parallel"))) return 0;
        if (name.startsWith(QLatin1String("Model parallel"))) return 1;
        return 2;
    };
    std::stable_sort(order.begin(), order.end(),
                     [&](const QString& a, const QString& b) { return family(a) < family(b); });
    std::vector<charts::ScalingSeries> series;
    for (const QString& name : order) {
        charts::ScalingSeries s = by_strategy[name];
        // The best layout often is the data- or model-parallel one: drawn dashed on top, the
        // curve it coincides with stays visible.
        s.dashed = family(name) == 2;
        series.push_back(std::move(s));
    }
    // A family with no line is one with no plan that fits: say so rather than leave the reader
    // looking for a missing curve.
    QString missing;
    for (const QString& name :
         {QStringLiteral("Data parallel"), QStringLiteral("Model parallel")}) {
        const bool drawn = std::any_of(order.begin(), order.end(),
                                       [&](const QString& o) { return o.startsWith(name); });
        if (!drawn) {
            missing +=
                QStringLiteral(
                    " %1 alone gives no plan that fits (memory, batch split) at any device count "
                    "here, so it has no line.")
                    .arg(name);
        }
    }
    const QString unit = qs(data.throughput_unit);
    return {
        Figure{
            charts::scaling_spec(series, charts::ScalingMetric::throughput, unit),
            QStringLiteral(
                "Best throughput found at each device count on the recommended instance type, "
                "data parallel only vs model parallel (tensor/pipeline) vs the best 3D layout.") +
                missing,
            QStringLiteral("scaling-throughput")},
        Figure{
            charts::scaling_spec(series, charts::ScalingMetric::efficiency, unit),
            QStringLiteral(
                "Scaling efficiency = throughput(n) / (n × throughput of one device), relative to "
                "the "
                "smallest configuration that fits when one device is too small; above 100 % when "
                "that reference had to trade speed for memory (see the assumptions)."),
            QStringLiteral("scaling-efficiency")}};
}

// The first four plans, each as one bar: "p4d.24xlarge" over "#1 · ×16 spot". Category labels
// are rich text: "<br>" breaks the line and the instance name is escaped.
std::vector<charts::PlanBars> plan_bars(const ReportData& data) {
    std::vector<charts::PlanBars> out;
    const std::vector<sim::PlanReport> plans = report_plans(data);
    const size_t shown = std::min<size_t>(plans.size(), 4);
    for (size_t i = 0; i < shown; ++i) {
        const sim::PlanReport& plan = plans[i];
        charts::PlanBars b;
        b.label = QString::fromStdString(plan.instance).toHtmlEscaped() +
                  QStringLiteral("<br>#%1 · ×%2%3")
                      .arg(i + 1)
                      .arg(plan.nodes)
                      .arg(plan.spot ? QStringLiteral(" spot") : QString());
        b.step_time_s = plan.result.step_time_s;
        b.breakdown_s = plan.result.breakdown_s;
        b.memory_gib = plan.result.memory_gib;
        out.push_back(b);
    }
    return out;
}

} // namespace

Section charts_section(const ReportData& data) {
    Section s{QStringLiteral("Charts"), {}};
    if (data.plans.empty()) {
        s.blocks.push_back(Paragraph{QStringLiteral("No charts: there is no plan to chart."), {}});
        return s;
    }
    s.blocks.push_back(pareto_figure(data));
    for (auto& f : scaling_figures(data))
        s.blocks.push_back(std::move(f));
    const std::vector<charts::PlanBars> bars = plan_bars(data);
    s.blocks.push_back(Figure{
        charts::step_breakdown_spec(bars),
        QStringLiteral("Where one training step's time goes, recommendation (#1) first. "
                       "Communication overlapped with compute is not shown; only its exposed "
                       "part adds to the step."),
        QStringLiteral("step-breakdown")});
    s.blocks.push_back(
        Figure{charts::memory_spec(bars),
               QStringLiteral("Memory each device needs (mixed-precision Adam; ZeRO and model "
                              "parallelism shard parts of it) against each plan's device capacity "
                              "(dashed). \"Framework\" is the rest of the stated total: the "
                              "framework's reserve and in-flight pipeline micro-batches."),
               QStringLiteral("memory")});
    return s;
}

} // namespace cp::report
