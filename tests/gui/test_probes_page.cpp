// Probes page: importing nccl-tests output fills the results model and charts; a malformed
// log is reported and changes nothing; a calibration profile can be created and selected.
#include "app_context.h"
#include "chart_view.h"
#include "gui_test_support.h"
#include "main_window.h"
#include "models/probe_result_model.h"
#include "pages/plan_page.h"
#include "pages/probes_page.h"

#include <QAbstractBarSeries>
#include <QBarSet>
#include <QChart>
#include <QComboBox>
#include <QSignalSpy>
#include <catch2/catch.hpp>

using namespace cp::gui;

namespace {
QString calibration_data(const char* name) {
    return QStringLiteral(CLUSTERPLAN_TEST_DATA_DIR "/calibration/") + QLatin1String(name);
}
} // namespace

TEST_CASE_METHOD(test::Workbench,
                 "Importing nccl-tests output shows its rows, bad logs are reported",
                 "[gui][probes]") {
    ProbesPage* page = window.probesPage();
    REQUIRE(page->results()->rowCount() == 0);

    QSignalSpy finished(page, &ProbesPage::importFinished);
    page->importFile(calibration_data("nccl_tests_allreduce_a100x8.txt"));
    REQUIRE(finished.wait(30000));
    CHECK(finished.takeFirst().first().toBool());
    const int rows = page->results()->rowCount();
    CHECK(rows > 10);
    CHECK(
        page->results()->data(page->results()->index(0, ProbeResultModel::Collective)).toString() ==
        "all_reduce");

    page->importFile(calibration_data("malformed_truncated_row.txt"));
    REQUIRE(finished.wait(30000));
    CHECK_FALSE(finished.takeFirst().first().toBool());
    CHECK(page->statusText().contains("malformed_truncated_row.txt"));
    CHECK(page->results()->rowCount() == rows);

    // A profile fitted from the imported table is stored and offered for planning.
    CHECK(page->createProfile(QString(), "p4d.24xlarge").contains("name"));
    REQUIRE(page->createProfile("p4d-test", "p4d.24xlarge").isEmpty());
    CHECK(page->profileNames().contains("p4d-test"));
    CHECK_FALSE(page->createProfile("p4d-test", "p4d.24xlarge").isEmpty()); // names are unique

    // The Plan page evaluates with the chosen profile, and names a missing one.
    PlanPage* plan = window.planPage();
    cp::sim::Scenario sc = context.scenario();
    sc.calibration = "p4d-test";
    int updates = plan->updateCount();
    context.setScenario(sc);
    REQUIRE(test::wait_until([&] { return plan->updateCount() > updates; }));
    INFO(plan->outcome().error.toStdString());
    CHECK(plan->outcome().error.isEmpty());
    CHECK(plan->outcome().result.valid());
    sc.calibration = "no-such-profile";
    updates = plan->updateCount();
    context.setScenario(sc);
    REQUIRE(test::wait_until([&] { return plan->updateCount() > updates; }));
    CHECK(plan->outcome().error.contains("no-such-profile"));
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE_METHOD(test::Workbench, "A probe JSON document brings GEMM results", "[gui][probes]") {
    ProbesPage* page = window.probesPage();
    QSignalSpy finished(page, &ProbesPage::importFinished);
    page->importFile(calibration_data("probe_a100x8_example.json"));
    REQUIRE(finished.wait(30000));
    CHECK(finished.first().first().toBool());
    CHECK(page->results()->rowCount() > 0);
    // The GEMM chart shows bars and says which file and host they come from.
    QChart* gemm = page->gemmView()->chart();
    REQUIRE(gemm);
    CHECK(gemm->title().contains(QStringLiteral("probe_a100x8_example.json")));
    CHECK(gemm->title().contains(QStringLiteral("dgx-a100-01")));
    int bars = 0;
    for (QAbstractSeries* s : gemm->series()) {
        if (auto* b = qobject_cast<QAbstractBarSeries*>(s)) bars += int(b->barSets().size());
    }
    CHECK(bars == 2);
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE_METHOD(test::Workbench,
                 "A probe document is compared with the peaks of the GPU it measured",
                 "[gui][probes]") {
    ProbesPage* page = window.probesPage();
    QSignalSpy finished(page, &ProbesPage::importFinished);
    // One H200 in a VM that names no instance type; the page starts on another instance.
    page->importFile(calibration_data("probe_h200_2026-11-27_run2.json"));
    REQUIRE(finished.wait(30000));
    CHECK(finished.first().first().toBool());
    QComboBox* instance = page->profileInstance();
    CHECK(instance->currentText().startsWith(QStringLiteral("p5e")));
    QChart* gemm = page->gemmView()->chart();
    REQUIRE(gemm);
    double highest_peak = 0;
    for (QAbstractSeries* s : gemm->series())
        if (auto* b = qobject_cast<QAbstractBarSeries*>(s))
            for (QBarSet* set : b->barSets())
                if (set->label().contains(QStringLiteral("Datasheet")))
                    for (int i = 0; i < set->count(); ++i)
                        highest_peak = std::max(highest_peak, set->at(i));
    CHECK(highest_peak == Approx(1978.9)); // the H200's dense FP8 peak, not an A100's
    // One GPU has no collective to measure: the chart says so and names the bandwidths the
    // document holds (its largest copy array, 4 GiB, and the PCIe transfers).
    const QString said = page->busbwView()->emptyText();
    CHECK(said.contains(QStringLiteral("measured one GPU")));
    CHECK(said.contains(QStringLiteral("two or more ranks")));
    CHECK(said.contains(QStringLiteral("Device copy: 4,241 GB/s (4 GiB)")));
    CHECK(said.contains(QStringLiteral("Host to device (PCIe): 55 GB/s (256 MiB)")));
    CHECK(test::ModelGuard::violations() == 0);
}
