#pragma once

#include <QString>
#include <QStringList>

class QApplication;

namespace cp::gui {
// Starts the desktop application. Understands `--screenshot FILE.png [--page NAME] [--size WxH]`
// and the hidden `--bench-plan` (prints the Plan page's edit-to-charts latency) and
// `--probe-file FILE` (repeatable: measurements shown on the Probes page, for screenshots).
int run_gui(int argc, char** argv);

// Application-wide set-up shared by run_gui and the GUI tests: names for QSettings, style.
void configure_application(QApplication& app);

// Renders `page` of a fresh main window (default scenario) at `width`×`height` into `path`.
// Returns an empty string or one sentence saying what went wrong.
QString render_screenshot(const QString& path, const QString& page, int width = 1280,
                          int height = 800, const QStringList& probe_files = {});

// Measures edit→updated-charts latency of the Plan page; returns the median in milliseconds.
double bench_plan_latency_ms(int edits, QString* details = nullptr);
} // namespace cp::gui
