// Catch2 main for the chart pipeline tests; Qt Charts need a QApplication, on the offscreen
// platform (no display). It lives on main's stack so it is destroyed before Qt's globals.
#define CATCH_CONFIG_RUNNER
#include <QApplication>
#include <QByteArray>
#include <QtGlobal>
#include <catch2/catch.hpp>

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", QByteArrayLiteral("offscreen"));
    QApplication app(argc, argv);
    return Catch::Session().run(argc, argv);
}
