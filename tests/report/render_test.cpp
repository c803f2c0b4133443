// Renderer tests on a fixture report: PDF validity and pagination (pdfinfo), HTML and
// Markdown escaping of hostile user text, Markdown image links, CSV/JSON shape, atomic
// failure on unwritable paths.
#include "fixture.h"
#include "renderers.h"
#include "report_export.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <catch2/catch.hpp>

using cp::report::export_report;
using cp::report::test::ensure_qt_app;
using cp::report::test::fixture_report;

namespace {

const std::string kHostile = "<script>alert(1)</script>";

QString read_text(const QString& path) {
    QFile f(path);
    REQUIRE(f.open(QIODevice::ReadOnly));
    return QString::fromUtf8(f.readAll());
}

// pdfinfo's "Key: value" lines; FAILs the test clearly when poppler-utils is missing.
QMap<QString, QString> pdfinfo(const QString& path) {
    const QString tool = QStandardPaths::findExecutable(QStringLiteral("pdfinfo"));
    if (tool.isEmpty())
        FAIL("pdfinfo not found on PATH: install poppler-utils (packaging/install-deps.sh does)");
    QProcess process;
    process.start(tool, {path});
    REQUIRE(process.waitForFinished(60000));
    INFO(process.readAllStandardError().toStdString());
    REQUIRE(process.exitCode() == 0);
    QMap<QString, QString> info;
    for (const auto& line : QString::fromUtf8(process.readAllStandardOutput()).split(u'\n')) {
        const auto colon = line.indexOf(u':');
        if (colon > 0) info[line.left(colon).trimmed()] = line.mid(colon + 1).trimmed();
    }
    return info;
}

} // namespace

TEST_CASE("PDF report is a valid A4 document with several numbered pages", "[report][pdf]") {
    ensure_qt_app();
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("report.pdf"));
    QString error;
    REQUIRE(export_report(fixture_report("GPT-3 175B on P4d"), path, &error));
    CHECK(error.isEmpty());
    const auto info = pdfinfo(path);
    REQUIRE(info.contains(QStringLiteral("Pages")));
    CHECK(info[QStringLiteral("Pages")].toInt() >= 2);
    CHECK(info[QStringLiteral("Page size")].contains(QStringLiteral("A4")));
    CHECK(info[QStringLiteral("Title")].contains(QStringLiteral("GPT-3 175B on P4d")));
}

TEST_CASE("PDF with a long ranked table still paginates", "[report][pdf]") {
    ensure_qt_app();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("long.pdf"));
    QString error;
    REQUIRE(export_report(fixture_report("many plans", 80), path, &error));
    const auto info = pdfinfo(path);
    CHECK(info[QStringLiteral("Pages")].toInt() >= 4);
}

TEST_CASE("HTML report escapes a scenario named <script>alert(1)</script>", "[report][html]") {
    ensure_qt_app();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("report.html"));
    QString error;
    REQUIRE(export_report(fixture_report(kHostile), path, &error));
    const QString html = read_text(path);
    // The hostile name is in the title, the scenario table, an instance name, explanations,
    // price sources, calibration and assumptions: none may reach the page as markup.
    CHECK_FALSE(html.contains(QStringLiteral("<script"), Qt::CaseInsensitive));
    CHECK(html.count(QStringLiteral("&lt;script&gt;alert(1)&lt;/script&gt;")) >= 5);
    // Self-contained: charts inline, no external references.
    CHECK(html.contains(QStringLiteral("data:image/svg+xml;base64,")));
    CHECK_FALSE(html.contains(QStringLiteral("src=\"http")));
    CHECK_FALSE(html.contains(QStringLiteral("<link")));
}

