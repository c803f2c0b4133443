#include "charts/scaling_charts.h"

#include "charts/chart_style.h"

#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QScatterSeries>
#include <QValueAxis>
#include <QVariant>
#include <algorithm>
#include <cmath>
#include <limits>

namespace cp::gui::charts {

namespace {
const QColor kPalette[] = {QColor(0x4e, 0x79, 0xa7), QColor(0xf2, 0x8e, 0x2b),
                           QColor(0xe1, 0x57, 0x59), QColor(0x59, 0xa1, 0x4f),
                           QColor(0xb0, 0x7a, 0xa1), QColor(0x76, 0xb7, 0xb2),
                           QColor(0xed, 0xc9, 0x48), QColor(0x9c, 0x75, 0x5f)};

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
} // namespace

QColor series_color(int index) {
    return kPalette[std::size_t(index) % std::size(kPalette)];
}

UnitScale unit_scale(double max_value) {
    if (max_value >= 2e9) return {1e9, QStringLiteral("B")};
    if (max_value >= 2e6) return {1e6, QStringLiteral("M")};
    if (max_value >= 2e3) return {1e3, QStringLiteral("k")};
    return {};
}

QChart* scaling_chart(const std::vector<ScalingSeries>& series, ScalingMetric metric,
                      const QString& throughput_unit, bool legend) {
    auto* chart = new QChart;
    double max_raw = 0;
    for (const ScalingSeries& s : series) {
        for (const ScalingPoint& p : s.points) {
            const double y = metric_value(p, metric);
            if (std::isfinite(y)) max_raw = std::max(max_raw, y);
        }
    }
    const UnitScale scale = metric == ScalingMetric::efficiency ? UnitScale{} : unit_scale(max_raw);
    QString title;
    QString y_title;
    switch (metric) {
    case ScalingMetric::throughput:
        title = QObject::tr("Throughput");
        y_title = QStringLiteral("%1 %2").arg(scale.prefix, throughput_unit).trimmed();
        break;
    case ScalingMetric::efficiency:
        title = QObject::tr("Scaling efficiency");
        y_title = QObject::tr("% of linear scaling");
        break;
    case ScalingMetric::cost:
        title = QObject::tr("Cost to train");
        y_title =
            scale.prefix.isEmpty() ? QObject::tr("USD") : QObject::tr("%1 USD").arg(scale.prefix);
        break;
    }
    apply_style(chart, title);
    chart->legend()->setVisible(legend);
    int min_dev = std::numeric_limits<int>::max();
    int max_dev = 1;
    double min_y = std::numeric_limits<double>::infinity();
    double max_y = 0;
    int colour = 0;
    for (const ScalingSeries& s : series) {
        auto* line = new QLineSeries;
        line->setName(s.label);
        line->setPointsVisible(true);
        QPen pen(series_color(colour++));
        pen.setWidthF(2.0);
        if (s.dashed) {
            // Long gaps and flat caps: the line underneath must show through at 2 px width.
            pen.setStyle(Qt::DashLine);
            pen.setCapStyle(Qt::FlatCap);
            pen.setDashPattern({4, 3});
        }
        line->setPen(pen);
        for (const ScalingPoint& p : s.points) {
            const double y = metric_value(p, metric) / scale.divisor;
            if (!std::isfinite(y) || p.devices <= 0) continue;
            line->append(p.devices, y);
            min_dev = std::min(min_dev, p.devices);
            max_dev = std::max(max_dev, p.devices);
            if (y > 0) min_y = std::min(min_y, y);
            max_y = std::max(max_y, y);
        }
        chart->addSeries(line);
    }
    if (min_dev > max_dev) min_dev = 1;
    auto* axis_x = new QLogValueAxis;
    axis_x->setBase(2);
    axis_x->setLabelFormat("%d");
    axis_x->setTitleText(QObject::tr("Devices"));
    axis_x->setRange(std::max(1, min_dev) / 1.3, max_dev * 1.3);
    chart->addAxis(axis_x, Qt::AlignBottom);
    QAbstractAxis* axis_y = nullptr;
    if (metric == ScalingMetric::throughput) {
        // Throughput spans orders of magnitude: log-log shows linear scaling as a straight line.
        auto* log = new QLogValueAxis;
        log->setBase(10);
        log->setLabelFormat("%g");
        if (std::isfinite(min_y) && max_y > 0) {
            log->setRange(std::pow(10.0, std::floor(std::log10(min_y))),
                          std::pow(10.0, std::ceil(std::log10(max_y))));
        }
        log->setMinorTickCount(8);
        axis_y = log;
    } else {
        auto* lin = new QValueAxis;
        lin->setRange(0, max_y > 0 ? max_y * 1.08 : 1.0);
        lin->applyNiceNumbers();
        lin->setLabelFormat(metric == ScalingMetric::cost && max_y < 10 ? "%.1f" : "%.0f");
        axis_y = lin;
    }
    axis_y->setTitleText(y_title);
    chart->addAxis(axis_y, Qt::AlignLeft);
    for (QAbstractSeries* s : chart->series()) {
        s->attachAxis(axis_x);
        s->attachAxis(axis_y);
    }
    return chart;
}

QChart* pareto_chart(const std::vector<ParetoPoint>& points) {
    auto* chart = new QChart;
    apply_style(chart, QObject::tr("Time vs cost of every plan"));
    auto* others = new QScatterSeries;
    others->setName(QObject::tr("Plans (on demand)")); // spot options appear on the front only
    others->setMarkerSize(7);
    others->setColor(QColor(0x4e, 0x79, 0xa7, 140));
    others->setBorderColor(Qt::transparent);
    auto* front = new QScatterSeries;
    front->setName(QObject::tr("Pareto-optimal"));
    front->setMarkerSize(11);
    front->setColor(QColor(0xe1, 0x57, 0x59));
    front->setBorderColor(QColor(0x80, 0x20, 0x20));
    auto* front_line = new QLineSeries;
    front_line->setName(QObject::tr("Pareto front"));
    QPen pen(QColor(0xe1, 0x57, 0x59));
    pen.setWidthF(1.5);
    pen.setStyle(Qt::DashLine);
    front_line->setPen(pen);
    QList<QVariant> other_ids;
    QList<QVariant> front_ids;
    std::vector<const ParetoPoint*> front_points;
    double min_t = std::numeric_limits<double>::infinity(), max_t = 0;
    double min_c = std::numeric_limits<double>::infinity(), max_c = 0;
    double max_cost = 0;
    for (const ParetoPoint& p : points) {
        if (p.cost_usd > 0) max_cost = std::max(max_cost, p.cost_usd);
    }
    const UnitScale scale = unit_scale(max_cost);
    for (std::size_t i = 0; i < points.size(); ++i) {
        const ParetoPoint& p = points[i];
        if (!(p.time_h > 0) || !(p.cost_usd > 0)) continue;
        const double cost = p.cost_usd / scale.divisor;
        min_t = std::min(min_t, p.time_h);
        max_t = std::max(max_t, p.time_h);
        min_c = std::min(min_c, cost);
        max_c = std::max(max_c, cost);
        if (p.on_front) {
            front->append(p.time_h, cost);
            front_ids << int(i);
            front_points.push_back(&p);
        } else {
            others->append(p.time_h, cost);
            other_ids << int(i);
        }
    }
    std::sort(front_points.begin(), front_points.end(),
              [](const ParetoPoint* a, const ParetoPoint* b) { return a->time_h < b->time_h; });
    for (const ParetoPoint* p : front_points)
        front_line->append(p->time_h, p->cost_usd / scale.divisor);
    others->setProperty("indices", other_ids);
    front->setProperty("indices", front_ids);
    chart->addSeries(others);
    chart->addSeries(front_line);
    chart->addSeries(front);
    // The dashed line only joins the red markers; one legend entry for both is enough.
    for (QLegendMarker* m : chart->legend()->markers(front_line))
        m->setVisible(false);
    auto* axis_x = new QLogValueAxis;
    axis_x->setBase(10);
    axis_x->setLabelFormat("%g");
    axis_x->setMinorTickCount(8);
    axis_x->setTitleText(QObject::tr("Time to train (hours, log scale)"));
    auto* axis_y = new QValueAxis;
    axis_y->setLabelFormat("%.0f");
    axis_y->setTitleText(scale.prefix.isEmpty()
                             ? QObject::tr("Cost to train (USD)")
                             : QObject::tr("Cost to train (%1 USD)").arg(scale.prefix));
    if (std::isfinite(min_t)) {
        axis_x->setRange(std::pow(10.0, std::floor(std::log10(min_t))),
                         std::pow(10.0, std::ceil(std::log10(max_t))));
        axis_y->setRange(0, max_c * 1.05);
        axis_y->applyNiceNumbers();
    }
    chart->addAxis(axis_x, Qt::AlignBottom);
    chart->addAxis(axis_y, Qt::AlignLeft);
    for (QAbstractSeries* s : chart->series()) {
        s->attachAxis(axis_x);
        s->attachAxis(axis_y);
    }
    return chart;
}

const ParetoPoint* pareto_point_near(const std::vector<ParetoPoint>& points,
                                     const QScatterSeries* series, QPointF value) {
    const QList<QVariant> ids = series->property("indices").toList();
    const QList<QPointF> xy = series->points();
    int best = -1;
    double best_d = std::numeric_limits<double>::infinity();
    for (int k = 0; k < xy.size(); ++k) {
        // Time is on a log axis and costs are positive: ratios compare points of any magnitude.
        const double dx = std::log(xy[k].x() / value.x());
        const double dy = std::log(xy[k].y() / value.y());
        const double d = dx * dx + dy * dy;
        if (d < best_d) {
            best_d = d;
            best = k;
        }
    }
    if (best < 0 || best >= ids.size()) return nullptr;
    const int i = ids[best].toInt();
    if (i < 0 || i >= int(points.size())) return nullptr;
    return &points[std::size_t(i)];
}

} // namespace cp::gui::charts
