// The scenario editor's method, optimizer, offload and Mixture-of-Experts fields: a scenario that
// sets them shows them, what the editor writes parses back as the same scenario, and edits reach
// the scenario the Plan page evaluates.
#include "app_context.h"
#include "gui_test_support.h"
#include "main_window.h"
#include "pages/model_shape_fields.h"
#include "pages/plan_page.h"
#include "pages/scenario_editor.h"
#include "pages/scenario_training.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QSpinBox>
#include <catch2/catch.hpp>

using namespace cp::gui;

namespace {

const char* kLoraMoe = R"({"schema": "clusterplan.scenario/1", "name": "moe lora",
  "model": {"preset": "mixtral-8x7b"},
  "cluster": {"instance": "p5.48xlarge", "nodes": 2},
  "parallel": {"global_batch": 64, "ep": 4, "offload": {"optimizer": "cpu", "params": "none"}},
  "precision": "bf16",
  "training": {"method": "lora", "lora": {"rank": 32, "alpha": 64, "targets": "attention"},
               "optimizer": "adamw-8bit", "tokens": 1e9}})";

// The main window with a scenario loaded into the Plan page's editor.
struct LoadedWindow {
    test::TempDataDir data;
    AppContext context;
    MainWindow window{context};
    LoadedWindow(const char* json, const char* name) {
        window.show();
        context.setScenario(cp::sim::parse_scenario(json, name));
        QCoreApplication::processEvents();
    }
    ScenarioEditor* editor() const { return window.planPage()->editor(); }
};

} // namespace

TEST_CASE("Method, optimizer, offload and expert fields show a scenario and write it back",
          "[gui][plan][editor]") {
    LoadedWindow w(kLoraMoe, "moe.json");
    AppContext& context = w.context;
    PlanPage* plan = w.window.planPage();
    ScenarioTraining* training = plan->editor()->training();
    REQUIRE(training);
    CHECK(training->methodField()->currentIndex() ==
          static_cast<int>(cp::sim::TrainingMethod::lora));
    CHECK(training->loraRankField()->value() == 32);
    CHECK(training->loraTargetsField()->currentIndex() ==
          static_cast<int>(cp::sim::LoraTargets::attention));
    CHECK(training->optimizerField()->currentIndex() ==
          static_cast<int>(cp::sim::Optimizer::adamw_8bit));
    CHECK(training->offloadOptimizerField()->currentIndex() ==
          static_cast<int>(cp::sim::OffloadTarget::cpu));
    // The routing is part of the shape; expert parallelism of the training.
    ModelShapeFields* shape = plan->editor()->shapeFields();
    CHECK(shape->expertsField()->value() == 8);
    CHECK(shape->expertsPerTokenField()->value() == 2);
    CHECK(shape->expertFfnField()->value() == 14336);
    CHECK(shape->expertFfnField()->isVisibleTo(plan->editor()));
    CHECK(training->epField()->value() == 4);

    const cp::sim::Scenario back = plan->editor()->scenario();
    const cp::sim::Scenario parsed =
        cp::sim::parse_scenario(cp::sim::scenario_to_json(back), "editor.json");
    CHECK(parsed.workload.finetune.method == cp::sim::TrainingMethod::lora);
    CHECK(parsed.workload.finetune.lora.rank == 32);
    CHECK(parsed.training.optimizer == cp::sim::Optimizer::adamw_8bit);
    CHECK(parsed.parallel.offload.optimizer == cp::sim::OffloadTarget::cpu);
    CHECK(parsed.workload.shape.moe.experts == 8);
    CHECK(parsed.parallel.ep == 4);

    // Edits reach the scenario the page evaluates; a dense model drops the expert layout.
    const int updates = plan->updateCount();
    training->methodField()->setCurrentIndex(static_cast<int>(cp::sim::TrainingMethod::qlora));
    REQUIRE(test::wait_until([&] { return plan->updateCount() > updates; }));
    CHECK(context.scenario().workload.finetune.method == cp::sim::TrainingMethod::qlora);
    shape->expertsField()->setValue(shape->expertsField()->minimum());
    REQUIRE(test::wait_until([&] { return !context.scenario().workload.shape.moe.enabled(); }));
    CHECK_FALSE(context.scenario().parallel.ep.has_value());
    CHECK_FALSE(training->epField()->isEnabled());
    // A dense model shows no routing.
    CHECK_FALSE(shape->expertFfnField()->isVisibleTo(plan->editor()));
    // Routing again: a dense model becomes a Mixture of Experts with its own MLP width per expert.
    shape->expertsField()->setValue(4);
    REQUIRE(test::wait_until([&] { return context.scenario().workload.shape.moe.enabled(); }));
    CHECK(context.scenario().workload.shape.moe.experts == 4);
    CHECK(training->epField()->isEnabled());
}

