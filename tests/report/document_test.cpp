// The report's structure and wording (build_document) on fixture data: the figures a budget
// is set from (spot wall time, whole tuning job), charts that add up, and a report without
// a plan that says why instead of drawing empty tables and charts.
#include "fixture.h"
#include "renderers.h"
#include "report_data.h"
#include "report_format.h"

#include <catch2/catch.hpp>
#include <cmath>

using cp::report::Document;
using cp::report::Figure;
using cp::report::Paragraph;
using cp::report::Section;
using cp::report::Table;
using cp::report::test::fixture_report;
namespace fmt = cp::report::fmt;

namespace {

const Section& section(const Document& doc, const QString& prefix) {
    for (const auto& s : doc.sections) {
        if (s.heading.startsWith(prefix)) return s;
    }
    FAIL("no section " << prefix.toStdString());
    return doc.sections.front();
}

const Figure& figure(const Document& doc, const QString& stem) {
    for (const auto& block : section(doc, QStringLiteral("Charts")).blocks) {
        if (const auto* f = std::get_if<Figure>(&block); f != nullptr && f->file_stem == stem)
            return *f;
    }
    FAIL("no figure " << stem.toStdString());
    return std::get<Figure>(doc.sections.front().blocks.front());
}

QString all_text(const Section& s) {
    QString out;
    for (const auto& block : s.blocks) {
        if (const auto* p = std::get_if<Paragraph>(&block)) out += p->lead + u' ' + p->text + u'\n';
    }
    return out;
}

} // namespace

TEST_CASE("A spot plan shows its expected spot wall time and an on-demand plan its own",
          "[report][document]") {
    auto data = fixture_report("spot", 3);
    auto& spot_plan = data.plans[1];
    spot_plan["purchase"] = "spot";
    const double spot_h = spot_plan["time_to_train_h"].get<double>() * 1.3;
    spot_plan["spot"] = {{"wall_time_h", spot_h}};
    const Document doc = build_document(data);
    const auto& table = std::get<Table>(section(doc, QStringLiteral("Top")).blocks.front());
    const qsizetype time_col = table.headers.indexOf(QStringLiteral("Time to train"));
    REQUIRE(time_col >= 0);
    CHECK(table.rows[1][time_col] == fmt::hours(spot_h));
    CHECK(table.rows[0][time_col] == fmt::hours(data.plans[0]["time_to_train_h"].get<double>()));
    // A plan without a spot price has no interruption count either.
    const qsizetype interruptions =
        table.headers.indexOf(QStringLiteral("Spot interruptions (expected)"));
    REQUIRE(interruptions >= 0);
    CHECK(table.rows[2][interruptions] == fmt::kUnknown);
}

TEST_CASE("A tuning job is summarised by its whole-job time and cost", "[report][document]") {
    auto data = fixture_report("tuning", 2);
    auto& best = data.plans[0];
    best["tuning"] = {{"trials", 32},       {"max_parallel_trials", 4}, {"wall_time_h", 11.5},
                      {"cost_usd", 1562.0}, {"spot_wall_time_h", 12.0}, {"spot_cost_usd", 217.83}};
    const Document doc = build_document(data);
    const QString summary = all_text(section(doc, QStringLiteral("Recommendation")));
    CHECK(summary.contains(QStringLiteral("tuning job (32 trials)")));
    CHECK(summary.contains(fmt::usd(1562.0)));
    const auto& table = std::get<Table>(section(doc, QStringLiteral("Top")).blocks.front());
    CHECK(table.rows[0].contains(fmt::usd(1562.0)));
    CHECK(table.note.contains(QStringLiteral("whole tuning job of 32 trials")));
}

TEST_CASE("Memory bars add up to each plan's total and carry its own capacity",
          "[report][document]") {
    auto data = fixture_report("memory", 3);
    data.plans[1]["memory_gib"]["total"] =
        data.plans[1]["memory_gib"]["total"].get<double>() + 1.5; // reserve
    data.plans[2]["memory_gib"]["capacity"] = 80.0;
    const Document doc = build_document(data);
    const Figure& memory = figure(doc, QStringLiteral("memory"));
    REQUIRE(memory.chart.categories.size() == 3);
    REQUIRE(memory.chart.reference_values.size() == 3);
    for (int i = 0; i < 3; ++i) {
        double sum = 0;
        for (const auto& s : memory.chart.series)
            sum += s.points[static_cast<size_t>(i)].y();
        INFO("plan " << i);
        CHECK(std::abs(sum -
                       data.plans[static_cast<size_t>(i)]["memory_gib"]["total"].get<double>()) <
              1e-9);
        CHECK(memory.chart.reference_values[static_cast<size_t>(i)] ==
              data.plans[static_cast<size_t>(i)]["memory_gib"]["capacity"].get<double>());
    }
}

