// What the report's charts and summary show beyond the document structure: the Pareto chart
// labels the ranked plans and draws the scenario's deadline; a generic model's headline gives
// its samples per second rather than a dash for tokens.
#include "fixture.h"
#include "renderers.h"
#include "report_data.h"

#include <catch2/catch.hpp>

using cp::report::Figure;
using cp::report::Paragraph;
using cp::report::Section;
using cp::report::test::fixture_report;

namespace {
const Section& section_named(const cp::report::Document& doc, const QString& prefix) {
    for (const auto& s : doc.sections) {
        if (s.heading.startsWith(prefix)) return s;
    }
    FAIL("no section " << prefix.toStdString());
    return doc.sections.front();
}
} // namespace

TEST_CASE("The report's Pareto chart numbers the ranked plans and draws the deadline",
          "[report][charts]") {
    auto data = fixture_report("deadline", 3);
    data.scenario.constraints.deadline_hours = 900.0;
    data.cost_time.push_back({250.0, 1.0e6, true, 0, "64× p5.48xlarge spot"});
    const auto doc = build_document(data);
    const Figure* pareto = nullptr;
    for (const auto& block : section_named(doc, QStringLiteral("Charts")).blocks) {
        if (const auto* f = std::get_if<Figure>(&block); f && f->file_stem == "pareto") pareto = f;
    }
    REQUIRE(pareto);
    QStringList labels;
    for (const auto& s : pareto->chart.series)
        labels << s.point_labels;
    CHECK(labels.contains(QStringLiteral("#1")));
    CHECK(labels.contains(QStringLiteral("#3")));
    CHECK(labels.contains(QStringLiteral("64× p5.48xlarge spot")));
    REQUIRE(pareto->chart.reference_lines.size() == 1);
    CHECK(pareto->chart.reference_lines.front().vertical);
    CHECK(pareto->chart.reference_lines.front().value == 900.0);
}

TEST_CASE("A generic model's headline gives samples per second, not a dash", "[report][document]") {
    auto data = fixture_report("resnet", 1);
    data.throughput_unit = "samples/s";
    data.plans[0]["tokens_per_s"] = nullptr; // as simulate --json writes it for ResNet-50
    data.plans[0]["samples_per_s"] = 12345.0;
    const auto doc = build_document(data);
    const Section& summary = section_named(doc, QStringLiteral("Recommendation"));
    const auto* headline = std::get_if<Paragraph>(&summary.blocks.front());
    REQUIRE(headline);
    INFO(headline->text.toStdString());
    CHECK(headline->text.contains(QStringLiteral("samples/s")));
    CHECK_FALSE(headline->text.contains(QStringLiteral("—, MFU")));
}
