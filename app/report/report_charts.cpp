// The report's charts as ChartSpecs: time-vs-cost Pareto, data- vs model-parallel scaling,
// step-time breakdown and memory per device. Drawn by chart_render.cpp.
#include "plan_fields.h"
#include "report_format.h"
#include "report_sections.h"

#include <QMap>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace cp::report {
namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

// Rescales one axis of an xy chart to thousands/millions/billions so tick labels stay short
// ("12" with "million USD" rather than "1.2e+07").
void rescale_axis(ChartSpec& chart, bool y_axis, const QString& unit) {
    double max_abs = 0;
    for (const auto& s : chart.series) {
        for (const auto& p : s.points)
            max_abs = std::max(max_abs, std::abs(y_axis ? p.y() : p.x()));
    }
    struct Step {
        double factor;
        const char* word;
    };
    const Step steps[] = {{1e9, "billion"}, {1e6, "million"}, {1e3, "thousand"}};
    double factor = 1;
    QString label = unit;
    for (const auto& step : steps) {
        if (max_abs >= step.factor * 10) {
            factor = step.factor;
            label = QStringLiteral("%1 %2").arg(QString::fromLatin1(step.word), unit);
            break;
        }
    }
    for (auto& s : chart.series) {
        for (auto& p : s.points)
            (y_axis ? p.ry() : p.rx()) /= factor;
    }
    QString& axis_label = y_axis ? chart.y_label : chart.x_label;
    axis_label = axis_label.arg(label);
}

// A log axis over less than about a decade shows one or two tick labels at most: such an
// axis is drawn linear instead, and its label loses the "log scale" note.
void log_only_where_wide(ChartSpec& chart) {
    auto span = [&chart](bool y_axis) {
        double lo = std::numeric_limits<double>::infinity();
        double hi = 0;
        for (const auto& s : chart.series) {
            for (const auto& p : s.points) {
                const double v = y_axis ? p.y() : p.x();
                if (v > 0 && std::isfinite(v)) {
                    lo = std::min(lo, v);
                    hi = std::max(hi, v);
                }
            }
        }
        return hi > 0 ? hi / lo : 1.0;
    };
    auto unlog = [](bool& log, QString& label) {
        log = false;
        label.replace(QStringLiteral(", log scale)"), QStringLiteral(")"));
        label.replace(QStringLiteral(" (log scale)"), QString());
    };
    constexpr double kMinLogSpan = 20.0;
    if (chart.log_x && span(false) < kMinLogSpan) unlog(chart.log_x, chart.x_label);
    if (chart.log_y && span(true) < kMinLogSpan) unlog(chart.log_y, chart.y_label);
}