TEST_CASE("Markdown report references chart images that exist and escapes user text",
          "[report][markdown]") {
    ensure_qt_app();
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("my report.md"));
    QString error;
    REQUIRE(export_report(fixture_report(kHostile), path, &error));
    const QString md = read_text(path);
    CHECK_FALSE(md.contains(QStringLiteral("<script")));
    CHECK(md.contains(QStringLiteral("&lt;script&gt;")));
    const QRegularExpression image(QStringLiteral(R"(!\[[^\]]*\]\(([^)]+)\))"));
    int images = 0;
    for (auto it = image.globalMatch(md); it.hasNext();) {
        const QString relative = it.next().captured(1);
        INFO(relative.toStdString());
        CHECK_FALSE(QFileInfo(relative).isAbsolute());
        const QFileInfo file(QDir(dir.path()).filePath(relative));
        CHECK(file.exists());
        CHECK(file.size() > 1000);
        QFile png(file.filePath());
        REQUIRE(png.open(QIODevice::ReadOnly));
        CHECK(png.read(8) == QByteArray("\x89PNG\r\n\x1a\n", 8));
        ++images;
    }
    CHECK(images == 5); // Pareto, throughput, efficiency, step breakdown, memory
}

TEST_CASE("CSV and JSON exports hold one row per ranked plan", "[report][data]") {
    QTemporaryDir dir;
    const auto data = fixture_report("a, \"quoted\" name", 7);
    QString error;
    REQUIRE(export_report(data, dir.filePath(QStringLiteral("plans.csv")), &error));
    const QStringList lines = read_text(dir.filePath(QStringLiteral("plans.csv")))
                                  .split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    REQUIRE(lines.size() == 8);
    CHECK(lines[0].startsWith(QStringLiteral("rank,instance,nodes,devices,step_time_s")));
    // A spot price that is unknown (null) is an empty cell, not 0.
    CHECK(lines[3].contains(QStringLiteral(",,")));
    REQUIRE(export_report(data, dir.filePath(QStringLiteral("plans.json")), &error));
    const auto json = nlohmann::ordered_json::parse(
        read_text(dir.filePath(QStringLiteral("plans.json"))).toStdString());
    CHECK(json["schema"] == "clusterplan.report/1");
    REQUIRE(json["plans"].size() == 7);
    CHECK(json["plans"][0]["rank"] == 1);
    CHECK(json["plans"][2]["cost_spot_usd"].is_null());
    CHECK(json["plans"][0]["step_time_s"] == data.plans[0]["step_time_s"]);
}

TEST_CASE("Export to an unwritable place fails with one sentence and leaves nothing",
          "[report][errors]") {
    ensure_qt_app();
    QTemporaryDir dir;
    const QString missing = dir.filePath(QStringLiteral("no/such/dir/report"));
    for (const char* suffix : {".pdf", ".html", ".csv", ".json"}) {
        const QString path = missing + QString::fromLatin1(suffix);
        QString error;
        CHECK_FALSE(export_report(fixture_report("x", 3), path, &error));
        CHECK(error.startsWith(QStringLiteral("cannot write ") + path));
        CHECK_FALSE(QFileInfo::exists(path));
    }
    QString error;
    CHECK_FALSE(
        export_report(fixture_report("x", 3), dir.filePath(QStringLiteral("r.docx")), &error));
    CHECK(error.contains(QStringLiteral("unknown report format")));
}

TEST_CASE("Report with no feasible plan still renders", "[report][pdf]") {
    ensure_qt_app();
    QTemporaryDir dir;
    auto data = fixture_report("nothing fits", 0);
    data.cost_time.clear();
    data.scaling.clear();
    QString error;
    REQUIRE(export_report(data, dir.filePath(QStringLiteral("empty.pdf")), &error));
    REQUIRE(export_report(data, dir.filePath(QStringLiteral("empty.html")), &error));
    REQUIRE(export_report(data, dir.filePath(QStringLiteral("empty.md")), &error));
    CHECK_FALSE(
        QFileInfo::exists(dir.filePath(QStringLiteral("empty_charts")))); // no charts, no directory
    CHECK(read_text(dir.filePath(QStringLiteral("empty.html")))
              .contains(QStringLiteral("No recommendation.")));
}
