// The one exporter: every chart image (the GUI's "Export chart", the report's PNG figures and
// inline SVGs) is painted by paint_chart() from a QChart, raster at twice the logical size for
// sharp text, or as SVG vectors.
#pragma once

#include "chart_spec.h"

#include <QByteArray>
#include <QImage>
#include <QSize>
#include <QString>

class QChart;
class QPainter;

namespace cp::charts {

// Logical size of a report figure in points.
inline constexpr QSize kChartSize{720, 400};

// Paints `chart` at `size` logical pixels, whether or not it is shown in a view.
void paint_chart(QChart* chart, QPainter& painter, QSize size);

QImage chart_image(QChart* chart, QSize size, double scale = 2.0);
QByteArray chart_png(QChart* chart, QSize size, double scale = 2.0);
// A standalone SVG document (with XML prolog) titled with the chart's title.
QByteArray chart_svg(QChart* chart, QSize size);

// `spec` drawn in the print look (chart images for reports).
QImage render_chart_image(const ChartSpec& spec, QSize size = kChartSize, double scale = 2.0);
QByteArray render_chart_png(const ChartSpec& spec, QSize size = kChartSize, double scale = 2.0);
QByteArray render_chart_svg(const ChartSpec& spec, QSize size = kChartSize);

// Writes `chart` at `size` logical pixels to `path` in the print look (white background, dark
// text, whatever the screen's palette); the format follows the suffix (.png or .svg). Returns
// an empty string on success, else one sentence saying why not.
QString save_chart(QChart* chart, const QString& path, QSize size = QSize(1200, 700));

} // namespace cp::charts
