// Catch2 main for the report tests; Qt uses the offscreen platform (no display needed).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <QByteArray>
#include <QtGlobal>

int main(int argc, char** argv) {
    qputenv("QT_QPA_PLATFORM", QByteArrayLiteral("offscreen"));
    return Catch::Session().run(argc, argv);
}