Figure pareto_figure(const ReportData& data) {
    ChartSpec c;
    c.title = QStringLiteral("Time to train vs cost");
    c.x_label = QStringLiteral("wall time to train (h, log scale)");
    c.y_label = QStringLiteral("cost (%1, log scale)");
    c.log_x = true;
    c.log_y = true;
    ChartSeries all{QStringLiteral("other plans"), {}, false, true, false, true};
    ChartSeries front{QStringLiteral("Pareto front"), {}, true, true, false, false};
    ChartSeries top{QStringLiteral("runners-up"), {}, false, true, false, false};
    ChartSeries best{QStringLiteral("recommended"), {}, false, true, true, false};
    for (const auto& p : data.cost_time) {
        if (!(p.time_to_train_h > 0 && p.cost_usd > 0)) continue;
        const QPointF point(p.time_to_train_h, p.cost_usd);
        if (p.on_front) {
            front.points.push_back(point);
        } else if (p.rank == 0) {
            all.points.push_back(point);
        }
        if (p.rank == 1) best.points.push_back(point);
        if (p.rank > 1) top.points.push_back(point);
    }
    std::sort(front.points.begin(), front.points.end(),
              [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    c.series = {all, front, top, best};
    rescale_axis(c, true, QStringLiteral("USD"));
    log_only_where_wide(c);
    return Figure{
        c,
        QStringLiteral(
            "Every plan meeting the constraints (grey; on demand and, where allowed, spot with "
            "expected interruptions), the Pareto front (no plan is both faster and cheaper), the "
            "runners-up and the recommendation."),
        QStringLiteral("pareto")};
}

std::vector<Figure> scaling_figures(const ReportData& data) {
    // One pass: each strategy's throughput and efficiency series side by side.
    QMap<QString, std::pair<ChartSeries, ChartSeries>> by_strategy;
    QStringList order;
    for (const auto& p : data.scaling) {
        const QString name = qs(p.strategy);
        if (!by_strategy.contains(name)) {
            order << name;
            const ChartSeries empty{name, {}, true, true, false, false};
            by_strategy[name] = {empty, empty};
        }
        auto& [throughput, efficiency] = by_strategy[name];
        throughput.points.emplace_back(p.devices, p.throughput);
        efficiency.points.emplace_back(p.devices, p.efficiency * 100.0);
    }
    // Same strategy, same colour in every report: data parallel first, then model parallel,
    // then the rest, whichever appears first at the smallest device count.
    std::stable_sort(order.begin(), order.end(), [](const QString& a, const QString& b) {
        auto key = [](const QString& name) {
            if (name.startsWith(QLatin1String("Data parallel"))) return 0;
            if (name.startsWith(QLatin1String("Model parallel"))) return 1;
            return 2;
        };
        return key(a) < key(b);
    });
    ChartSpec tput;
    tput.title = QStringLiteral("Throughput vs devices");
    tput.x_label = QStringLiteral("devices (log scale)");
    tput.y_label = QStringLiteral("%1 (log scale)");
    tput.log_x = true;
    tput.log_y = true;
    ChartSpec eff = tput;
    eff.title = QStringLiteral("Scaling efficiency vs devices");
    eff.y_label = QStringLiteral("scaling efficiency (%)");
    eff.log_y = false;
    for (const auto& name : order) {
        auto [s, e] = by_strategy[name];
        // The best layout often is the data- or model-parallel one: drawn dashed on top, the
        // curve it coincides with stays visible.
        s.dashed = !name.startsWith(QLatin1String("Data parallel")) &&
                   !name.startsWith(QLatin1String("Model parallel"));
        e.dashed = s.dashed;
        for (ChartSeries* series : {&s, &e})
            std::sort(series->points.begin(), series->points.end(),
                      [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
        tput.series.push_back(s);
        eff.series.push_back(e);
    }
    rescale_axis(tput, true, qs(data.throughput_unit));
    log_only_where_wide(tput);
    log_only_where_wide(eff);
    // A family with no line is one with no plan that fits: say so rather than leave the reader
    // looking for a missing curve.
    QString missing;
    for (const QString& family :
         {QStringLiteral("Data parallel"), QStringLiteral("Model parallel")}) {
        const bool drawn = std::any_of(order.begin(), order.end(), [&](const QString& name) {
            return name.startsWith(family);
        });
        if (!drawn)
            missing += QStringLiteral(" %1 alone gives no plan that fits (memory, batch split) at "
                                      "any device count here, so it has no line.")
                           .arg(family);
    }
    return {
        Figure{
            tput,
            QStringLiteral(
                "Best throughput found at each device count on the recommended instance type, "
                "data parallel only vs model parallel (tensor/pipeline) vs the best 3D layout.") +
                missing,
            QStringLiteral("scaling-throughput")},
        Figure{
            eff,
            QStringLiteral(
                "Scaling efficiency = throughput(n) / (n × throughput of one device), relative to "
                "the "
                "smallest configuration that fits when one device is too small; above 100 % when "
                "that reference had to trade speed for memory (see the assumptions)."),
            QStringLiteral("scaling-efficiency")}};
}

// Two short lines so category labels are not elided under narrow bars. Qt Charts draw
// axis labels as rich text: "<br>" breaks the line, and the text itself is escaped.
QString bar_label(const nlohmann::ordered_json& plan, size_t index) {
    return plan_instance(plan).toHtmlEscaped() +
           QStringLiteral("<br>#%1 · ×%2%3")
               .arg(index + 1)
               .arg(plan_nodes(plan))
               .arg(plan_is_spot(plan) ? QStringLiteral(" spot") : QString());
}

// One stacked bar per plan (the first four), one stack part per JSON path; a missing
// value is drawn as zero.
ChartSpec stacked_chart(const ReportData& data, const QString& title, const QString& y_label,
                        const std::vector<std::pair<const char*, QString>>& parts) {
    ChartSpec c;
    c.kind = ChartKind::stacked_bar;
    c.title = title;
    c.y_label = y_label;
    const size_t shown = std::min<size_t>(data.plans.size(), 4);
    for (size_t i = 0; i < shown; ++i)
        c.categories << bar_label(data.plans[i], i);
    for (const auto& [path, name] : parts) {
        ChartSeries s{name, {}, false, false, false, false};
        for (size_t i = 0; i < shown; ++i) {
            const double v = fmt::number(data.plans[i], path);
            s.points.emplace_back(static_cast<double>(i), std::isfinite(v) ? v : 0.0);
        }
        c.series.push_back(s);
    }
    return c;
}

Figure breakdown_figure(const ReportData& data) {
    const ChartSpec c = stacked_chart(
        data, QStringLiteral("Step-time breakdown"), QStringLiteral("seconds per step"),
        {
            {"breakdown_s.compute", QStringLiteral("compute")},
            {"breakdown_s.recompute", QStringLiteral("recompute")},
            {"breakdown_s.tp_comm", QStringLiteral("TP comm")},
            {"breakdown_s.pp_bubble", QStringLiteral("PP bubble")},
            {"breakdown_s.pp_comm", QStringLiteral("PP comm")},
            {"breakdown_s.dp_comm_exposed", QStringLiteral("DP comm")},
            {"breakdown_s.optimizer", QStringLiteral("optimizer")},
            {"breakdown_s.host_overhead", QStringLiteral("host overhead")},
            {"breakdown_s.cp_comm", QStringLiteral("CP comm")},
        });
    return Figure{
        c,
        QStringLiteral(
            "Where one training step's time goes, recommendation (#1) first. Communication "
            "overlapped with compute is not shown; only its exposed part adds to the step."),
        QStringLiteral("step-breakdown")};
}

Figure memory_figure(const ReportData& data) {
    ChartSpec c = stacked_chart(data, QStringLiteral("Memory per device"), QStringLiteral("GiB"),
                                {
                                    {"memory_gib.weights", QStringLiteral("weights")},
                                    {"memory_gib.gradients", QStringLiteral("gradients")},
                                    {"memory_gib.optimizer", QStringLiteral("optimizer state")},
                                    {"memory_gib.activations", QStringLiteral("activations")},
                                });
    const size_t shown = static_cast<size_t>(c.categories.size());
    // The total also holds what the parts do not name (framework reserve, pipeline
    // in-flight micro-batches): shown as its own part so each bar reaches the plan's total.
    ChartSeries rest{QStringLiteral("framework reserve, other"), {}, false, false, false, false};
    bool any_rest = false;
    for (size_t i = 0; i < shown; ++i) {
        double named = 0;
        for (const auto& part : c.series)
            named += part.points[i].y();
        const double total = fmt::number(data.plans[i], "memory_gib.total");
        const double v = std::isfinite(total) ? std::max(0.0, total - named) : 0.0;
        any_rest = any_rest || v > 1e-6;
        rest.points.emplace_back(static_cast<double>(i), v);
        c.reference_values.push_back(fmt::number(data.plans[i], "memory_gib.capacity"));
    }
    if (any_rest) c.series.push_back(rest);
    c.reference_label = QStringLiteral("device capacity");
    return Figure{
        c,
        QStringLiteral(
            "Memory each device needs (mixed-precision Adam; ZeRO and model parallelism shard "
            "parts of it) against each plan's device capacity (dashed)."),
        QStringLiteral("memory")};
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
    s.blocks.push_back(breakdown_figure(data));
    s.blocks.push_back(memory_figure(data));
    return s;
}

} // namespace cp::report
