#include "charts/scaling_charts.h"

#include "qchart_render.h"

#include <QChart>
#include <QScatterSeries>
#include <QVariant>
#include <limits>

namespace cp::gui::charts {

QChart* scaling_chart(const std::vector<ScalingSeries>& series, ScalingMetric metric,
                      const QString& throughput_unit, bool legend) {
    return ::cp::charts::make_chart(
        ::cp::charts::scaling_spec(series, metric, throughput_unit, legend),
        ::cp::charts::screen_look());
}

QColor series_color(int index) {
    return ::cp::charts::series_colour(index);
}

QChart* pareto_chart(const std::vector<ParetoPoint>& points, const ParetoLimits& limits) {
    return ::cp::charts::make_chart(::cp::charts::pareto_spec(points, limits),
                                    ::cp::charts::screen_look());
}

const ParetoPoint* pareto_point_near(const std::vector<ParetoPoint>& points, QScatterSeries* series,
                                     QPointF value) {
    const QList<QVariant> ids = series->property("indices").toList();
    const QList<QPointF> xy = series->points();
    // Compared on screen: the axes may be log or linear, and a pixel is a pixel on both.
    QChart* chart = series->chart();
    const bool on_screen = chart && !chart->plotArea().isEmpty();
    auto position = [&](QPointF p) { return on_screen ? chart->mapToPosition(p, series) : p; };
    const QPointF target = position(value);
    int best = -1;
    double best_d = std::numeric_limits<double>::infinity();
    for (int k = 0; k < xy.size(); ++k) {
        const QPointF d = position(xy[k]) - target;
        const double d2 = QPointF::dotProduct(d, d);
        if (d2 < best_d) {
            best_d = d2;
            best = k;
        }
    }
    if (best < 0 || best >= ids.size()) return nullptr;
    const int i = ids[best].toInt();
    if (i < 0 || i >= int(points.size())) return nullptr;
    return &points[std::size_t(i)];
}

} // namespace cp::gui::charts
