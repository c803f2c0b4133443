// The scenario editor's tuning, spot, search and custom-hardware fields: a scenario that sets
// them shows them, edits reach the scenario the Plan page evaluates, and what the editor
// writes parses back as the same scenario.
#include "app_context.h"
#include "gui_test_support.h"
#include "main_window.h"
#include "pages/plan_page.h"
#include "pages/scenario_editor.h"
#include "pages/scenario_extras.h"

#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDoubleSpinBox>
#include <QGroupBox>
#include <QMenu>
#include <QSpinBox>
#include <catch2/catch.hpp>
#include <cmath>

using namespace cp::gui;

TEST_CASE_METHOD(test::Workbench,
                 "Tuning, spot and custom hardware fields show a scenario and write it back",
                 "[gui][plan][editor]") {
    window.show();
    PlanPage* plan = window.planPage();
    ScenarioExtras* extras = plan->editor()->extras();
    REQUIRE(extras);

    cp::sim::Scenario sc = context.scenario();
    sc.training.trials = 32;
    sc.training.max_parallel_trials = 4;
    sc.spot.checkpoint_write_s = 90;
    sc.spot.restart_s = 300;
    sc.spot.checkpoint_on_notice = true;
    sc.constraints.allow_spot = false;
    sc.constraints.instances = {"p4d.24xlarge", "p5.48xlarge"};
    sc.region = "us-west-2";
    sc.custom = cp::sim::CustomHardware{"A100-80GB", 8, 300, 1600, 5, 0};
    context.setScenario(sc);
    QCoreApplication::processEvents();

    CHECK(extras->trialsField()->value() == 32);
    CHECK(extras->parallelTrialsField()->value() == 4);
    CHECK(extras->checkpointWriteField()->value() == 90);
    CHECK(extras->restartField()->value() == 300);
    CHECK(extras->checkpointOnNoticeField()->isChecked());
    CHECK_FALSE(extras->allowSpotField()->isChecked());
    CHECK(extras->regionField()->currentText() == QStringLiteral("us-west-2"));
    CHECK(extras->customField()->isChecked());
    CHECK(extras->customAcceleratorField()->currentData().toString() ==
          QStringLiteral("A100-80GB"));
    CHECK(extras->customPriceField()->value() == 0); // owned hardware: 0, not "from the instance"
    int ticked = 0;
    for (QAction* a : extras->instancesMenu()->actions())
        ticked += a->isChecked() ? 1 : 0;
    CHECK(ticked == 2);

    // Nothing edited: the editor writes back what it was given, and it parses.
    const cp::sim::Scenario back = plan->editor()->scenario();
    CHECK(back.training.trials == 32);
    CHECK(back.training.max_parallel_trials == 4);
    CHECK(back.spot.checkpoint_on_notice);
    CHECK_FALSE(back.constraints.allow_spot);
    CHECK(back.constraints.instances == sc.constraints.instances);
    CHECK(back.region == "us-west-2");
    REQUIRE(back.custom);
    CHECK(back.custom->usd_per_node_hour == 0);
    CHECK(back.custom->inter_node_gbps == 1600);
    const cp::sim::Scenario parsed =
        cp::sim::parse_scenario(cp::sim::scenario_to_json(back), "editor.json");
    CHECK(parsed.training.trials == 32);
    REQUIRE(parsed.custom);
    CHECK(parsed.custom->accelerator == "A100-80GB");

    // Edits reach the scenario the page evaluates.
    const int updates = plan->updateCount();
    extras->trialsField()->setValue(8);
    extras->allowSpotField()->setChecked(true);
    extras->customLatencyField()->setValue(extras->customLatencyField()->minimum());
    REQUIRE(test::wait_until([&] { return plan->updateCount() > updates; }));
    CHECK(context.scenario().training.trials == 8);
    CHECK(context.scenario().constraints.allow_spot);
    REQUIRE(context.scenario().custom);
    CHECK(std::isnan(context.scenario().custom->inter_node_latency_us)); // back to the instance's
    extras->customField()->setChecked(false);
    REQUIRE(test::wait_until([&] { return !context.scenario().custom.has_value(); }));
    for (QAction* a : extras->instancesMenu()->actions())
        a->setChecked(false);
    REQUIRE(test::wait_until([&] { return context.scenario().constraints.instances.empty(); }));
}

TEST_CASE_METHOD(test::Workbench,
                 "Checkpoint on notice needs a write that fits in the two-minute notice",
                 "[gui][plan][editor]") {
    ScenarioExtras* extras = window.planPage()->editor()->extras();
    extras->checkpointWriteField()->setValue(60);
    extras->checkpointOnNoticeField()->setChecked(true);
    CHECK(window.planPage()->editor()->scenario().spot.checkpoint_on_notice);
    extras->checkpointWriteField()->setValue(300);
    CHECK_FALSE(extras->checkpointOnNoticeField()->isEnabled());
    // Never written as a combination the scenario parser refuses.
    const cp::sim::Scenario sc = window.planPage()->editor()->scenario();
    CHECK_FALSE(sc.spot.checkpoint_on_notice);
    CHECK_NOTHROW(cp::sim::parse_scenario(cp::sim::scenario_to_json(sc), "editor.json"));
}
