// The serving report: `clusterplan report` of a serving scenario ranks the deployments exactly
// as `clusterplan serve` does, checks the SLO, shows the KV-cache capacity (a KV-bound
// deployment says so), the spot headroom, four charts, and exports every format.
#include "cli.h"
#include "clusterplan/catalog/catalog.h"
#include "clusterplan/service/scenario_input.h"
#include "clusterplan/sim/serving_wording.h"
#include "fixture.h"
#include "report_cmd.h"
#include "report_export.h"

#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <algorithm>
#include <catch2/catch.hpp>
#include <map>
#include <sstream>

namespace {

using json = nlohmann::ordered_json;

std::string scenario_path(const char* name) {
    return std::string(CLUSTERPLAN_SOURCE_DIR) + "/resources/scenarios/" + name;
}

json serve_json(const std::string& scenario, int top) {
    std::ostringstream out, err;
    cp::cli::Io io{out, err};
    INFO(err.str());
    REQUIRE(cp::cli::run({"serve", scenario, "--json", "--top", std::to_string(top)}, io) == 0);
    return json::parse(out.str());
}

const cp::report::Section* section(const cp::report::Document& doc, const QString& heading) {
    for (const auto& s : doc.sections)
        if (s.heading == heading) return &s;
    return nullptr;
}

template <class T> std::vector<const T*> blocks(const cp::report::Section& s) {
    std::vector<const T*> out;
    for (const auto& b : s.blocks)
        if (const T* t = std::get_if<T>(&b)) out.push_back(t);
    return out;
}

} // namespace

TEST_CASE("A serving report ranks deployments as serve does and checks the SLO",
          "[report][serving]") {
    cp::report::test::ensure_qt_app();
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    qputenv("CLUSTERPLAN_DATA_DIR", dir.path().toUtf8());
    const std::string path = scenario_path("serve-llama3-8b-chat.json");
    const json served = serve_json(path, 8);
    cp::catalog::Catalog catalog = cp::catalog::Catalog::open_default();
    const cp::report::ReportData data =
        cp::report::build_report_data(cp::service::load_scenario_file(path), catalog, 8);
    REQUIRE(data.serving);
    const auto& ranked = data.serving->ranked;
    REQUIRE(ranked.size() == served["ranking"].size());
    for (std::size_t i = 0; i < ranked.size(); ++i) {
        const json& choice = served["ranking"][i];
        INFO("rank " << i + 1);
        CHECK(ranked[i].instance == choice["instance"].get<std::string>());
        CHECK(ranked[i].usd_per_million_output_tokens ==
              choice["usd_per_million_output_tokens"].get<double>());
        CHECK(ranked[i].meets_slo);
    }
    CHECK_FALSE(data.excluded.empty()); // the instance types that cannot serve, with reasons
    CHECK(
        std::any_of(data.prices.begin(), data.prices.end(), [](const auto& p) { return p.used; }));

    const cp::report::Document doc = cp::report::build_document(data);
    CHECK(doc.title.contains(QStringLiteral("serving plan")));
    for (const char* heading :
         {"Recommendation", "Scenario", "SLO check", "KV-cache capacity", "Serving on spot",
          "Charts", "Prices and sources", "Instances that cannot serve", "Assumptions and caveats"})
        CHECK(section(doc, QString::fromLatin1(heading)) != nullptr);
    const auto* slo = section(doc, QStringLiteral("SLO check"));
    REQUIRE(slo != nullptr);
    const auto tables = blocks<cp::report::Table>(*slo);
    REQUIRE(tables.size() == 1);
    REQUIRE(tables.front()->rows.size() == ranked.size());
    for (const auto& row : tables.front()->rows)
        CHECK(row.back() == QStringLiteral("met"));
    CHECK(tables.front()->rows.front()[3] == QStringLiteral("500.0 ms"));
    const auto* charts = section(doc, QStringLiteral("Charts"));
    REQUIRE(charts != nullptr);
    const auto figures = blocks<cp::report::Figure>(*charts);
    REQUIRE(figures.size() == 4); // TTFT and TPOT curves, cost, memory
    for (const auto* f : figures)
        CHECK_FALSE(f->chart.empty());
    const auto* best = section(doc, QStringLiteral("Recommendation"));
    REQUIRE(best != nullptr);
    const auto paragraphs = blocks<cp::report::Paragraph>(*best);
    REQUIRE_FALSE(paragraphs.empty());
    CHECK(paragraphs.front()->lead.contains(QString::fromStdString(ranked.front().instance)));
    // Every figure of the recommendation with its range, and what the ranges rest on.
    const auto sure = std::find_if(paragraphs.begin(), paragraphs.end(), [](const auto* p) {
        return p->lead == QStringLiteral("How sure:");
    });
    REQUIRE(sure != paragraphs.end());
    for (const char* part : {"throughput per replica", "TTFT", "TPOT", "cost per million"})
        CHECK((*sure)->text.contains(QString::fromLatin1(part)));
    CHECK(
        (*sure)->text.contains(QString::fromStdString(ranked.front().intervals.throughput.bucket)));
    CHECK(((*sure)->text.contains(QStringLiteral("no measured run supports this estimate"))) ==
          !ranked.front().intervals.throughput.validated);
    // At a request rate: utilisation and latencies with the capacity anywhere in its range.
    REQUIRE(ranked.front().load_range.known);
    const auto load = std::find_if(paragraphs.begin(), paragraphs.end(), [](const auto* p) {
        return p->lead == QStringLiteral("Over the capacity's range:");
    });
    REQUIRE(load != paragraphs.end());
    CHECK((*load)->text.startsWith(
        QString::fromStdString(cp::sim::serving_load_range_text(ranked.front()))));
}

