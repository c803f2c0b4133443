#pragma once

#include <QString>
#include <QStringList>

class QApplication;

namespace cp::gui {
// Starts the desktop application. Understands `--screenshot FILE.png [--page NAME] [--size WxH]`,
// `--bench-plan` (prints the Plan page's edit-to-charts latency), `--probe-file FILE`
// (repeatable: measurements shown on the Probes page, for screenshots), `--gui` and a scenario
// file (`clusterplan FILE.json`, `--gui FILE.json`: opened at start-up, as the .desktop entry's
// %f). Whether `arg` (the first command-line argument) names a scenario file to open in the GUI
// rather than a subcommand: not an option, and ends in .json (any case) or is a path (with a "/")
// to a file.
bool is_scenario_argument(const char* arg);
int run_gui(int argc, char** argv);

// Application-wide set-up shared by run_gui and the GUI tests: names for QSettings, style.
void configure_application(QApplication& app);

// Renders `page` of a fresh main window (the default scenario, or `scenario` when given) at
// `width`×`height` into `path`. `job_logs` are imported on the Probes page against the scenario
// first (stored as calibration profiles, as the page's button does). Returns an empty string or
// one sentence saying what went wrong.
QString render_screenshot(const QString& path, const QString& page, int width = 1280,
                          int height = 800, const QStringList& probe_files = {},
                          const QString& scenario = {}, const QStringList& job_logs = {});

// Measures edit→updated-charts latency of the Plan page; returns the median in milliseconds.
double bench_plan_latency_ms(int edits, QString* details = nullptr);
} // namespace cp::gui
