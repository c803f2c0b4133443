// The Scaling page's charts: the shared scaling and Pareto specs (scaling_specs.h) drawn for
// the screen, and the way back from a clicked Pareto point to the plan it stands for.
#pragma once

#include "scaling_specs.h"

class QChart;
class QScatterSeries;

namespace cp::gui::charts {

using ::cp::charts::ParetoLimits;
using ::cp::charts::ParetoPoint;
using ::cp::charts::ScalingMetric;
using ::cp::charts::ScalingPoint;
using ::cp::charts::ScalingSeries;

// Line chart against devices; one line per series, coloured by series_color(index).
QChart* scaling_chart(const std::vector<ScalingSeries>& series, ScalingMetric metric,
                      const QString& throughput_unit = QStringLiteral("tokens/s"),
                      bool legend = true);

// The colour of the i-th series in every chart (for a legend shared by several charts).
QColor series_color(int index);

// Scatter of all plans, Pareto-optimal ones highlighted and joined, the ranked ones and the
// deadline/budget. Scatter series carry their points' indices in the "index" property.
QChart* pareto_chart(const std::vector<ParetoPoint>& points, const ParetoLimits& limits = {});

// Maps a hovered/clicked position on a scatter series made by pareto_chart back to the
// caller's ParetoPoint (the series point nearest to `value` on screen); null when none.
const ParetoPoint* pareto_point_near(const std::vector<ParetoPoint>& points, QScatterSeries* series,
                                     QPointF value);

} // namespace cp::gui::charts
