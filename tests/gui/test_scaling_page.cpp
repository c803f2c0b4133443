// Scaling page: the sweep runs off the UI thread, fills the charts and a ranked table whose
// order follows the objective; opening a plan moves it to the Plan page.
#include "app_context.h"
#include "chart_view.h"
#include "gui_test_support.h"
#include "main_window.h"
#include "models/recommendation_model.h"
#include "pages/plan_page.h"
#include "pages/scaling_page.h"
#include "tolerance.h"

#include <QChart>
#include <QScatterSeries>
#include <QSignalSpy>
#include <QSpinBox>
#include <QToolTip>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>

using namespace cp::gui;

TEST_CASE("Scaling sweep ranks plans by the objective and opens one in Plan", "[gui][scaling]") {
    test::TempDataDir data;
    AppContext context;
    cp::sim::Scenario sc = context.scenario();
    sc.constraints.max_nodes = 16;
    context.setScenario(sc);
    MainWindow window(context);
    window.show();
    test::ModelGuard guard(&window);
    ScalingPage* page = window.scalingPage();
    QSignalSpy finished(page, &ScalingPage::sweepFinished);
    window.showPage(QStringLiteral("scaling")); // a stale page sweeps when shown
    REQUIRE(finished.wait(60000));
    CHECK_FALSE(page->busy());
    const auto result = page->data();
    REQUIRE(result);
    CHECK(result->evaluated > 0);
    // Four layout families on one instance type; the last, dashed, is the best of every layout.
    REQUIRE(result->series.size() == 4);
    const auto& envelope = result->series.back();
    CHECK(envelope.dashed);
    for (const auto& s : result->series) {
        for (const auto& p : s.points) {
            const auto best = std::find_if(envelope.points.begin(), envelope.points.end(),
                                           [&](const auto& q) { return q.devices == p.devices; });
            REQUIRE(best != envelope.points.end());
            CHECK(best->tokens_per_s >= p.tokens_per_s);
        }
    }
    CHECK_FALSE(result->front.empty());
    RecommendationModel* model = page->recommendations();
    REQUIRE(model->rowCount() > 1);
    // Objective "cost": costs never decrease down the table.
    double previous = 0;
    for (int r = 0; r < model->rowCount(); ++r) {
        const double cost = model->planAt(r)->option_cost_usd;
        CHECK(cost >= previous);
        previous = cost;
    }
    // The Pareto scatter: hovering a point explains it, clicking opens it in Plan.
    QScatterSeries* front = nullptr;
    for (QAbstractSeries* s : page->paretoView()->chart()->series()) {
        auto* scatter = qobject_cast<QScatterSeries*>(s);
        if (scatter && scatter->count() > 0 && scatter->name().contains(QStringLiteral("Pareto")))
            front = scatter;
    }
    REQUIRE(front);
    const QPointF point = front->points().first();
    emit front->hovered(point, true);
    CHECK(QToolTip::text().contains(QStringLiteral("Click to open in Plan")));
    CHECK(QToolTip::text().contains(QStringLiteral("TP×PP×DP")));
    emit front->hovered(point, false);
    const int plan_updates = window.planPage()->updateCount();
    emit front->clicked(point);
    REQUIRE(window.planPage()->isVisible());
    const cp::sim::Scenario opened = context.scenario();
    CHECK(opened.parallel.tp.has_value()); // a concrete layout, not "search"
    REQUIRE(test::wait_until([&] { return window.planPage()->updateCount() > plan_updates; }));
    // The Plan page shows the clicked point: its purchase option and its time to train.
    const PlanOutcome& shown = window.planPage()->outcome();
    const bool spot = opened.pricing == cp::sim::Pricing::spot;
    CHECK(window.planPage()->figures().highlighted(spot ? "cost_spot" : "cost_on_demand"));
    CHECK_REL(spot ? shown.spot_time_to_train_h : shown.time_to_train_h, point.x(), 0.02);

    // "Open in Plan" puts the plan's layout into the current scenario.
    const SweepPlan best = *model->planAt(0);
    emit context.openPlanRequested(scenario_for(context.scenario(), best));
    CHECK(context.scenario().nodes.value_or(0) == best.nodes);
    CHECK(context.scenario().parallel.tp.value_or(0) == best.layout.tp);
    REQUIRE(test::wait_until([&] { return window.planPage()->outcome().devices == best.devices; }));
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE("A running sweep can be cancelled", "[gui][scaling]") {
    test::TempDataDir data;
    AppContext context;
    cp::sim::Scenario sc = context.scenario();
    sc.constraints.max_nodes = 512;
    context.setScenario(sc);
    MainWindow window(context);
    ScalingPage* page = window.scalingPage();
    QSignalSpy finished(page, &ScalingPage::sweepFinished);
    page->runSweep();
    CHECK(page->busy());
    page->cancelSweep();
    REQUIRE(finished.wait(60000));
    CHECK_FALSE(page->busy());
}

TEST_CASE_METHOD(test::Workbench,
                 "The sweep size is the scenario's max nodes, kept across Plan edits",
                 "[gui][scaling]") {
    auto* max_nodes = window.scalingPage()->findChild<QSpinBox*>();
    REQUIRE(max_nodes);
    max_nodes->setValue(128);
    CHECK(context.scenario().constraints.max_nodes == 128);
    // An unrelated edit on the Plan page leaves it alone.
    window.planPage()->simulateEdit(0);
    CHECK(max_nodes->value() == 128);
    CHECK(context.scenario().constraints.max_nodes == 128);
}
