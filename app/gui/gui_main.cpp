#include "gui_main.h"

#include "app_context.h"
#include "main_window.h"
#include "pages/job_log_panel.h"
#include "pages/plan_page.h"
#include "pages/probes_page.h"

#include <QApplication>
#include <QDeadlineTimer>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QImage>
#include <QMessageBox>
#include <QPixmap>
#include <QSize>
#include <QStyleFactory>
#include <QThread>
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

// Resources compiled into a static library must be registered explicitly, outside namespaces.
static void init_gui_resources() {
    Q_INIT_RESOURCE(gui);
}

namespace cp::gui {

namespace {
struct GuiArgs {
    QString screenshot;
    QString page = QStringLiteral("plan");
    QSize size{1280, 800};
    bool bench_plan = false;
    QStringList probe_files; // measurements shown on the Probes page (documentation screenshots)
    QStringList job_logs;    // training logs imported on the Probes page (documentation shots)
    QString scenario;        // a scenario file to open (clusterplan FILE.json, the .desktop %f)
    QString error;
};

GuiArgs parse_args(int argc, char** argv) {
    GuiArgs a;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&](const char* name) -> QString {
            if (i + 1 >= argc) {
                a.error = QStringLiteral("%1 needs a value").arg(QLatin1String(name));
                return {};
            }
            return QString::fromLocal8Bit(argv[++i]);
        };
        if (arg == "--screenshot")
            a.screenshot = value("--screenshot");
        else if (arg == "--page")
            a.page = value("--page");
        else if (arg == "--size") {
            // WIDTHxHEIGHT, e.g. 1920x1200: larger documentation shots and layout checks.
            const QStringList parts = value("--size").split(QLatin1Char('x'));
            bool ok_w = false, ok_h = false;
            const int w = parts.size() == 2 ? parts[0].toInt(&ok_w) : 0;
            const int h = parts.size() == 2 ? parts[1].toInt(&ok_h) : 0;
            if (a.error.isEmpty() &&
                (!ok_w || !ok_h || w < 1280 || h < 800 || w > 7680 || h > 4320)) {
                a.error = QStringLiteral(
                              "--size: '%1' is not WIDTHxHEIGHT between 1280x800 and 7680x4320")
                              .arg(QString::fromLocal8Bit(argv[i]));
            } else {
                a.size = QSize(w, h);
            }
        } else if (arg == "--bench-plan")
            a.bench_plan = true;
        else if (arg == "--probe-file")
            a.probe_files << value("--probe-file");
        else if (arg == "--job-log")
            a.job_logs << value("--job-log");
        else if (arg == "--gui")
            continue;
        else if (!arg.empty() && arg[0] != '-') {
            if (!a.scenario.isEmpty() && a.error.isEmpty())
                a.error = QStringLiteral("one scenario file at a time ('%1' and '%2' given)")
                              .arg(a.scenario, QString::fromLocal8Bit(argv[i]));
            a.scenario = QString::fromLocal8Bit(argv[i]);
        }
        // Qt's own options (-style, -platform ...) are consumed by QApplication.
    }
    if (a.error.isEmpty() && !MainWindow::pageNames().contains(a.page)) {
        a.error = QStringLiteral("--page: '%1' is not one of %2")
                      .arg(a.page, MainWindow::pageNames().join(QStringLiteral(", ")));
    }
    return a;
}

// Waits for background work (sweeps, probes) so a screenshot shows finished charts.
void settle(MainWindow& window, int timeout_ms) {
    QDeadlineTimer deadline(timeout_ms);
    do {
        QApplication::processEvents(QEventLoop::AllEvents, 50);
        QThread::msleep(10);
    } while (window.busy() && !deadline.hasExpired());
    for (int i = 0; i < 5; ++i)
        QApplication::processEvents();
}
} // namespace

void configure_application(QApplication& app) {
    init_gui_resources();
    QApplication::setOrganizationName(QStringLiteral("ClusterPlan"));
    QApplication::setApplicationName(QStringLiteral("ClusterPlan"));
    QApplication::setApplicationVersion(QStringLiteral(CLUSTERPLAN_VERSION));
    QApplication::setDesktopFileName(QStringLiteral("clusterplan"));
    // Fusion draws consistently everywhere (and offscreen) and follows the system palette.
    if (QStyle* fusion = QStyleFactory::create(QStringLiteral("Fusion"))) app.setStyle(fusion);
}

bool is_scenario_argument(const char* arg) {
    const std::string a = arg;
    if (a.empty() || a[0] == '-') return false;
    std::string ext = a.size() >= 5 ? a.substr(a.size() - 5) : std::string();
    for (char& c : ext)
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    // A path with a directory part is a file too; a bare word is a (possibly mistyped) command.
    return ext == ".json" ||
           (a.find('/') != std::string::npos && QFileInfo(QString::fromLocal8Bit(arg)).isFile());
}

