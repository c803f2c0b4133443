// Draws a ChartSpec with Qt Charts, off screen, into a PNG or an SVG document. Needs a
// QApplication (Qt Charts are graphics widgets); the offscreen platform is enough.
#pragma once

#include "chart_spec.h"

#include <QByteArray>
#include <QImage>
#include <QSize>

namespace cp::report {

// Logical chart size in points; images are drawn at `scale` times this for print sharpness.
inline constexpr QSize kChartSize{720, 400};

QImage render_chart_image(const ChartSpec& spec, QSize size = kChartSize, double scale = 2.0);
QByteArray render_chart_png(const ChartSpec& spec, QSize size = kChartSize, double scale = 2.0);
// A standalone SVG document (with XML prolog) for inlining into HTML.
QByteArray render_chart_svg(const ChartSpec& spec, QSize size = kChartSize);

} // namespace cp::report
