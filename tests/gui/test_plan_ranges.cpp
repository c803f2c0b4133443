// Prediction intervals in the GUI: Plan page cards show the range under the number and an
// "unvalidated" badge where no measured run supports the plan; the Probes page imports a job log
// and shows measured against predicted step time.
#include "app_context.h"
#include "gui_test_support.h"
#include "main_window.h"
#include "pages/job_log_panel.h"
#include "pages/plan_page.h"
#include "pages/probes_page.h"

#include <catch2/catch.hpp>

using namespace cp::gui;

namespace {

QString data_file(const char* relative) {
    return QStringLiteral(CLUSTERPLAN_TEST_DATA_DIR "/") + QLatin1String(relative);
}

} // namespace

TEST_CASE("Plan cards show their range, and the badge where no measured run supports the plan",
          "[gui][plan][interval]") {
    test::TempDataDir data;
    AppContext context;
    REQUIRE(context.openScenario(data_file("scenarios/gpt3_175b_p4d_megatron.json")).isEmpty());
    MainWindow window(context);
    PlanPage* plan = window.planPage();
    plan->flushPendingUpdate();
    REQUIRE(plan->outcome().error.isEmpty());
    CHECK(plan->outcome().interval.validated);
    for (const char* key : {"step_time", "throughput", "time_to_train", "cost_on_demand"}) {
        INFO(key);
        CHECK(plan->figures().range(key).contains(QStringLiteral("80 % of comparable runs")));
        CHECK_FALSE(plan->figures().unvalidated(key));
    }
    CHECK(plan->figures().range("mfu").isEmpty());

    REQUIRE(context.openScenario(data_file("scenarios/llama2_7b_p6_b200.json")).isEmpty());
    plan->flushPendingUpdate();
    REQUIRE(plan->outcome().error.isEmpty());
    CHECK_FALSE(plan->outcome().interval.validated);
    CHECK(plan->figures().unvalidated("step_time"));
    CHECK(plan->figures().range("step_time").contains(QStringLiteral("worst error seen")));
    CHECK(plan->verdictText().contains(QStringLiteral("no measured run supports this estimate")));
}

TEST_CASE("The Probes page imports a job log and shows measured against predicted",
          "[gui][probes][interval]") {
    test::TempDataDir data;
    AppContext context;
    REQUIRE(context.openScenario(data_file("job_logs/gpt3_1p3b_p4d.json")).isEmpty());
    MainWindow window(context);
    JobLogPanel* panel = window.probesPage()->jobLogPanel();
    const QString bad = panel->importLog(data_file("job_logs/no_steps.log"));
    CHECK(bad.contains(QStringLiteral("no step timing found")));
    CHECK(window.probesPage()->profileNames().isEmpty()); // nothing stored

    REQUIRE(panel->importLog(data_file("job_logs/megatron_gpt3_1p3b_p4d.log")).isEmpty());
    CHECK(
        window.probesPage()->profileNames().contains(QStringLiteral("job-megatron_gpt3_1p3b_p4d")));
    const QString text = panel->comparisonText();
    CHECK(text.contains(QStringLiteral("Measured (median of 36 steps)")));
    CHECK(text.contains(QStringLiteral("Predicted calibrated")));
    CHECK(text.contains(QStringLiteral("compute efficiency factor")));
    // The scenario now names the profile, and the Plan page shows the calibrated plan.
    CHECK(context.scenario().calibration == "job-megatron_gpt3_1p3b_p4d");
    PlanPage* plan = window.planPage();
    plan->flushPendingUpdate();
    CHECK(plan->outcome().result.calibration_used.job);
    CHECK(plan->figures().range("step_time").contains(QStringLiteral("your job log")));
}
