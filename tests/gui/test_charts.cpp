// Chart builders and export: axes carry titles with units, PNG and SVG files are written.
#include "chart_view.h"
#include "charts/chart_export.h"
#include "charts/plan_charts.h"
#include "charts/probe_charts.h"
#include "charts/scaling_charts.h"
#include "clusterplan/sim/result.h"
#include "format.h"
#include "gui_test_support.h"
#include "tolerance.h"

#include <QAbstractAxis>
#include <QAbstractBarSeries>
#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QDir>
#include <QFile>
#include <QImage>
#include <QLegend>
#include <QLineSeries>
#include <QPalette>
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>

using namespace cp::gui;

namespace {
QStringList axis_titles(QChart* chart) {
    QStringList out;
    for (QAbstractAxis* a : chart->axes())
        out << a->titleText();
    return out;
}
} // namespace

TEST_CASE("Unknown values format as a dash", "[gui][format]") {
    CHECK(fmt_num(std::nan("")) == QStringLiteral("\u2014"));
    CHECK(fmt_usd(std::nan("")) == QStringLiteral("\u2014"));
    CHECK(fmt_usd(0.526) == QStringLiteral("$0.53"));
    CHECK(fmt_duration_s(0.25) == QStringLiteral("250.0 ms"));
    CHECK(fmt_hours(30 * 24) == QStringLiteral("30.0 days"));
}

TEST_CASE("Chart builders label their axes with units and export PNG and SVG", "[gui][charts]") {
    cp::sim::PlanResult plan;
    plan.step_time_s = 1.5;
    plan.breakdown_s.compute_s = 1.0;
    plan.breakdown_s.pp_bubble_s = 0.3;
    plan.breakdown_s.dp_comm_exposed_s = 0.2;
    plan.memory_gib = {2, 2, 12, 30, 46, 80};
    std::unique_ptr<QChart> step(charts::step_breakdown_chart({{"A", &plan}}));
    CHECK(axis_titles(step.get()).join(' ').contains("(ms)"));
    std::unique_ptr<QChart> memory(charts::memory_chart({{"A", &plan}}));
    CHECK(axis_titles(memory.get()).join(' ').contains("GiB"));

    charts::ScalingSeries s{"Data parallel", {{8, 1e5, 1.0, 1e5}, {16, 1.9e5, 0.95, 1.05e5}}};
    std::unique_ptr<QChart> thr(charts::scaling_chart({s}, charts::ScalingMetric::throughput));
    CHECK(axis_titles(thr.get()).join(' ').contains("tokens/s"));
    std::unique_ptr<QChart> cost(charts::scaling_chart({s}, charts::ScalingMetric::cost));
    CHECK(axis_titles(cost.get()).join(' ').contains("USD"));
    // An envelope series is dashed so the curve it coincides with shows through.
    charts::ScalingSeries best = s;
    best.dashed = true;
    std::unique_ptr<QChart> both(
        charts::scaling_chart({s, best}, charts::ScalingMetric::throughput));
    REQUIRE(both->series().size() == 2);
    CHECK(qobject_cast<QLineSeries*>(both->series()[0])->pen().style() == Qt::SolidLine);
    CHECK(qobject_cast<QLineSeries*>(both->series()[1])->pen().style() != Qt::SolidLine);
    std::unique_ptr<QChart> pareto(
        charts::pareto_chart({{10, 1000, true, "a", 0}, {20, 900, true, "b", 1}}));
    CHECK(axis_titles(pareto.get()).join(' ').contains("hours"));
    std::unique_ptr<QChart> bw(
        charts::busbw_chart({{"all_reduce", {1024, 1 << 20}, {1.0, 100.0}, {}}}));
    CHECK(axis_titles(bw.get()).join(' ').contains("GB/s"));

    test::TempDataDir dir;
    const QString png = QDir(dir.path()).filePath("step.png");
    const QString svg = QDir(dir.path()).filePath("step.svg");
    REQUIRE(charts::save_chart(step.get(), png, QSize(600, 400)).isEmpty());
    REQUIRE(charts::save_chart(step.get(), svg, QSize(600, 400)).isEmpty());
    const QImage image(png);
    CHECK(image.width() == 1200); // drawn at 2x for high-DPI output
    QFile f(svg);
    REQUIRE(f.open(QIODevice::ReadOnly));
    CHECK(f.readAll().contains("<svg"));
    CHECK_FALSE(charts::save_chart(step.get(), QDir(dir.path()).filePath("x.bmpx")).isEmpty());
}

