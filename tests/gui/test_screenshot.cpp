// --screenshot renders each page at 1280×800 to a PNG, offscreen.
#include "app_context.h"
#include "gui_main.h"
#include "gui_test_support.h"
#include "main_window.h"
#include "pages/catalog_page.h"
#include "pages/plan_page.h"

#include <QDir>
#include <QImage>
#include <QProcess>
#include <QProcessEnvironment>
#include <QSettings>
#include <QSplitter>
#include <catch2/catch.hpp>

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

TEST_CASE("A screenshot renders larger sizes and leaves the user's window state alone",
          "[gui][screenshot]") {
    test::TempDataDir data;
    QSettings settings;
    settings.setValue(QStringLiteral("window/page"), 0);
    settings.remove(QStringLiteral("window/geometry"));
    const QString path = QDir(data.path()).filePath("big.png");
    REQUIRE(render_screenshot(path, QStringLiteral("scaling"), 1920, 1200).isEmpty());
    const QImage image(path);
    CHECK(image.size() == QSize(1920, 1200));
    QSettings after;
    CHECK(after.value(QStringLiteral("window/page")).toInt() == 0);
    CHECK_FALSE(after.contains(QStringLiteral("window/geometry")));
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

    QProcess big;
    big.setProcessEnvironment(env);
    big.start(QStringLiteral(CLUSTERPLAN_BINARY),
              {"--screenshot", path, "--page", "catalog", "--size", "1600x1000"});
    REQUIRE(big.waitForFinished(120000));
    CHECK(big.exitCode() == 0);
    CHECK(QImage(path).size() == QSize(1600, 1000));

    QProcess bad_size;
    bad_size.setProcessEnvironment(env);
    bad_size.start(QStringLiteral(CLUSTERPLAN_BINARY), {"--screenshot", path, "--size", "640x480"});
    REQUIRE(bad_size.waitForFinished(60000));
    CHECK(bad_size.exitCode() == 1);
    CHECK(bad_size.readAllStandardError().contains("--size"));
}
#endif

TEST_CASE("Plan edit-to-charts latency", "[.][bench][gui]") {
    test::TempDataDir data;
    QString details;
    const double median_ms = bench_plan_latency_ms(50, &details);
    WARN(details.toStdString());
    CHECK(median_ms > 0);
}

TEST_CASE("Window page and pane sizes come back from QSettings, screenshots ignore them",
          "[gui][settings]") {
    test::TempDataDir data;
    QList<int> dragged;
    {
        AppContext context;
        MainWindow window(context);
        window.resize(1280, 800);
        window.show();
        window.showPage(QStringLiteral("catalog"));
        auto* splitter = window.catalogPage()->findChild<QSplitter*>();
        REQUIRE(splitter);
        splitter->setSizes({500, 700});
        dragged = splitter->sizes();
        window.close(); // saves the state
    }
    AppContext context;
    MainWindow again(context);
    again.resize(1280, 800);
    again.show();
    CHECK(again.catalogPage()->isVisibleTo(&again));
    CHECK(again.catalogPage()->findChild<QSplitter*>()->sizes() == dragged);
    // A screenshot starts from defaults: the Plan page, whatever was saved.
    MainWindow fresh(context, nullptr, false);
    CHECK(fresh.planPage()->isVisibleTo(&fresh));
}
