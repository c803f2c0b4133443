// Scaling charts (throughput, efficiency, cost vs devices per parallel layout family) and the
// time-vs-cost Pareto scatter. Input is plain data so pages and the report generator share them.
#pragma once

#include <QColor>
#include <QPointF>
#include <QString>
#include <vector>

class QChart;
class QScatterSeries;

namespace cp::gui::charts {

struct ScalingPoint {
    int devices = 0;
    double tokens_per_s = 0;       // throughput (samples/s for generic models)
    double scaling_efficiency = 0; // 0..1
    double cost_usd = 0;           // cost of the whole training run
};

struct ScalingSeries {
    QString label;                    // "Data parallel · p4d.24xlarge"
    std::vector<ScalingPoint> points; // ascending devices
    bool dashed = false;              // an envelope drawn over the curve it coincides with
};

enum class ScalingMetric { throughput, efficiency, cost };

// Line chart with a log2 device axis; one line per series, coloured by series_color(index).
// Without `legend` the caller shows one shared legend for several charts.
QChart* scaling_chart(const std::vector<ScalingSeries>& series, ScalingMetric metric,
                      const QString& throughput_unit = QStringLiteral("tokens/s"),
                      bool legend = true);

// The colour of the i-th series in every chart of this module.
QColor series_color(int index);

// Divides values for readable axis labels: 250000 -> (1e3, "k").
struct UnitScale {
    double divisor = 1;
    QString prefix;
};
UnitScale unit_scale(double max_value);

struct ParetoPoint {
    double time_h = 0;
    double cost_usd = 0;
    bool on_front = false;
    QString label;  // tooltip text
    int index = -1; // caller's id, returned on click
};

// Scatter of all plans, Pareto-optimal ones highlighted and joined. Scatter series carry the
// points' indices in their "index" dynamic property for hover/click handling by the caller.
QChart* pareto_chart(const std::vector<ParetoPoint>& points);

// Maps a hovered/clicked position on a scatter series made by pareto_chart back to the
// caller's ParetoPoint (the series point nearest to `value`); null when none.
const ParetoPoint* pareto_point_near(const std::vector<ParetoPoint>& points,
                                     const QScatterSeries* series, QPointF value);

} // namespace cp::gui::charts
