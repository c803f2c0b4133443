// `clusterplan report` through the CLI dispatcher, in process: a bad --out (unknown format,
// missing or unwritable directory) is bad input, exit 2 with one sentence and no file left.
#include "cli.h"
#include "fixture.h"
#include "report_cmd.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Result = cp::report::test::ReportRun;
using cp::report::test::run_report;

size_t lines(const std::string& text) {
    return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

} // namespace

TEST_CASE("report with a bad --out exits 2 with one sentence and writes nothing",
          "[report][cli][errors]") {
    cp::report::test::ensure_qt_app();
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    qputenv("CLUSTERPLAN_DATA_DIR", dir.path().toUtf8());
    const std::string scenario =
        std::string(CLUSTERPLAN_SOURCE_DIR) + "/resources/scenarios/bert-large-p3dn-dp.json";
    QTemporaryDir locked;
    REQUIRE(QFile::setPermissions(locked.path(), QFileDevice::ReadOwner | QFileDevice::ExeOwner));
    const bool root_ignores_permissions = QFileInfo(locked.path()).isWritable();
    const std::vector<std::string> bad = {
        dir.filePath(QStringLiteral("r.docx")).toStdString(),
        dir.filePath(QStringLiteral("r")).toStdString(),
        dir.filePath(QStringLiteral("no/such/dir/r.pdf")).toStdString(),
        QDir(locked.path()).filePath(QStringLiteral("r.pdf")).toStdString(),
    };
    for (const auto& out : bad) {
        if (out.rfind(locked.path().toStdString(), 0) == 0 && root_ignores_permissions) continue;
        const Result r = run_report({scenario, "--out", out});
        INFO(out << ": exit " << r.code << ", stderr: " << r.err);
        CHECK(r.code == 2);
        CHECK(lines(r.err) == 1);
        CHECK(r.err.find(out) != std::string::npos);
        CHECK(r.out.empty());
        CHECK_FALSE(QFileInfo::exists(QString::fromStdString(out)));
    }
    QFile::setPermissions(locked.path(),
                          QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
}

TEST_CASE("report never writes over its own scenario file", "[report][cli][errors]") {
    cp::report::test::ensure_qt_app();
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    qputenv("CLUSTERPLAN_DATA_DIR", dir.path().toUtf8());
    const QString scenario = dir.filePath(QStringLiteral("s.json"));
    REQUIRE(QFile::copy(
        QStringLiteral(CLUSTERPLAN_SOURCE_DIR "/resources/scenarios/bert-large-p3dn-dp.json"),
        scenario));
    QFile original(scenario);
    REQUIRE(original.open(QIODevice::ReadOnly));
    const QByteArray before = original.readAll();
    original.close();
    // Also through another spelling of the same path.
    for (const QString& out : {scenario, dir.path() + QStringLiteral("/./s.json")}) {
        const Result r = run_report({scenario.toStdString(), "--out", out.toStdString()});
        INFO(r.err);
        CHECK(r.code == 2);
        CHECK(lines(r.err) == 1);
    }
    REQUIRE(original.open(QIODevice::ReadOnly));
    CHECK(original.readAll() == before);
}

TEST_CASE("report writes every format from a scenario", "[report][cli]") {
    cp::report::test::ensure_qt_app();
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    qputenv("CLUSTERPLAN_DATA_DIR", dir.path().toUtf8());
    const std::string scenario =
        std::string(CLUSTERPLAN_SOURCE_DIR) + "/resources/scenarios/resnet50-hpo.json";
    for (const char* name : {"r.pdf", "r.html", "r.md", "r.csv", "r.json"}) {
        const std::string out = dir.filePath(QString::fromLatin1(name)).toStdString();
        const Result r = run_report({scenario, "--out", out, "--top", "3"});
        INFO(name << ": " << r.err);
        CHECK(r.code == 0);
        CHECK(QFileInfo(QString::fromStdString(out)).size() > 100);
    }
}