QString render_screenshot(const QString& path, const QString& page, int width, int height,
                          const QStringList& probe_files, const QString& scenario,
                          const QStringList& job_logs) {
    AppContext context;
    if (!scenario.isEmpty()) {
        const QString error = context.openScenario(scenario);
        if (!error.isEmpty()) return error;
    }
    MainWindow window(context, nullptr, /*restore_state=*/false);
    for (const QString& f : probe_files)
        window.probesPage()->importFile(f);
    for (const QString& f : job_logs)
        if (const QString error = window.probesPage()->jobLogPanel()->importLog(f);
            !error.isEmpty())
            return error;
    window.resize(width, height);
    if (!window.showPage(page)) return QStringLiteral("--page: '%1' is not a page").arg(page);
    window.show();
    settle(window, 60000);
    const QPixmap pixmap = window.grab();
    QImage image = pixmap.toImage();
    image.setDevicePixelRatio(1.0);
    if (!image.save(path)) {
        return QStringLiteral("%1: cannot be written").arg(path);
    }
    // No close(): closing saves the window geometry and page, and a screenshot must not
    // overwrite the user's own window state.
    return {};
}

double bench_plan_latency_ms(int edits, QString* details) {
    AppContext context;
    MainWindow window(context, nullptr, /*restore_state=*/false);
    window.resize(1280, 800);
    window.showPage(QStringLiteral("plan"));
    window.show();
    settle(window, 30000);
    PlanPage* plan = window.planPage();
    std::vector<double> ms;
    for (int i = 0; i < edits; ++i) {
        QElapsedTimer timer;
        timer.start();
        plan->simulateEdit(i);         // a field change, as a user makes it
        plan->flushPendingUpdate();    // recompute + rebuild charts now, not after the debounce
        QApplication::processEvents(); // chart scenes process their changes, views schedule updates
        plan->repaint(); // and the page is painted, synchronously, before the clock stops
        ms.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    std::sort(ms.begin(), ms.end());
    const double median = ms[ms.size() / 2];
    // Nearest-rank 95th percentile: the edit a user notices, not the typical one.
    const double p95 =
        ms[std::min(ms.size() - 1, std::size_t(std::ceil(0.95 * double(ms.size()))) - 1)];
    if (details) {
        *details = QStringLiteral("plan edit→charts latency over %1 edits: median %2 ms, p95 %3 "
                                  "ms, min %4 ms, max %5 ms "
                                  "(target ≤ 50 ms)")
                       .arg(edits)
                       .arg(median, 0, 'f', 2)
                       .arg(p95, 0, 'f', 2)
                       .arg(ms.front(), 0, 'f', 2)
                       .arg(ms.back(), 0, 'f', 2);
    }
    return median;
}

int run_gui(int argc, char** argv) {
    bool headless_task = false;
    for (int i = 1; i < argc; ++i) {
        headless_task = headless_task || !std::strcmp(argv[i], "--screenshot") ||
                        !std::strcmp(argv[i], "--bench-plan");
    }
    // Screenshots must work without a display (CI, docs): fall back to the offscreen platform.
    if (headless_task && qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM") &&
        qEnvironmentVariableIsEmpty("DISPLAY") && qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")) {
        qputenv("QT_QPA_PLATFORM", "offscreen");
    }
    QApplication app(argc, argv);
    configure_application(app);
    const GuiArgs args = parse_args(argc, argv);
    if (!args.error.isEmpty()) {
        std::fprintf(stderr, "clusterplan: %s\n", qPrintable(args.error));
        return 1;
    }
    if (!args.screenshot.isEmpty()) {
        const QString error =
            render_screenshot(args.screenshot, args.page, args.size.width(), args.size.height(),
                              args.probe_files, args.scenario, args.job_logs);
        if (!error.isEmpty()) {
            std::fprintf(stderr, "clusterplan --screenshot: %s\n", qPrintable(error));
            return 2;
        }
        return 0;
    }
    if (args.bench_plan) {
        QString details;
        bench_plan_latency_ms(50, &details);
        std::printf("%s\n", qPrintable(details));
        return 0;
    }
    AppContext context;
    MainWindow window(context);
    window.show();
    window.checkCatalogHealth();
    if (!args.scenario.isEmpty()) {
        const QString error = context.openScenario(args.scenario);
        if (!error.isEmpty())
            QMessageBox::warning(&window, QObject::tr("Open scenario"), error);
        else
            window.showPage(QStringLiteral("plan"));
    }
    return app.exec();
}

} // namespace cp::gui
