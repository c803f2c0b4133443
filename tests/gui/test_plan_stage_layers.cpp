// The Plan page's stage-layers field: a manual layout's per-stage layer counts are shown from the
// file, edited as a comma list, reach the planner (the fullest stage sets the step time), a split
// that does not match pp or the model's layers is named in the plan's error, the search clears it,
// and what the editor writes opens as the same split.
#include "app_context.h"
#include "gui_test_support.h"
#include "main_window.h"
#include "pages/plan_page.h"
#include "pages/scenario_editor.h"

#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QLineEdit>
#include <QSpinBox>
#include <QTest>
#include <catch2/catch.hpp>

using namespace cp::gui;

namespace {

// Llama 3 8B has 32 layers; one p5 node splits them over 4 stages of 2 tensor-parallel ranks.
const char* kManualPipeline = R"({"schema": "clusterplan.scenario/1", "name": "stages",
  "model": {"preset": "llama3-8b", "seq_len": 4096},
  "cluster": {"instance": "p5.48xlarge", "nodes": 1},
  "parallel": {"tp": 2, "pp": 4, "dp": 1, "micro_batch": 1, "global_batch": 64,
               "stage_layers": [8, 8, 8, 8]},
  "precision": "bf16",
  "training": {"tokens": 1e9}})";

void type_stages(QLineEdit* field, const QString& text) {
    // Cleared as a user clears it, so the edit signal fires for an empty field as well.
    field->selectAll();
    QTest::keyClick(field, Qt::Key_Backspace);
    QTest::keyClicks(field, text);
}

} // namespace

TEST_CASE_METHOD(test::Workbench, "The Plan page edits a manual layout's stage layers",
                 "[gui][plan][editor]") {
    window.show();
    int updates = window.planPage()->updateCount();
    context.setScenario(cp::sim::parse_scenario(kManualPipeline, "stages.json"));
    QCoreApplication::processEvents();
    PlanPage* plan = window.planPage();
    ScenarioEditor* editor = plan->editor();
    QLineEdit* stages = editor->stageLayersField();
    CHECK(editor->layoutModeField()->currentIndex() == 1);
    CHECK(stages->isEnabled());
    CHECK(stages->text() == QStringLiteral("8, 8, 8, 8"));
    REQUIRE(test::wait_until([&] { return plan->updateCount() > updates; }));
    REQUIRE(plan->outcome().error.isEmpty());
    const double even_step_s = plan->outcome().result.step_time_s;

    // Ten layers on the second stage: that stage paces the pipeline.
    updates = plan->updateCount();
    type_stages(stages, QStringLiteral("6, 10, 8, 8"));
    CHECK(context.scenario().parallel.stage_layers == std::vector<int>{6, 10, 8, 8});
    REQUIRE(test::wait_until([&] { return plan->updateCount() > updates; }));
    REQUIRE(plan->outcome().error.isEmpty());
    CHECK(plan->outcome().result.step_time_s > even_step_s);

    // The validator admits digits, commas and spaces only.
    type_stages(stages, QStringLiteral("8;8 x8"));
    CHECK(stages->text() == QStringLiteral("88 8"));
    // Three stages for pp 4, and a split that misses the model's layers, are named.
    updates = plan->updateCount();
    type_stages(stages, QStringLiteral("8, 8, 16"));
    REQUIRE(test::wait_until([&] { return plan->updateCount() > updates; }));
    CHECK(plan->outcome().error.contains(QStringLiteral("parallel.stage_layers")));
    CHECK(plan->outcome().error.contains(QStringLiteral("pp is 4")));
    updates = plan->updateCount();
    type_stages(stages, QStringLiteral("8, 8, 8, 9"));
    REQUIRE(test::wait_until([&] { return plan->updateCount() > updates; }));
    CHECK(plan->outcome().error.contains(QStringLiteral("33 layers")));
    CHECK(plan->outcome().error.contains(QStringLiteral("32")));

    // Saved and opened: the split and the layout it belongs to.
    type_stages(stages, QStringLiteral("7, 9, 9, 7"));
    const QString path = QDir(data.path()).filePath("stages.json");
    REQUIRE(context.saveScenario(path).isEmpty());
    AppContext other;
    REQUIRE(other.openScenario(path).isEmpty());
    CHECK(other.scenario().parallel.stage_layers == std::vector<int>{7, 9, 9, 7});
    CHECK(other.scenario().parallel.pp == 4);

    // Empty is the default split; the search splits every pp it tries and clears the field's
    // effect.
    type_stages(stages, QString());
    CHECK(context.scenario().parallel.stage_layers.empty());
    type_stages(stages, QStringLiteral("7, 9, 9, 7"));
    editor->layoutModeField()->setCurrentIndex(0);
    CHECK_FALSE(stages->isEnabled());
    CHECK(context.scenario().parallel.stage_layers.empty());
    CHECK(test::ModelGuard::violations() == 0);
}
