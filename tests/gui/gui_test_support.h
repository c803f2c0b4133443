// Helpers shared by the GUI tests: a fresh user data directory per test and model checking.
#pragma once

#include "app_context.h"
#include "main_window.h"

#include <QByteArray>
#include <QString>
#include <QTemporaryDir>
#include <QWidget>
#include <catch2/catch.hpp>
#include <functional>
#include <memory>
#include <vector>

class QAbstractItemModel;
class QAbstractItemModelTester;
class QObject;

namespace cp::gui {
class ServePage;
} // namespace cp::gui

namespace cp::gui::test {

// Points CLUSTERPLAN_DATA_DIR at a new temporary directory for its lifetime.
class TempDataDir {
public:
    TempDataDir();
    ~TempDataDir();
    QString path() const { return dir_.path(); }
    QString databasePath() const;

private:
    QTemporaryDir dir_;
    QByteArray previous_;
};

// Wraps every QAbstractItemModel below `root` (page models, proxies, combo-box models) in a
// QAbstractItemModelTester and counts the model-contract violations it reports.
class ModelGuard {
public:
    explicit ModelGuard(QObject* root);
    ~ModelGuard();
    int modelCount() const { return int(testers_.size()); }
    // Also picks up models created after construction.
    void rescan();
    static int violations();

private:
    QObject* root_;
    std::vector<std::unique_ptr<QAbstractItemModelTester>> testers_;
    std::vector<const QAbstractItemModel*> seen_;
};

// What most GUI tests start from: a fresh data directory, the application context and its main
// window, with every item model under the window checked (TEST_CASE_METHOD fixture).
struct Workbench {
    TempDataDir data;
    AppContext context;
    MainWindow window{context};
    ModelGuard guard{&window};
};

// The child of `parent` with object name `name`; fails the test when there is none.
template <typename T> T* named_child(QWidget* parent, const char* name) {
    T* child = parent->findChild<T*>(QString::fromLatin1(name));
    REQUIRE(child != nullptr);
    return child;
}

// Processes events until `done` returns true or `timeout_ms` passes; returns done().
bool wait_until(const std::function<bool()>& done, int timeout_ms = 30000);

// With CLUSTERPLAN_GUI_SHOT_DIR set, shows `page` at `width` x `height` and saves the window
// there as `file`, to look at; without it, does nothing.
void keep_shot(MainWindow& window, const QString& page, const QString& file, int width = 1280,
               int height = 800);

// Writes `json` as a scenario file and opens it in `context`, as File > Open does.
void open_scenario_text(AppContext& context, const char* json);

// Runs the Serve page's study and waits for it to finish; false after 60 s.
bool run_study(ServePage* page);

} // namespace cp::gui::test
