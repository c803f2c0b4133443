// The Plan page's training framework, torch.compile and context-parallel fields: a scenario that
// names them shows them, an edit is read back by the scenario parser with the rest of the scenario
// before the scenario takes it (a framework without context parallelism, or a degree that does not
// split the sequence, is named in the box's message and nothing changes), and what the editor
// writes opens as the same scenario.
#include "app_context.h"
#include "clusterplan/sim/framework.h"
#include "gui_test_support.h"
#include "main_window.h"
#include "pages/plan_page.h"
#include "pages/scenario_editor.h"
#include "pages/scenario_training.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QSpinBox>
#include <catch2/catch.hpp>

using namespace cp::gui;
using cp::sim::Framework;

namespace {

const char* kNemoCp = R"({"schema": "clusterplan.scenario/1", "name": "nemo cp",
  "model": {"preset": "llama3-8b", "seq_len": 8192},
  "cluster": {"instance": "p5.48xlarge", "nodes": 2},
  "parallel": {"global_batch": 64, "cp": 2},
  "precision": "bf16",
  "training": {"framework": "nemo", "optimizer": "adamw-8bit", "tokens": 1e9}})";

int framework_index(QComboBox* box, Framework f) {
    return box->findData(static_cast<int>(f));
}

} // namespace

TEST_CASE_METHOD(test::Workbench,
                 "The Plan page edits the framework and context parallelism through the parser",
                 "[gui][plan][editor]") {
    window.show();
    context.setScenario(cp::sim::parse_scenario(kNemoCp, "nemo.json"));
    QCoreApplication::processEvents();
    PlanPage* plan = window.planPage();
    ScenarioTraining* training = plan->editor()->training();
    QComboBox* framework = training->frameworkField();
    QSpinBox* cp = training->contextParallelField();
    // Every framework is offered, after "automatic".
    CHECK(framework->count() == cp::sim::kFrameworkCount + 1);
    CHECK(framework->currentIndex() == framework_index(framework, Framework::nemo));
    CHECK(cp->value() == 2);
    CHECK(training->message().isEmpty());

    // Megatron-LM has no context parallelism: named, and the scenario keeps NeMo.
    framework->setCurrentIndex(framework_index(framework, Framework::megatron_lm));
    INFO(training->message().toStdString());
    CHECK(training->message().contains(QStringLiteral("parallel.cp")));
    CHECK(training->message().contains(QStringLiteral("megatron-lm")));
    CHECK(context.scenario().training.framework == Framework::nemo);
    CHECK(context.scenario().parallel.cp == 2);
    // Leaving cp to the search settles it: both values are taken.
    int updates = plan->updateCount();
    cp->setValue(0);
    CHECK(training->message().isEmpty());
    CHECK(context.scenario().training.framework == Framework::megatron_lm);
    CHECK_FALSE(context.scenario().parallel.cp.has_value());
    REQUIRE(test::wait_until([&] { return plan->updateCount() > updates; }));

    // A degree that does not split the sequence into 2·cp chunks is the parser's sentence.
    framework->setCurrentIndex(framework_index(framework, Framework::megatron_core));
    cp->setValue(3);
    CHECK(training->message().contains(QStringLiteral("parallel.cp")));
    CHECK(training->message().contains(QStringLiteral("8192")));
    CHECK_FALSE(context.scenario().parallel.cp.has_value());
    updates = plan->updateCount();
    cp->setValue(4);
    CHECK(training->message().isEmpty());
    CHECK(context.scenario().parallel.cp == 4);
    CHECK(context.scenario().training.framework == Framework::megatron_core);
    REQUIRE(test::wait_until([&] { return plan->updateCount() > updates; }));
    REQUIRE(plan->outcome().error.isEmpty());
    CHECK(plan->outcome().layout.cp == 4);
    // The layout card accounts for every device: CP is named beside TP×PP×DP.
    CHECK(plan->figures().detail("layout").contains(QStringLiteral("CP 4")));

    // Eager pointwise kernels are modelled for PyTorch FSDP only: named under Megatron-Core.
    QCheckBox* compiled = training->torchCompileField();
    CHECK(compiled->isChecked());
    compiled->setChecked(false);
    CHECK(training->message().contains(QStringLiteral("training.torch_compile")));
    CHECK_FALSE(context.scenario().training.torch_compile.has_value());
    // Under FSDP both are taken, and the eager kernels slow the step.
    const double fused_step_s = plan->outcome().result.step_time_s;
    updates = plan->updateCount();
    framework->setCurrentIndex(framework_index(framework, Framework::pytorch_fsdp));
    CHECK(training->message().isEmpty());
    CHECK(context.scenario().training.torch_compile == false);
    CHECK(context.scenario().workload.shape.eager_elementwise);
    REQUIRE(test::wait_until([&] { return plan->updateCount() > updates; }));
    REQUIRE(plan->outcome().error.isEmpty());
    const double eager_step_s = plan->outcome().result.step_time_s;
    compiled->setChecked(true);
    CHECK_FALSE(context.scenario().training.torch_compile.has_value());
    CHECK_FALSE(context.scenario().workload.shape.eager_elementwise);
    updates = plan->updateCount();
    REQUIRE(test::wait_until([&] { return plan->updateCount() > updates; }));
    CHECK(eager_step_s > plan->outcome().result.step_time_s);
    CHECK(fused_step_s > 0);
    compiled->setChecked(false);
    framework->setCurrentIndex(framework_index(framework, Framework::megatron_core));
    CHECK(training->message().contains(QStringLiteral("training.torch_compile")));
    compiled->setChecked(true);
    CHECK(training->message().isEmpty());
    CHECK(context.scenario().training.framework == Framework::megatron_core);

    // Saved and opened: the edits and every other field of the file.
    const QString path = QDir(data.path()).filePath("framework.json");
    REQUIRE(context.saveScenario(path).isEmpty());
    AppContext other;
    REQUIRE(other.openScenario(path).isEmpty());
    const cp::sim::Scenario& back = other.scenario();
    CHECK(back.training.framework == Framework::megatron_core);
    CHECK(back.parallel.cp == 4);
    CHECK(back.training.optimizer == cp::sim::Optimizer::adamw_8bit);
    CHECK(back.workload.shape.seq_len == 8192);
    CHECK(back.parallel.global_batch == 64);
    CHECK(back.nodes == 2);
    MainWindow reopened(other);
    ScenarioTraining* shown = reopened.planPage()->editor()->training();
    CHECK(shown->frameworkField()->currentIndex() ==
          framework_index(shown->frameworkField(), Framework::megatron_core));
    CHECK(shown->contextParallelField()->value() == 4);
    CHECK(test::ModelGuard::violations() == 0);
}
