// Public API of the report module, used by `clusterplan report` and by the GUI Report page.
//
//   // 1. gather (runs the planner; throws sim::ScenarioError / std::runtime_error with one
//   //    sentence on bad input) — run it off the UI thread, it sweeps every plan:
//   cp::report::ReportData data = cp::report::build_report_data(scenario, catalog, 10);
//   // 2. preview (a QTextBrowser can show it; charts are inline data-URI SVG):
//   QString html = cp::report::render_html(data);
//   // 3. export; the format follows the suffix: .pdf .html/.htm .md .csv .json
//   QString error;
//   if (!cp::report::export_report(data, path, &error)) show(error);
//
// Rendering draws charts with Qt Charts, so a QApplication must exist (the GUI has one; the
// CLI creates one on the offscreen platform when there is no display). Call render/export
// on the GUI thread.
#pragma once

#include "report_data.h"

#include <QString>
#include <QStringList>

namespace cp::report {

inline constexpr int kDefaultTopN = 10;

// Gathering runs the planner and reads the catalog, Qt-free, in the service layer (see
// clusterplan/service/report_data.h).
using service::build_report_data;

// Self-contained HTML of the whole report.
QString render_html(const ReportData& data);

// Suffixes export_report understands, lower case without the dot.
QStringList export_formats();

// Writes the report to `path`; the format follows the suffix. Markdown also writes its
// chart PNGs into "<name>_charts/" beside the file. On failure returns false and sets *error
// to one sentence naming the path and the reason; a failed export leaves no partial file.
bool export_report(const ReportData& data, const QString& path, QString* error);

} // namespace cp::report
