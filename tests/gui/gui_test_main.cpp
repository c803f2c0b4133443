// Catch2 main for the GUI tests: a QApplication on the offscreen platform, QSettings and the
// user database redirected to temporary locations so tests never touch a real profile.
#define CATCH_CONFIG_RUNNER
#include "gui_main.h"

#include <QApplication>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <catch2/catch.hpp>

int main(int argc, char** argv) {
    // Set before QApplication exists: the platform plugin is chosen at construction.
    qputenv("QT_QPA_PLATFORM", "offscreen");
    QStandardPaths::setTestModeEnabled(true);
    QTemporaryDir settings_dir;
    qputenv("XDG_CONFIG_HOME", settings_dir.path().toLocal8Bit());
    QApplication app(argc, argv);
    cp::gui::configure_application(app);
    QApplication::setApplicationName(QStringLiteral("ClusterPlanTests"));
    return Catch::Session().run(argc, argv);
}
