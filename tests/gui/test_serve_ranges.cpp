// Ranges on the Serve page's figure cards (the Plan page's figure_card: a range under the number
// and an "unvalidated" badge), and the Probes page's measured-vs-predicted chart of a job log.
// With CLUSTERPLAN_GUI_SHOT_DIR set, both pages are saved there as PNGs to look at.
#include "app_context.h"
#include "chart_view.h"
#include "gui_test_support.h"
#include "main_window.h"
#include "pages/job_log_panel.h"
#include "pages/probes_page.h"
#include "pages/serve_page.h"
#include "pages/serving_form.h"

#include <QAbstractSeries>
#include <QChart>
#include <QDir>
#include <QSignalSpy>
#include <catch2/catch.hpp>

using namespace cp::gui;

TEST_CASE_METHOD(test::Workbench,
                 "Serve page cards show each figure's range and the unvalidated badge",
                 "[gui][serve][interval]") {
    window.show();
    ServePage* page = window.servePage();
    cp::service::ServingQuestion q;
    q.preset = "llama3-8b";
    q.instances = {"p5.48xlarge"};
    page->form()->setQuestion(q);
    REQUIRE(test::run_study(page));
    REQUIRE(page->errorText().isEmpty());
    guard.rescan();
    // TensorRT-LLM on Hopper: throughput, cost, TTFT and TPOT each rest on at least two
    // sources' runs (the offline and online benchmarks, NIM).
    for (const char* key : {"throughput", "ttft", "step", "cost"}) {
        INFO(key);
        CHECK(page->figures().range(key).contains(QStringLiteral("80 % of comparable runs")));
        CHECK_FALSE(page->figures().unvalidated(key));
    }
    CHECK(page->figures().value("throughput").contains(QStringLiteral("tokens/s")));
    test::keep_shot(window, QStringLiteral("serve"), QStringLiteral("serve-ranges.png"));

    // TGI has no published runs on Hopper: every figure carries the badge.
    q.engine = "tgi";
    page->form()->setQuestion(q);
    REQUIRE(test::run_study(page));
    REQUIRE(page->errorText().isEmpty());
    for (const char* key : {"throughput", "ttft", "step", "cost"}) {
        INFO(key);
        CHECK(page->figures().unvalidated(key));
        CHECK(page->figures().range(key).contains(QStringLiteral("worst error seen")));
    }
    test::keep_shot(window, QStringLiteral("serve"), QStringLiteral("serve-unvalidated.png"));
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE("The Probes page charts a job log's steps against the prediction",
          "[gui][probes][interval]") {
    test::TempDataDir data;
    AppContext context;
    REQUIRE(
        context
            .openScenario(QStringLiteral(CLUSTERPLAN_TEST_DATA_DIR "/job_logs/gpt3_1p3b_p4d.json"))
            .isEmpty());
    MainWindow window(context);
    ProbesPage* probes = window.probesPage();
    CHECK(probes->jobStepsView()->chart()->series().isEmpty());
    REQUIRE(probes->jobLogPanel()
                ->importLog(QStringLiteral(CLUSTERPLAN_TEST_DATA_DIR
                                           "/job_logs/megatron_gpt3_1p3b_p4d.log"))
                .isEmpty());
    const cp::charts::JobStepsData& steps = probes->jobLogPanel()->steps();
    CHECK(steps.measured_s.size() == steps.steps.size());
    CHECK(steps.warmup_steps > 0);
    // The calibrated range holds the log's median step; the uncalibrated prediction is off it.
    CHECK(steps.range_low_s < steps.predicted_after_s);
    CHECK(steps.predicted_after_s < steps.range_high_s);
    CHECK((steps.predicted_before_s < steps.range_low_s ||
           steps.predicted_before_s > steps.range_high_s));
    QChart* chart = probes->jobStepsView()->chart();
    REQUIRE(chart != nullptr);
    CHECK(chart->series().size() >= 5);
    CHECK(chart->title().contains(QStringLiteral("Measured vs predicted")));
    test::keep_shot(window, QStringLiteral("probes"), QStringLiteral("probes-job-log.png"));

    // An nccl-tests import draws each collective's α–β fit beside its measurements.
    QSignalSpy finished(probes, &ProbesPage::importFinished);
    probes->importFile(
        QStringLiteral(CLUSTERPLAN_TEST_DATA_DIR "/calibration/nccl_tests_allreduce_a100x8.txt"));
    REQUIRE(finished.wait(30000));
    REQUIRE(finished.takeFirst().first().toBool());
    int fits = 0;
    for (const QAbstractSeries* s : probes->busbwView()->chart()->series())
        fits += s->name().endsWith(QStringLiteral("α–β fit")) ? 1 : 0;
    CHECK(fits >= 1);
    test::keep_shot(window, QStringLiteral("probes"), QStringLiteral("probes-measured-vs-fit.png"));
}