TEST_CASE("The serving report marks a KV-bound deployment", "[report][serving]") {
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    qputenv("CLUSTERPLAN_DATA_DIR", dir.path().toUtf8());
    cp::catalog::Catalog catalog = cp::catalog::Catalog::open_default();
    // Llama 3 70B FP8 on one H100: the weights leave little room for the KV cache.
    const cp::report::ReportData data = cp::report::build_report_data(
        cp::service::load_scenario_file(scenario_path("serve-llama3-70b-h100-fp8.json")), catalog,
        5);
    REQUIRE(data.serving);
    REQUIRE(data.serving->ranked.size() == 1);
    CHECK(data.serving->ranked.front().limits.kv_bound);
    const cp::report::Document doc = cp::report::build_document(data);
    const auto* kv = section(doc, QStringLiteral("KV-cache capacity"));
    REQUIRE(kv != nullptr);
    const auto tables = blocks<cp::report::Table>(*kv);
    REQUIRE(tables.size() == 1);
    CHECK(tables.front()->rows.front().back() == QStringLiteral("yes"));
    CHECK(tables.front()->rows.front()[1] == QStringLiteral("p5.48xlarge"));
}

TEST_CASE("report writes every format from a serving scenario", "[report][serving][cli]") {
    cp::report::test::ensure_qt_app();
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    qputenv("CLUSTERPLAN_DATA_DIR", dir.path().toUtf8());
    const std::string scenario = scenario_path("serve-bert-large-latency.json");
    for (const char* name : {"s.pdf", "s.html", "s.md", "s.csv", "s.json"}) {
        const std::string out = dir.filePath(QString::fromLatin1(name)).toStdString();
        const auto r = cp::report::test::run_report({scenario, "--out", out, "--top", "3"});
        INFO(name << ": " << r.out << r.err);
        CHECK(r.code == 0);
        CHECK((r.out + r.err).find("ranked deployments") != std::string::npos);
        CHECK(QFileInfo(QString::fromStdString(out)).size() > 100);
    }
    QFile csv(dir.filePath(QStringLiteral("s.csv")));
    REQUIRE(csv.open(QIODevice::ReadOnly));
    const QStringList lines =
        QString::fromUtf8(csv.readAll()).split(QStringLiteral("\r\n"), Qt::SkipEmptyParts);
    REQUIRE(lines.size() == 4); // header and the top 3
    CHECK(lines.front().startsWith(QStringLiteral("rank,instance,nodes,devices,engine")));
    QFile js(dir.filePath(QStringLiteral("s.json")));
    REQUIRE(js.open(QIODevice::ReadOnly));
    const json doc = json::parse(js.readAll().toStdString());
    REQUIRE(doc["plans"].size() == 3);
    CHECK(doc["plans"][0]["rank"] == 1);
    CHECK(doc["plans"][0].contains("latency_ms"));
}
