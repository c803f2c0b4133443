// Saving charts as PNG (raster, high-DPI) or SVG (vector via QSvgGenerator).
#pragma once

#include <QSize>
#include <QString>

class QChart;
class QWidget;

namespace cp::gui::charts {

// Renders `chart` at `size` logical pixels into `path`; the format follows the suffix
// (.png or .svg). Returns an empty string on success, else one sentence saying why not.
QString save_chart(QChart* chart, const QString& path, QSize size = QSize(1200, 700));

// Asks for a file name and saves; errors are shown in a message box on `parent`.
void export_chart_interactive(QChart* chart, QWidget* parent);

} // namespace cp::gui::charts
