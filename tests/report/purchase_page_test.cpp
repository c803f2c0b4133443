// Report page 1's purchase blocks: the price age in plain, amber (over 30 days) or red (over 90)
// in every format, and the recommended cluster bought on demand, on spot and as a Capacity Block
// side by side, from the planner (p5.48xlarge in us-east-1 has all three prices in the seed).
#include "clusterplan/catalog/catalog.h"
#include "clusterplan/sim/scenario.h"
#include "fixture.h"
#include "renderers.h"
#include "report_data.h"
#include "report_export.h"
#include "report_format.h"

#include <QTemporaryDir>
#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

using cp::report::Document;
using cp::report::Paragraph;
using cp::report::Table;
using cp::report::Tone;
using cp::report::test::fixture_report;

namespace {

const Paragraph* price_age(const Document& doc) {
    for (const auto& block : doc.sections.front().blocks)
        if (const auto* p = std::get_if<Paragraph>(&block);
            p != nullptr && p->lead == QStringLiteral("Price age:"))
            return p;
    return nullptr;
}

const Table* purchase_table(const Document& doc) {
    for (const auto& block : doc.sections.front().blocks)
        if (const auto* t = std::get_if<Table>(&block);
            t != nullptr && !t->headers.isEmpty() &&
            t->headers[0] == QStringLiteral("Purchase option"))
            return t;
    return nullptr;
}

} // namespace

TEST_CASE("Page 1 gives the price age, amber after 30 days and red after 90",
          "[report][document][pricing]") {
    cp::report::test::ensure_qt_app();
    auto data = fixture_report("age", 2);
    data.price_age.instance_type = "p4d.24xlarge";
    data.price_age.kind = "on_demand";
    data.price_age.as_of = "2025-08";
    for (const auto& [days, tone] : {std::pair{12.0, Tone::plain}, std::pair{45.0, Tone::caution},
                                     std::pair{480.0, Tone::alert}}) {
        data.price_age.days = days;
        const Document doc = build_document(data);
        const Paragraph* age = price_age(doc);
        REQUIRE(age != nullptr);
        INFO(age->text.toStdString());
        CHECK(age->tone == tone);
        CHECK(age->text.contains(QStringLiteral("%1 days old").arg(std::lround(days))));
        CHECK(age->text.contains(QLatin1String("2025-08")));
        const QString html = cp::report::render_html(doc);
        CHECK(html.contains(QLatin1String("<p class=\"alert\">")) == (tone == Tone::alert));
        CHECK(html.contains(QLatin1String("<p class=\"caution\">")) == (tone == Tone::caution));
    }
    data.price_age.days = std::numeric_limits<double>::quiet_NaN();
    const Paragraph* none = price_age(build_document(data));
    REQUIRE(none != nullptr);
    CHECK(none->text.contains(QLatin1String("no catalog price")));
}

TEST_CASE("Page 1 puts on demand, spot and Capacity Block side by side",
          "[report][document][pricing]") {
    cp::report::test::ensure_qt_app();
    QTemporaryDir dir;
    REQUIRE(dir.isValid());
    qputenv("CLUSTERPLAN_DATA_DIR", dir.path().toUtf8());
    const auto scenario = cp::sim::parse_scenario(
        R"({"model": {"preset": "llama2-7b"}, "training": {"tokens": 2e10},
            "cluster": {"instance": "p5.48xlarge", "nodes": 2, "region": "us-east-1"}})",
        "p5.json");
    cp::catalog::Catalog catalog = cp::catalog::Catalog::open_default();
    const auto data = cp::report::build_report_data(scenario, catalog, 3);
    REQUIRE_FALSE(data.plans.empty());
    // The seed's prices are over a year old: red, and the caveat says so too.
    CHECK(data.price_age.days > cp::report::kPriceAgeAlertDays);
    const Document doc = build_document(data);
    const Paragraph* age = price_age(doc);
    REQUIRE(age != nullptr);
    CHECK(age->tone == Tone::alert);
    const Table* table = purchase_table(doc);
    REQUIRE(table != nullptr);
    QStringList options;
    for (const auto& row : table->rows)
        options << row[0];
    INFO(options.join(", ").toStdString());
    REQUIRE(options.size() >= 3);
    CHECK(options[0] == QStringLiteral("On demand"));
    CHECK(options[1] == QStringLiteral("Spot"));
    CHECK(options[2] == QStringLiteral("Capacity Block"));
    const qsizetype cost = table->headers.indexOf(QStringLiteral("Cost"));
    REQUIRE(cost >= 0);
    for (int r = 0; r < 3; ++r) {
        INFO(table->rows[static_cast<std::size_t>(r)].join(" | ").toStdString());
        CHECK(table->rows[static_cast<std::size_t>(r)][cost] != cp::report::fmt::kUnknown);
    }
    // The Capacity Block reserves whole days for the 2 instances, paid up front.
    CHECK(table->rows[2].back().contains(QLatin1String("2 instances reserved")));
    CHECK(table->emphasised_rows.size() == 1);
}
