#include "scaling_specs.h"

#include "chart_ticks.h"

#include <QObject>
#include <algorithm>
#include <cmath>
#include <limits>

namespace cp::charts {
namespace {

double metric_value(const ScalingPoint& p, ScalingMetric m) {
    switch (m) {
    case ScalingMetric::throughput:
        return p.tokens_per_s;
    case ScalingMetric::efficiency:
        return p.scaling_efficiency * 100.0;
    case ScalingMetric::cost:
        return p.cost_usd;
    }
    return 0;
}

// Efficiencies up to this are rounding around the reference size; above it the reader is
// told why (100.5 % shows as "101 %").
constexpr double kEfficiencyNoteAbovePercent = 100.5;

} // namespace

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
    // 20x: with 1-2-5 ticks, the least span that still shows three labelled ticks and reads
    // as a log scale rather than a slightly bent linear one.
    constexpr double kMinLogSpan = 20.0;
    if (chart.log_x && span(false) < kMinLogSpan) unlog(chart.log_x, chart.x_label);
    if (chart.log_y && span(true) < kMinLogSpan) unlog(chart.log_y, chart.y_label);
}

ChartSpec scaling_spec(const std::vector<ScalingSeries>& series, ScalingMetric metric,
                       const QString& throughput_unit, bool legend) {
    ChartSpec c;
    c.x_label = QObject::tr("devices (log scale)");
    c.log_x = true;
    c.x_ticks = TickStyle::powers_of_two;
    c.legend = legend ? LegendPlace::bottom : LegendPlace::none;
    switch (metric) {
    case ScalingMetric::throughput:
        c.title = QObject::tr("Throughput vs devices");
        c.y_label = QObject::tr("%1 (log scale)").arg(throughput_unit);
        // Throughput spans orders of magnitude: log-log shows linear scaling as a straight line.
        c.log_y = true;
        break;
    case ScalingMetric::efficiency:
        c.title = QObject::tr("Scaling efficiency vs devices");
        c.y_label = QObject::tr("% of linear scaling");
        break;
    case ScalingMetric::cost:
        c.title = QObject::tr("Cost to train vs devices");
        c.y_label = QObject::tr("cost to train (USD)");
        break;
    }
    double max_efficiency = 0;
    for (const ScalingSeries& s : series) {
        ChartSeries line;
        line.name = s.label;
        line.line = true;
        line.dashed = s.dashed;
        for (const ScalingPoint& p : s.points) {
            const double y = metric_value(p, metric);
            if (p.devices <= 0 || !std::isfinite(y)) continue;
            line.points.emplace_back(p.devices, y);
            if (metric == ScalingMetric::efficiency) max_efficiency = std::max(max_efficiency, y);
        }
        std::sort(line.points.begin(), line.points.end(),
                  [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
        c.series.push_back(std::move(line));
    }
    if (max_efficiency > kEfficiencyNoteAbovePercent) {
        // Efficiency is relative to the smallest size that fits; when that size fits only with
        // memory-saving settings (recompute, ZeRO, pipeline bubbles), larger sizes run faster
        // per device than it did.
        c.subtitle =
            QObject::tr("above 100 %: the smallest size that fits\nhad to trade speed for memory");
        c.reference_lines.push_back({false, 100.0, QObject::tr("linear scaling")});
    }
    log_only_where_wide(c);
    return c;
}

ChartSpec pareto_spec(const std::vector<ParetoPoint>& points, const ParetoLimits& limits) {
    ChartSpec c;
    c.title = QObject::tr("Time to train vs cost");
    c.x_label = QObject::tr("time to train (hours, log scale)");
    c.y_label = QObject::tr("cost to train (USD, log scale)");
    c.log_x = true;
    c.log_y = true;
    ChartSeries others;
    // Short legend names: the Scaling page gives this chart about 300 pixels.
    others.name = QObject::tr("plans");
    others.muted = true;
    ChartSeries line;
    line.name = QObject::tr("Pareto front");
    line.line = true;
    line.markers = false;
    line.dashed = true;
    line.in_legend = false; // it only joins the Pareto-optimal markers
    line.colour = series_colour(5);
    ChartSeries front = marker_series(QObject::tr("Pareto front"), 5);
    ChartSeries runners = marker_series(QObject::tr("ranked"), 0);
    ChartSeries best = marker_series(QObject::tr("#1"), 2, true);
    auto add = [](ChartSeries& s, const ParetoPoint& p, const QString& tag) {
        s.points.emplace_back(p.time_h, p.cost_usd);
        s.point_ids.push_back(p.index);
        s.point_labels << tag;
    };
    std::vector<const ParetoPoint*> on_front;
    for (const ParetoPoint& p : points) {
        if (!(p.time_h > 0 && p.cost_usd > 0 && std::isfinite(p.time_h) &&
              std::isfinite(p.cost_usd)))
            continue;
        if (p.rank == 1) {
            add(best, p, QStringLiteral("#1"));
        } else if (p.rank > 1) {
            add(runners, p, QStringLiteral("#%1").arg(p.rank));
        } else if (p.on_front) {
            on_front.push_back(&p);
        } else {
            add(others, p, QString());
        }
        // A ranked plan on the front still belongs to the front's line.
        if (p.on_front) line.points.emplace_back(p.time_h, p.cost_usd);
    }
    std::sort(on_front.begin(), on_front.end(),
              [](const ParetoPoint* a, const ParetoPoint* b) { return a->time_h < b->time_h; });
    for (const ParetoPoint* p : on_front)
        add(front, *p, p->tag);
    std::sort(line.points.begin(), line.points.end(),
              [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    // The muted cloud first, so the front and the ranked plans are drawn over it.
    c.series = {others, line, front, runners, best};
    if (std::isfinite(limits.deadline_h) && limits.deadline_h > 0) {
        c.reference_lines.push_back(
            {true, limits.deadline_h,
             QObject::tr("deadline (%1 h)").arg(short_number(limits.deadline_h))});
    }
    if (std::isfinite(limits.budget_usd) && limits.budget_usd > 0) {
        c.reference_lines.push_back(
            {false, limits.budget_usd,
             QObject::tr("budget (%1 USD)").arg(short_number(limits.budget_usd))});
    }
    log_only_where_wide(c);
    return c;
}

} // namespace cp::charts
