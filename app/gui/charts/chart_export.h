// "Export chart" in the GUI: asks for a file and writes the chart through the one exporter
// (chart_image.h), which also serves the report.
#pragma once

#include "chart_image.h"

class QChart;
class QWidget;

namespace cp::gui::charts {

using ::cp::charts::save_chart;

// Asks for a file name and saves; errors are shown in a message box on `parent`.
void export_chart_interactive(QChart* chart, QWidget* parent);

} // namespace cp::gui::charts