TEST_CASE("A log axis spanning less than a decade is drawn linear", "[report][document]") {
    auto data = fixture_report("narrow", 2);
    data.cost_time = {{847.0, 2.38e6, true, 2}, {907.0, 2.86e5, true, 1}};
    const Document doc = build_document(data);
    const Figure& pareto = figure(doc, QStringLiteral("pareto"));
    CHECK_FALSE(pareto.chart.log_x);
    CHECK_FALSE(pareto.chart.x_label.contains(QStringLiteral("log")));
    CHECK(pareto.chart.log_y == false); // 8.3x: still under the threshold
    const Document wide_doc = build_document(fixture_report("wide", 2));
    const Figure& wide = figure(wide_doc, QStringLiteral("scaling-throughput"));
    CHECK(wide.chart.log_x); // 8 to 1024 devices
}

TEST_CASE("A report without a plan says why and draws no empty table or chart",
          "[report][document]") {
    auto data = fixture_report("nothing fits", 0);
    data.cost_time.clear();
    data.scaling.clear();
    data.excluded = {
        {"no layout fits in the 40 GiB of a A100-40GB up to 2 nodes", {"p4d.24xlarge"}}};
    data.planner_summary = {"no plan meets the constraints: raise max_nodes"};
    data.caveats.push_back(data.planner_summary.front());
    const Document doc = build_document(data);
    const Section& summary = section(doc, QStringLiteral("Recommendation"));
    const auto* reasons = std::get_if<cp::report::BulletList>(&summary.blocks.back());
    REQUIRE(reasons != nullptr);
    CHECK(reasons->items.join(u'\n').contains(QStringLiteral("p4d.24xlarge: no layout fits")));
    CHECK(reasons->items.join(u'\n').contains(QStringLiteral("raise max_nodes")));
    for (const auto& s : doc.sections) {
        INFO(s.heading.toStdString());
        CHECK_FALSE(s.heading.startsWith(QStringLiteral("Top 0")));
        for (const auto& block : s.blocks) {
            CHECK_FALSE(std::holds_alternative<Figure>(block));
            if (const auto* t = std::get_if<Table>(&block)) CHECK_FALSE(t->rows.empty());
        }
    }
}

TEST_CASE("Markdown leaves numbers in table cells unescaped", "[report][markdown]") {
    cp::report::test::ensure_qt_app();
    const auto md =
        cp::report::render_markdown(build_document(fixture_report("md", 2)), QStringLiteral("c"));
    CHECK_FALSE(md.text.contains(QStringLiteral("\\.")));
    CHECK(md.text.contains(QStringLiteral("| 2 | p4de.24xlarge | 32 |")));
}

TEST_CASE("A layout family that fits nowhere is named in the scaling caption",
          "[report][document]") {
    const Document full = build_document(fixture_report("all families", 2));
    CHECK_FALSE(figure(full, QStringLiteral("scaling-throughput"))
                    .caption.contains(QStringLiteral("gives no plan")));
    auto data = fixture_report("no data parallel", 2);
    std::erase_if(data.scaling, [](const auto& p) { return p.strategy == "Data parallel"; });
    const QString caption =
        figure(build_document(data), QStringLiteral("scaling-throughput")).caption;
    CHECK(caption.contains(QStringLiteral("Data parallel alone gives no plan that fits")));
    CHECK_FALSE(caption.contains(QStringLiteral("Model parallel alone")));
}

TEST_CASE("The recommendation headline counts one node in the singular", "[report][document]") {
    auto data = fixture_report("one node", 2);
    data.plans[0]["nodes"] = 1;
    const QString one = all_text(section(build_document(data), QStringLiteral("Recommendation")));
    CHECK(one.contains(QStringLiteral("1 node of ")));
    CHECK_FALSE(one.contains(QStringLiteral("1 nodes")));
    data.plans[0]["nodes"] = 4;
    const QString four = all_text(section(build_document(data), QStringLiteral("Recommendation")));
    CHECK(four.contains(QStringLiteral("4 nodes of ")));
}