TEST_CASE("The memory bar adds up to the total the Plan page states", "[gui][charts]") {
    cp::sim::PlanResult plan;
    // weights, gradients, optimizer, activations, total (with 1.5 GiB framework reserve), capacity
    plan.memory_gib = {2, 2, 12, 30, 47.5, 80};
    std::unique_ptr<QChart> memory(charts::memory_chart({{"A", &plan}}));
    double stacked = 0;
    bool has_reserve = false;
    for (QAbstractSeries* s : memory->series()) {
        auto* bars = qobject_cast<QAbstractBarSeries*>(s);
        if (!bars) continue;
        for (QBarSet* set : bars->barSets()) {
            stacked += set->at(0);
            has_reserve = has_reserve || set->label() == QStringLiteral("Framework");
        }
    }
    CHECK(has_reserve);
    CHECK_REL(stacked, 47.5, 1e-9);
}

TEST_CASE("GEMM bars carry vertical labels and name their source", "[gui][charts]") {
    std::unique_ptr<QChart> gemm(
        charts::gemm_chart({{"fp32", 17.0, 19.5}, {"bf16", 271.4, 312}},
                           QStringLiteral("from example.json (host h, 2026-11-20)")));
    CHECK(gemm->title().contains(QStringLiteral("example.json")));
    for (QAbstractSeries* s : gemm->series()) {
        if (auto* bars = qobject_cast<QAbstractBarSeries*>(s)) CHECK(bars->labelsAngle() == -90.0);
    }
    // Without measurements the category axis has no title to float in a corner.
    std::unique_ptr<QChart> empty(charts::gemm_chart({}));
    CHECK_FALSE(axis_titles(empty.get()).contains(QStringLiteral("Precision")));
}

TEST_CASE("A chart on screen follows a live light/dark palette switch", "[gui][charts][palette]") {
    cp::sim::PlanResult plan;
    plan.step_time_s = 1.5;
    plan.breakdown_s.compute_s = 1.0;
    plan.breakdown_s.recompute_s = 0.5;
    const QPalette previous = QApplication::palette();
    ChartView view;
    view.replaceChart(charts::step_breakdown_chart({{"A", &plan}}));
    QChart* chart = view.chart();
    auto* bars = qobject_cast<QAbstractBarSeries*>(chart->series().front());
    REQUIRE(bars);
    const QColor compute_colour = bars->barSets().front()->color();

    QPalette dark = previous;
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::Text, QColor(0xe6, 0xe6, 0xe6));
    QApplication::setPalette(dark);
    QCoreApplication::sendPostedEvents();
    QCoreApplication::processEvents();
    CHECK(chart->backgroundBrush().color() == QColor(0x1e, 0x1e, 0x1e));
    CHECK(chart->legend()->labelColor() == QColor(0xe6, 0xe6, 0xe6));
    for (QAbstractAxis* axis : chart->axes())
        CHECK(axis->labelsBrush().color() == QColor(0xe6, 0xe6, 0xe6));
    // The parts keep their own colours (a theme change would have reset them).
    CHECK(bars->barSets().front()->color() == compute_colour);
    QApplication::setPalette(previous);
    QCoreApplication::processEvents();
    CHECK(chart->backgroundBrush().color() == previous.color(QPalette::Base));
}
