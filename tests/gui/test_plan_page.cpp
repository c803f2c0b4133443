// Plan page: editing a field recomputes the results; bad layouts give a clear verdict; scenario
// files open and save through sim's parser and serialiser.
#include "app_context.h"
#include "clusterplan/sim/presets.h"
#include "gui_test_support.h"
#include "main_window.h"
#include "pages/plan_page.h"
#include "pages/scenario_editor.h"
#include "plan_eval.h"
#include "tolerance.h"

#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSpinBox>
#include <catch2/catch.hpp>

using namespace cp::gui;

TEST_CASE_METHOD(test::Workbench, "Plan page shows results for the default scenario",
                 "[gui][plan]") {
    CHECK(guard.modelCount() > 0);
    PlanPage* plan = window.planPage();
    REQUIRE(plan->outcome().error.isEmpty());
    CHECK(plan->outcome().result.valid());
    CHECK(plan->figures().value("step_time") != QStringLiteral("\u2014"));
    CHECK(plan->figures().value("cost_on_demand").startsWith('$'));
    CHECK(plan->verdictText().contains(QStringLiteral("Fits in memory")));
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE_METHOD(test::Workbench, "Editing a Plan field updates the results", "[gui][plan]") {
    window.show();
    PlanPage* plan = window.planPage();
    const int updates_before = plan->updateCount();
    const double throughput_before = plan->outcome().result.tokens_per_s;
    const QString figure_before = plan->figures().value("throughput");

    QSpinBox* nodes = plan->editor()->nodesField();
    const int nodes_before = nodes->value();
    nodes->setValue(nodes_before * 2);
    // The recompute is debounced to the next event-loop pass.
    REQUIRE(test::wait_until([&] { return plan->updateCount() > updates_before; }));
    CHECK(context.scenario().nodes.value_or(0) == nodes_before * 2);
    CHECK(plan->outcome().devices == 2 * nodes_before * 8);
    CHECK(plan->outcome().result.tokens_per_s > throughput_before * 1.5);
    CHECK(plan->figures().value("throughput") != figure_before);
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE_METHOD(test::Workbench, "A manual layout that does not divide the cluster is explained",
                 "[gui][plan]") {
    PlanPage* plan = window.planPage();
    {
        cp::sim::Scenario sc = context.scenario();
        sc.parallel.tp = 3; // does not divide 40 heads nor 128 devices
        sc.parallel.pp = 1;
        sc.parallel.dp = 1;
        sc.parallel.micro_batch = 1;
        context.setScenario(sc);
    }
    REQUIRE(test::wait_until(
        [&] { return !plan->outcome().error.isEmpty() || !plan->outcome().result.valid(); }));
    CHECK((plan->figures().value("step_time") == QStringLiteral("\u2014") ||
           !plan->outcome().verdict_ok));
    CHECK_FALSE(plan->verdictText().isEmpty());
}

TEST_CASE("Scenario files round-trip through open and save, bad files are refused", "[gui][plan]") {
    test::TempDataDir data;
    AppContext context;
    cp::sim::Scenario sc = context.scenario();
    sc.name = "round trip";
    sc.nodes = 7;
    context.setScenario(sc);
    const QString path = QDir(data.path()).filePath("scenario.json");
    REQUIRE(context.saveScenario(path).isEmpty());

    AppContext other;
    REQUIRE(other.openScenario(path).isEmpty());
    CHECK(other.scenario().name == "round trip");
    CHECK(other.scenario().nodes.value_or(0) == 7);
    CHECK(other.recentFiles().contains(QFileInfo(path).absoluteFilePath()));

    const QString bad = QDir(data.path()).filePath("bad.json");
    QFile f(bad);
    REQUIRE(f.open(QIODevice::WriteOnly));
    f.write(
        R"({"schema": "clusterplan.scenario/1", "model": {"layers": 2}, "cluster": {"instance": "p4d.24xlarge"}, "typo_field": 1})");
    f.close();
    const QString error = other.openScenario(bad);
    CHECK_FALSE(error.isEmpty());
    CHECK(error.contains(QStringLiteral("bad.json")));
    CHECK(other.scenario().name == "round trip"); // nothing changed
}

TEST_CASE_METHOD(test::Workbench,
                 "The Plan verdict follows the pricing choice and the deadline and budget",
                 "[gui][plan]") {
    PlanPage* plan = window.planPage();
    REQUIRE(plan->outcome().error.isEmpty());
    // Default: on-demand pricing is the headline.
    CHECK(plan->figures().highlighted("cost_on_demand"));
    CHECK_FALSE(plan->figures().highlighted("cost_spot"));
    CHECK(plan->verdictText().contains(QStringLiteral("on demand.")));
    // The layout card names what the search chose besides TP×PP×DP.
    CHECK(plan->figures().detail("layout").contains(QStringLiteral("ZeRO-")));
    CHECK(plan->figures().detail("layout").contains(QStringLiteral("recompute")));

    cp::sim::Scenario sc = context.scenario();
    sc.pricing = cp::sim::Pricing::spot;
    int updates = plan->updateCount();
    context.setScenario(sc);
    REQUIRE(test::wait_until([&] { return plan->updateCount() > updates; }));
    CHECK(plan->figures().highlighted("cost_spot"));
    CHECK_FALSE(plan->figures().highlighted("cost_on_demand"));
    CHECK(plan->verdictText().contains(QStringLiteral("On spot, training is expected to take")));

    // A deadline shorter than the run and a budget below its cost are named and make the
    // verdict a warning.
    sc.constraints.deadline_hours = 24;
    sc.constraints.budget_usd = 1000;
    updates = plan->updateCount();
    context.setScenario(sc);
    REQUIRE(test::wait_until([&] { return plan->updateCount() > updates; }));
    INFO(plan->verdictText().toStdString());
    CHECK(plan->verdictText().contains(QStringLiteral("misses the 24.0 h deadline")));
    CHECK(plan->verdictText().contains(QStringLiteral("exceeds the $1,000 budget")));
    CHECK_FALSE(plan->outcome().verdict_ok);
}

TEST_CASE_METHOD(test::Workbench, "Search mode shows the searched layout, Manual starts from it",
                 "[gui][plan]") {
    PlanPage* plan = window.planPage();
    REQUIRE(plan->outcome().error.isEmpty());
    REQUIRE(plan->outcome().layout_searched);
    const cp::sim::Layout searched = plan->outcome().layout;
    const double step_s = plan->outcome().result.step_time_s;
    ScenarioEditor* editor = plan->editor();
    CHECK(editor->tensorParallelField()->value() == searched.tp);
    CHECK(editor->zeroField()->currentIndex() == searched.zero);
    // Switching to Manual keeps the plan: the fields already hold the searched layout.
    const int updates = plan->updateCount();
    editor->layoutModeField()->setCurrentIndex(1);
    REQUIRE(test::wait_until([&] { return plan->updateCount() > updates; }));
    CHECK_FALSE(plan->outcome().layout_searched);
    CHECK(plan->outcome().layout.dp == searched.dp);
    CHECK(plan->outcome().layout.zero == searched.zero);
    CHECK_REL(plan->outcome().result.step_time_s, step_s, 1e-9);
}

TEST_CASE("A fixed layout a little over memory is kept with a warning, far over it is refused",
          "[gui][plan]") {
    test::TempDataDir data;
    AppContext context;
    // Llama 2 7B at 512 tokens on one p4de node, data parallel without recompute: each sample
    // adds ~3 % of the 80 GiB device.
    cp::sim::Scenario sc = context.scenario();
    sc.workload = cp::sim::find_model_preset("llama2-7b")->workload;
    sc.workload.shape.seq_len = 512;
    sc.instance = "p4de.24xlarge";
    sc.nodes = 1;
    sc.parallel.tp = 1;
    sc.parallel.pp = 1;
    sc.parallel.dp = 8;
    sc.parallel.zero = 1;
    sc.parallel.recompute = cp::sim::Recompute::none;
    sc.parallel.sequence_parallel = false;
    sc.parallel.sequence_parallel_given = true; // as the editor's Manual mode sets it
    PlanOutcome within, beyond;
    for (int mb = 1; mb <= 64 && beyond.error.isEmpty() && beyond.result.valid(); ++mb) {
        sc.parallel.micro_batch = mb;
        sc.parallel.global_batch = 8 * mb;
        const PlanOutcome o = evaluate_plan(sc, context.catalog());
        REQUIRE(o.error.isEmpty());
        const double share = o.result.memory_gib.total / o.result.memory_gib.capacity;
        if (share > 1.0 && o.result.valid() && within.devices == 0) within = o;
        if (!o.result.valid()) beyond = o;
    }
    REQUIRE(within.devices == 8);
    CHECK_FALSE(within.verdict_ok);
    CHECK(within.verdict.contains(QStringLiteral("May not fit in memory")));
    REQUIRE(beyond.devices == 8);
    CHECK_FALSE(beyond.verdict_ok);
    CHECK(beyond.verdict.contains(QStringLiteral("does not fit in memory")));
}
