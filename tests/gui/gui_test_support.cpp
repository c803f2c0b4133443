#include "gui_test_support.h"

#include "app_context.h"
#include "main_window.h"
#include "pages/serve_page.h"

#include <QAbstractItemModel>
#include <QAbstractItemModelTester>
#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QThread>
#include <algorithm>
#include <atomic>
#include <catch2/catch.hpp>

namespace cp::gui::test {

namespace {
std::atomic<int> g_violations{0};
QtMessageHandler g_previous = nullptr;

// QAbstractItemModelTester in Warning mode reports through the "qt.modeltest" category.
void count_model_warnings(QtMsgType type, const QMessageLogContext& context,
                          const QString& message) {
    if (context.category && QByteArray(context.category) == "qt.modeltest" &&
        type >= QtWarningMsg) {
        ++g_violations;
    }
    if (g_previous) g_previous(type, context, message);
}
} // namespace

TempDataDir::TempDataDir() : previous_(qgetenv("CLUSTERPLAN_DATA_DIR")) {
    qputenv("CLUSTERPLAN_DATA_DIR", dir_.path().toLocal8Bit());
}

TempDataDir::~TempDataDir() {
    if (previous_.isEmpty())
        qunsetenv("CLUSTERPLAN_DATA_DIR");
    else
        qputenv("CLUSTERPLAN_DATA_DIR", previous_);
}

QString TempDataDir::databasePath() const {
    return QDir(dir_.path()).filePath(QStringLiteral("catalog.sqlite"));
}

ModelGuard::ModelGuard(QObject* root) : root_(root) {
    static bool installed = false;
    if (!installed) {
        g_previous = qInstallMessageHandler(count_model_warnings);
        installed = true;
    }
    rescan();
}

ModelGuard::~ModelGuard() = default;

void ModelGuard::rescan() {
    for (QAbstractItemModel* model : root_->findChildren<QAbstractItemModel*>()) {
        if (std::find(seen_.begin(), seen_.end(), model) != seen_.end()) continue;
        seen_.push_back(model);
        testers_.push_back(std::make_unique<QAbstractItemModelTester>(
            model, QAbstractItemModelTester::FailureReportingMode::Warning));
    }
}

int ModelGuard::violations() {
    return g_violations.load();
}

bool wait_until(const std::function<bool()>& done, int timeout_ms) {
    QDeadlineTimer deadline(timeout_ms);
    while (!done() && !deadline.hasExpired()) {
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
        QThread::msleep(5);
    }
    return done();
}

void keep_shot(MainWindow& window, const QString& page, const QString& file, int width,
               int height) {
    const QString dir = qEnvironmentVariable("CLUSTERPLAN_GUI_SHOT_DIR");
    if (dir.isEmpty()) return;
    window.resize(width, height);
    window.showPage(page);
    window.show();
    wait_until([] { return false; }, 300);
    window.grab().save(QDir(dir).filePath(file));
}

void open_scenario_text(AppContext& context, const char* json) {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("scenario.json"));
    QFile file(path);
    REQUIRE(file.open(QIODevice::WriteOnly));
    file.write(json);
    file.close();
    REQUIRE(context.openScenario(path).isEmpty());
}

bool run_study(ServePage* page) {
    QSignalSpy finished(page, &ServePage::studyFinished);
    page->runStudy();
    return finished.wait(60000);
}

} // namespace cp::gui::test