TEST_CASE("Head width and tied embeddings show a preset's shape and write it back",
          "[gui][plan][editor]") {
    const LoadedWindow w(
        R"({"schema": "clusterplan.scenario/1", "model": {"preset": "qwen3-30b-a3b"},
            "cluster": {"instance": "p5.48xlarge", "nodes": 1}, "precision": "bf16",
            "training": {"tokens": 1e9}})",
        "qwen.json");
    ScenarioEditor* editor = w.editor();
    CHECK(editor->headDimField()->value() == 128);
    CHECK_FALSE(editor->tiedEmbeddingsField()->isChecked());
    cp::sim::Scenario back = editor->scenario();
    CHECK(back.workload.shape.head_dim == 128);
    CHECK_FALSE(back.workload.shape.tied_embeddings);

    // Editing them reaches the scenario (auto head width = hidden / heads).
    editor->headDimField()->setValue(0);
    editor->tiedEmbeddingsField()->setChecked(true);
    back = cp::sim::parse_scenario(cp::sim::scenario_to_json(editor->scenario()), "edited.json");
    CHECK(back.workload.shape.head_dim == 0);
    CHECK(back.workload.shape.tied_embeddings);
    CHECK(back.workload.shape.attention_head_dim() == 2048.0 / 32);
}

TEST_CASE("Split activation checkpoints survive the editor only on the layout that states them",
          "[gui][plan][editor]") {
    const LoadedWindow w(
        R"({"model": {"preset": "gpt3-175b"}, "cluster": {"instance": "p4de.24xlarge",
            "nodes": 124}, "parallel": {"tp": 8, "pp": 1, "dp": 124, "micro_batch": 8,
            "global_batch": 992, "zero": 2, "recompute": "full", "sequence_parallel": false,
            "distribute_saved_activations": true}, "training": {"tokens": 1e9}})",
        "opt.json");
    ScenarioEditor* editor = w.editor();
    // Manual layout, full recompute, no sequence parallelism: kept and written back.
    const cp::sim::Scenario kept = editor->scenario();
    CHECK(kept.parallel.distribute_saved_activations);
    CHECK(cp::sim::parse_scenario(cp::sim::scenario_to_json(kept), "back.json")
              .parallel.distribute_saved_activations);
    // Searching the layout (recompute and sequence parallelism included) drops them.
    editor->layoutModeField()->setCurrentIndex(0);
    QCoreApplication::processEvents();
    CHECK_FALSE(editor->scenario().parallel.distribute_saved_activations);
}

TEST_CASE("Real-valued fields give back the file's values unrounded", "[gui][plan][editor]") {
    // Values finer than any fixed number of decimals: a rounded field would rewrite them on save.
    const LoadedWindow w(
        R"({"schema": "clusterplan.scenario/1", "model": {"preset": "mixtral-8x7b",
            "capacity_factor": 1.234},
            "cluster": {"instance": "p5.48xlarge", "nodes": 2}, "precision": "bf16",
            "training": {"tokens": 1.23456e9},
            "spot": {"checkpoint_write_s": 12.5, "restart_s": 90.25},
            "constraints": {"deadline_hours": 12.25, "budget_usd": 1234.56}})",
        "fine.json");
    const cp::sim::Scenario back =
        cp::sim::parse_scenario(cp::sim::scenario_to_json(w.editor()->scenario()), "back.json");
    CHECK(back.workload.shape.moe.capacity_factor == 1.234);
    CHECK(back.training.tokens == 1.23456e9);
    CHECK(back.spot.checkpoint_write_s == 12.5);
    CHECK(back.spot.restart_s == 90.25);
    CHECK(back.constraints.deadline_hours == 12.25);
    CHECK(back.constraints.budget_usd == 1234.56);
}
