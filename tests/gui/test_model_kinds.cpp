// Plan page and recommendations for both model kinds: transformers count tokens, generic models
// (ResNet-50) count samples; the attention-kernel field edits model.flash_attention live and
// survives save/open.
#include "app_context.h"
#include "clusterplan/sim/scenario.h"
#include "format.h"
#include "gui_test_support.h"
#include "main_window.h"
#include "models/recommendation_model.h"
#include "pages/plan_page.h"
#include "pages/scenario_editor.h"
#include "tolerance.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QSpinBox>
#include <catch2/catch.hpp>

using namespace cp::gui;

namespace {
cp::sim::Scenario resnet_on_p4d() {
    return cp::sim::parse_scenario(
        R"({"schema": "clusterplan.scenario/1", "model": {"preset": "resnet50"},
            "cluster": {"instance": "p4d.24xlarge", "nodes": 2}, "parallel": {"global_batch": 1024},
            "precision": "fp16", "training": {"epochs": 90, "dataset_samples": 1281167}})",
        "resnet.json");
}
} // namespace

TEST_CASE_METHOD(test::Workbench,
                 "Throughput reads tok/s for a transformer and samples/s for a generic model",
                 "[gui][plan]") {
    PlanPage* plan = window.planPage();
    REQUIRE(plan->outcome().error.isEmpty());
    CHECK(plan->figures().value("throughput").endsWith(QStringLiteral("tok/s")));
    CHECK_FALSE(plan->editor()->attentionKernelField()->isHidden());

    int updates = plan->updateCount();
    context.setScenario(resnet_on_p4d());
    REQUIRE(test::wait_until([&] { return plan->updateCount() > updates; }));
    REQUIRE(plan->outcome().error.isEmpty());
    INFO(plan->figures().value("throughput").toStdString());
    CHECK(plan->figures().value("throughput").endsWith(QStringLiteral("samples/s")));
    CHECK_FALSE(plan->figures().value("throughput").contains(QStringLiteral("tok")));
    CHECK(plan->figures().detail("throughput").contains(QStringLiteral("per device")));
    ScenarioEditor* editor = plan->editor();
    CHECK(editor->presetField()->currentData().toString() == QStringLiteral("resnet50"));
    CHECK(editor->attentionKernelField()->isHidden()); // a CNN has no attention

    // An edit keeps the generic model (not a made-up transformer) and its training size as epochs.
    const double samples_per_s = plan->outcome().result.samples_per_s;
    updates = plan->updateCount();
    editor->nodesField()->setValue(4);
    REQUIRE(test::wait_until([&] { return plan->updateCount() > updates; }));
    const cp::sim::Scenario& edited = context.scenario();
    CHECK(edited.workload.kind == cp::sim::WorkloadKind::generic);
    CHECK(edited.training.epochs == 90);
    CHECK(edited.training.tokens == 0);
    CHECK(plan->outcome().workload_kind == cp::sim::WorkloadKind::generic);
    CHECK(plan->outcome().result.samples_per_s > samples_per_s * 1.5);
    CHECK(plan->figures().value("throughput").endsWith(QStringLiteral("samples/s")));
    // What the editor wrote is a valid scenario file.
    const QString path = QDir(data.path()).filePath("resnet.json");
    REQUIRE(context.saveScenario(path).isEmpty());
    AppContext other;
    REQUIRE(other.openScenario(path).isEmpty());
    CHECK(other.scenario().preset == "resnet50");
    CHECK(other.scenario().nodes.value_or(0) == 4);
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE_METHOD(test::Workbench,
                 "The attention-kernel field changes the plan and survives save and open",
                 "[gui][plan]") {
    PlanPage* plan = window.planPage();
    REQUIRE(plan->outcome().error.isEmpty());
    // Entries: unfused, FlashAttention-1 generation, FlashAttention-2.
    QComboBox* kernel = plan->editor()->attentionKernelField();
    REQUIRE(kernel->count() == 3);
    const QString preset = plan->editor()->presetField()->currentData().toString();
    // Modern presets default to the framework's fused attention; start from it off.
    if (kernel->currentIndex() != 0) {
        const int before = plan->updateCount();
        kernel->setCurrentIndex(0);
        REQUIRE(test::wait_until([&] { return plan->updateCount() > before; }));
    }
    REQUIRE_FALSE(context.scenario().workload.shape.flash_attention);
    CHECK(kernel->toolTip().contains(QStringLiteral("Megatron")));
    // How the model runs, not what it is: the preset stays.
    CHECK(plan->editor()->presetField()->currentData().toString() == preset);
    const double activations_gib = plan->outcome().result.memory_gib.activations;
    const cp::sim::Layout layout = plan->outcome().layout;
    const double step_s = plan->outcome().result.step_time_s;

    // Compare at a fixed layout: the search may otherwise spend the saved memory differently.
    plan->editor()->layoutModeField()->setCurrentIndex(1);
    REQUIRE(test::wait_until([&] { return context.scenario().parallel.tp.has_value(); }));
    int updates = plan->updateCount();
    kernel->setCurrentIndex(2);
    REQUIRE(test::wait_until([&] { return plan->updateCount() > updates; }));
    CHECK(context.scenario().workload.shape.flash_attention);
    CHECK_FALSE(context.scenario().workload.shape.flash_attention_v1);
    REQUIRE(plan->outcome().layout.micro_batch == layout.micro_batch);
    // The searched layout recomputes attention selectively, so the s² scores were not stored
    // anyway; the fused kernels change the step time.
    CHECK(plan->outcome().result.memory_gib.activations <= activations_gib);
    CHECK(cp::test::rel_error(plan->outcome().result.step_time_s, step_s) > 1e-6);
    // The FlashAttention-1 generation runs at about half FlashAttention-2's rate.
    const double flash2_step_s = plan->outcome().result.step_time_s;
    updates = plan->updateCount();
    kernel->setCurrentIndex(1);
    REQUIRE(test::wait_until([&] { return plan->updateCount() > updates; }));
    CHECK(context.scenario().workload.shape.flash_attention_v1);
    CHECK(plan->outcome().result.step_time_s > flash2_step_s);
    kernel->setCurrentIndex(2);
    REQUIRE(
        test::wait_until([&] { return !context.scenario().workload.shape.flash_attention_v1; }));

    const QString path = QDir(data.path()).filePath("flash.json");
    REQUIRE(context.saveScenario(path).isEmpty());
    AppContext other;
    REQUIRE(other.openScenario(path).isEmpty());
    CHECK(other.scenario().workload.shape.flash_attention);
    MainWindow reopened(other);
    CHECK(reopened.planPage()->editor()->attentionKernelField()->currentIndex() == 2);
    // Another preset keeps the setting: it is the user's choice, not the model's.
    QComboBox* presets = reopened.planPage()->editor()->presetField();
    const int llama = presets->findData(QStringLiteral("llama2-7b"));
    REQUIRE(llama >= 0);
    presets->setCurrentIndex(llama);
    CHECK(other.scenario().workload.shape.flash_attention);
    CHECK(reopened.planPage()->editor()->attentionKernelField()->currentIndex() == 2);
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE("Recommendations name their throughput unit by model kind", "[gui][scaling]") {
    auto data = std::make_shared<ScalingData>();
    SweepPlan p;
    p.instance = QStringLiteral("p4d.24xlarge");
    p.nodes = 1;
    p.devices = 8;
    p.tokens_per_s = 12345;
    data->ranked.push_back(p);
    RecommendationModel model;
    test::ModelGuard guard(&model);
    model.setData(data);
    const int col = RecommendationModel::Throughput;
    CHECK(model.headerData(col, Qt::Horizontal).toString() == QStringLiteral("Tokens/s"));
    CHECK(model.index(0, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("tok/s")));
    model.setData(data, cp::sim::WorkloadKind::generic);
    CHECK(model.headerData(col, Qt::Horizontal).toString() == QStringLiteral("Samples/s"));
    CHECK(model.headerData(col, Qt::Horizontal, Qt::ToolTipRole)
              .toString()
              .contains(QStringLiteral("samples")));
    CHECK(model.index(0, col).data().toString() == fmt_count(12345));
    CHECK(model.index(0, 0).data(Qt::ToolTipRole).toString().contains(QStringLiteral("samples/s")));
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE("Expected interruptions read as words", "[gui][format]") {
    CHECK(fmt_interruptions(0.0) == QStringLiteral("no interruption expected"));
    CHECK(fmt_interruptions(1.01) == QStringLiteral("about 1 interruption expected"));
    CHECK(fmt_interruptions(2.44) == QStringLiteral("about 2.4 interruptions expected"));
    CHECK(fmt_interruptions(12.4) == QStringLiteral("about 12 interruptions expected"));
    CHECK(fmt_throughput(2e6, 1000, cp::sim::WorkloadKind::transformer) ==
          fmt_count(2e6) + QStringLiteral(" tok/s"));
    CHECK(fmt_throughput(1000, 1000, cp::sim::WorkloadKind::generic) ==
          fmt_count(1000) + QStringLiteral(" samples/s"));
}
