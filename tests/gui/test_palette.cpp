// Dark mode: with a dark application palette every page must stay dark and readable — no
// hard-coded light backgrounds, charts in the dark theme. Set CLUSTERPLAN_GUI_SHOT_DIR to keep
// the rendered pages for a look.
#include "gui_main.h"
#include "gui_test_support.h"
#include "main_window.h"

#include <QApplication>
#include <QColor>
#include <QDir>
#include <QImage>
#include <QPalette>
#include <catch2/catch.hpp>

using namespace cp::gui;

namespace {
QPalette dark_palette() {
    QPalette p;
    const QColor window(0x2b, 0x2b, 0x2b), base(0x1e, 0x1e, 0x1e), text(0xe6, 0xe6, 0xe6);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::ToolTipBase, base);
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    p.setColor(QPalette::Highlight, QColor(0x2f, 0x65, 0xca));
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Mid, QColor(0x44, 0x44, 0x44));
    p.setColor(QPalette::Disabled, QPalette::Text, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::WindowText, QColor(0x80, 0x80, 0x80));
    p.setColor(QPalette::Disabled, QPalette::ButtonText, QColor(0x80, 0x80, 0x80));
    return p;
}

// Share of pixels brighter than a light-grey: large light areas mean a hard-coded colour.
double light_share(const QImage& image) {
    qint64 light = 0;
    for (int y = 0; y < image.height(); y += 2) {
        for (int x = 0; x < image.width(); x += 2) {
            if (QColor(image.pixel(x, y)).lightness() > 200) ++light;
        }
    }
    return double(light) / (double(image.width() / 2) * double(image.height() / 2));
}
} // namespace

TEST_CASE("Every page stays dark and readable under a dark palette", "[gui][palette]") {
    test::TempDataDir data;
    const QPalette previous = QApplication::palette();
    QApplication::setPalette(dark_palette());
    const QString keep = qEnvironmentVariable("CLUSTERPLAN_GUI_SHOT_DIR");
    for (const QString& page : MainWindow::pageNames()) {
        const QString path = QDir(keep.isEmpty() ? data.path() : keep).filePath(page + "-dark.png");
        INFO(page.toStdString());
        REQUIRE(render_screenshot(path, page).isEmpty());
        const QImage image(path);
        REQUIRE_FALSE(image.isNull());
        // The report preview is a paper-white page by design (as exported); elsewhere only text
        // and chart marks may be light, never backgrounds.
        if (page == QStringLiteral("report")) continue;
        const double share = light_share(image);
        INFO("light pixels: " << share);
        CHECK(share < 0.15);
    }
    QApplication::setPalette(previous);
}
