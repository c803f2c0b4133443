// Catch2 main for the report tests; Qt uses the offscreen platform (no display needed).
// The QApplication lives on main's stack: a function-static one is destroyed during exit(),
// after Qt's own globals, and crashes the process after every test has passed.
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
