// --screenshot renders each page at 1280×800 to a PNG, offscreen.
#include <catch2/catch.hpp>

#include "gui_main.h"
#include "gui_test_support.h"
#include "main_window.h"

#include <QDir>
#include <QImage>
#include <QProcess>
#include <QProcessEnvironment>

using namespace cp::gui;

TEST_CASE("render_screenshot writes a 1280x800 PNG of every page", "[gui][screenshot]") {
    test::TempDataDir data;
    for (const QString& page : MainWindow::pageNames()) {
        const QString path = QDir(data.path()).filePath(page + ".png");
        INFO(page.toStdString());
        REQUIRE(render_screenshot(path, page).isEmpty());
        const QImage image(path);
        REQUIRE_FALSE(image.isNull());
        CHECK(image.width() >= 1280);
        CHECK(image.height() >= 800);
    }
    CHECK_FALSE(render_screenshot(QDir(data.path()).filePath("x.png"), "nonsense").isEmpty());
}

#ifdef CLUSTERPLAN_BINARY
TEST_CASE("clusterplan --screenshot works on the offscreen platform", "[gui][screenshot]") {
    test::TempDataDir data;
    const QString path = QDir(data.path()).filePath("catalog.png");
    QProcess process;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert("QT_QPA_PLATFORM", "offscreen");
    process.setProcessEnvironment(env);
    process.start(QStringLiteral(CLUSTERPLAN_BINARY), {"--screenshot", path, "--page", "catalog"});
    REQUIRE(process.waitForFinished(120000));
    INFO(process.readAllStandardError().toStdString());
    CHECK(process.exitCode() == 0);
    const QImage image(path);
    REQUIRE_FALSE(image.isNull());
    CHECK(image.size() == QSize(1280, 800));

    QProcess bad;
    bad.setProcessEnvironment(env);
    bad.start(QStringLiteral(CLUSTERPLAN_BINARY), {"--screenshot", path, "--page", "nope"});
    REQUIRE(bad.waitForFinished(60000));
    CHECK(bad.exitCode() == 1);
    CHECK(bad.readAllStandardError().contains("--page"));
}
#endif

TEST_CASE("Plan edit-to-charts latency", "[.][bench][gui]") {
    test::TempDataDir data;
    QString details;
    const double median_ms = bench_plan_latency_ms(50, &details);
    WARN(details.toStdString());
    CHECK(median_ms > 0);
}
