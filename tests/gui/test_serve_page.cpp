// Serve page: the question runs through the service off the UI thread, ranks the chosen
// instances by cost among those meeting the SLO, marks KV-bound choices, draws the curves with
// the SLO line, and refuses bad input with the service's sentence, keeping the last answer.
#include "app_context.h"
#include "chart_view.h"
#include "gui_test_support.h"
#include "main_window.h"
#include "models/serving_result_model.h"
#include "pages/serve_page.h"
#include "pages/serving_form.h"

#include <QChart>
#include <QCheckBox>
#include <QComboBox>
#include <QLineEdit>
#include <QSignalSpy>
#include <QSpinBox>
#include <catch2/catch.hpp>
#include <cmath>

using namespace cp::gui;

namespace {

QString cell(const ServingResultModel* model, int row, int column) {
    return model->data(model->index(row, column)).toString();
}

} // namespace

TEST_CASE_METHOD(test::Workbench, "Serve page ranks instances for Llama 3 8B at 10 requests/s",
                 "[gui][serve]") {
    window.show();
    ServePage* page = window.servePage();
    cp::service::ServingQuestion q; // the chat question: 512 in, 256 out, 10/s, 500 ms, 50 ms
    q.preset = "llama3-8b";
    q.instances = {"g6", "g4dn.xlarge", "p4d", "p5.48xlarge", "inf2.xlarge"};
    page->form()->setQuestion(q);
    REQUIRE(test::run_study(page));
    REQUIRE(page->errorText().isEmpty());
    const ServingResultModel* model = page->results();
    guard.rescan();
    REQUIRE(model->rowCount() >= 5);
    CHECK(model->generation());
    QStringList instances;
    double previous = 0;
    bool any_kv_bound = false;
    for (int r = 0; r < model->rowCount(); ++r) {
        const cp::sim::ServingPlan* p = model->planAt(r);
        REQUIRE(p != nullptr);
        instances << QString::fromStdString(p->instance);
        CHECK(p->valid);
        if (!p->meets_slo) continue;
        CHECK(p->ttft_ms <= 500.0);
        CHECK(p->tpot_ms <= 50.0);
        // Meeting the SLO, cheapest per million output tokens first.
        CHECK(p->usd_per_million_output_tokens >= previous);
        previous = p->usd_per_million_output_tokens;
        CHECK(cell(model, r, ServingResultModel::Slo) == QStringLiteral("met"));
        CHECK(cell(model, r, ServingResultModel::Rank) == QString::number(r + 1));
        const bool kv = cell(model, r, ServingResultModel::KvBound) == QStringLiteral("KV-bound");
        CHECK(kv == p->limits.kv_bound);
        any_kv_bound = any_kv_bound || kv;
        // At a request rate the tooltip gives the latency over the capacity's range.
        CHECK(p->load_range.known);
        CHECK(model->data(model->index(r, 0), Qt::ToolTipRole)
                  .toString()
                  .contains(QStringLiteral("Over the capacity's range")));
    }
    CHECK(any_kv_bound);
    for (const char* expected :
         {"g6.xlarge", "g4dn.xlarge", "p4d.24xlarge", "p5.48xlarge", "inf2.xlarge"})
        CHECK(instances.contains(QString::fromLatin1(expected)));
    // "g6" is a family: it names g6.* and never g6e.*.
    CHECK_FALSE(instances.filter(QStringLiteral("g6e.")).size() > 0);
    // The curve chart: one line per distinct replica plus the SLO line at 500 ms.
    QChart* curve = page->curveView()->chart();
    REQUIRE(curve != nullptr);
    CHECK(curve->series().size() >= 3);
    CHECK(model->headerData(ServingResultModel::Ttft, Qt::Horizontal).toString() ==
          QStringLiteral("TTFT"));
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE("Serve page refuses an unknown instance and keeps its last answer", "[gui][serve]") {
    test::TempDataDir data;
    AppContext context;
    ServePage page(context);
    cp::service::ServingQuestion q;
    q.instances = {"g6.xlarge", "inf2.xlarge"};
    page.form()->setQuestion(q);
    REQUIRE(test::run_study(&page));
    REQUIRE(page.results()->rowCount() == 2);
    q.instances = {"g6.xlarge", "zz9"};
    page.form()->setQuestion(q);
    REQUIRE(test::run_study(&page));
    CHECK(page.errorText().contains(QStringLiteral("constraints.instances")));
    CHECK(page.errorText().contains(QStringLiteral("zz9")));
    CHECK(page.results()->rowCount() == 2);
}

TEST_CASE("Serve page plans an encoder by batch latency and samples", "[gui][serve]") {
    test::TempDataDir data;
    AppContext context;
    ServePage page(context);
    cp::service::ServingQuestion q;
    q.preset = "bert-large";
    q.output_tokens = 0;
    q.tpot_ms = 0;
    q.ttft_ms = 10;
    q.batch = 1;
    q.request_rate_per_s = 200;
    q.instances = {"inf2.xlarge", "g5.xlarge", "g4dn.xlarge"};
    page.form()->setQuestion(q);
    // An encoder generates nothing: its output field is fixed at zero.
    auto* output = page.form()->findChild<QSpinBox*>(QStringLiteral("output_tokens"));
    REQUIRE(output != nullptr);
    CHECK_FALSE(output->isEnabled());
    CHECK(page.form()->question().output_tokens == 0);
    REQUIRE(test::run_study(&page));
    REQUIRE(page.errorText().isEmpty());
    const ServingResultModel* model = page.results();
    REQUIRE(model->rowCount() >= 2);
    CHECK_FALSE(model->generation());
    CHECK(model->headerData(ServingResultModel::Ttft, Qt::Horizontal).toString() ==
          QStringLiteral("Latency"));
    for (int r = 0; r < model->rowCount(); ++r) {
        CHECK(model->planAt(r)->batch == 1);
        CHECK(std::isfinite(model->planAt(r)->latency_ms));
    }
}

TEST_CASE_METHOD(test::Workbench, "Opening a serving scenario fills the Serve page",
                 "[gui][serve]") {
    const QString path = QStringLiteral(CLUSTERPLAN_SOURCE_DIR) +
                         QStringLiteral("/resources/scenarios/serve-llama3-70b-h100-fp8.json");
    REQUIRE(context.openScenario(path).isEmpty());
    const cp::service::ServingQuestion q = window.servePage()->form()->question();
    CHECK(q.preset == "llama3-70b");
    CHECK(q.weights == "fp8");
    CHECK(q.kv_cache == "fp8");
    CHECK(q.tp == 1);
    CHECK(q.output_tokens == 2048);
    REQUIRE(q.instances.size() == 1);
    CHECK(q.instances.front() == "p5.48xlarge");
}

TEST_CASE_METHOD(test::Workbench,
                 "The Serve page keeps a scenario's engine build and decode kernel",
                 "[gui][serve]") {
    ServePage* page = window.servePage();
    test::open_scenario_text(context,
                             R"({"schema": "clusterplan.scenario/1", "name": "built engine",
        "model": {"preset": "llama3-8b"}, "cluster": {"region": "us-east-1",
        "instance": "g6.xlarge"}, "serving": {"pp": 2, "replicas": 3,
        "engine_max_batch": 256, "gqa_shared_kv_reads": false, "async_scheduling": true,
        "on_device_sampling": false, "request_rate_per_s": 5}})");
    auto* max_batch = page->form()->findChild<QSpinBox*>(QStringLiteral("engine_max_batch"));
    REQUIRE(max_batch != nullptr);
    CHECK(max_batch->value() == 256);
    auto* gqa = page->form()->findChild<QCheckBox*>(QStringLiteral("gqa_shared_kv_reads"));
    REQUIRE(gqa != nullptr);
    CHECK_FALSE(gqa->isChecked());
    auto* async = page->form()->findChild<QCheckBox*>(QStringLiteral("async_scheduling"));
    REQUIRE(async != nullptr);
    CHECK(async->isChecked());
    auto* sampling = page->form()->findChild<QCheckBox*>(QStringLiteral("on_device_sampling"));
    REQUIRE(sampling != nullptr);
    CHECK_FALSE(sampling->isChecked());
    const cp::service::ServingQuestion q = page->form()->question();
    CHECK(q.async_scheduling);
    CHECK_FALSE(q.on_device_sampling);
    CHECK(q.engine_max_batch == 256);
    CHECK_FALSE(q.gqa_shared_kv_reads);
    CHECK(q.pp == 2);
    CHECK(q.replicas == 3);
    REQUIRE(test::run_study(page));
    REQUIRE(page->errorText().isEmpty());
    const cp::sim::ServingSpec& spec = *page->study()->scenario.serving;
    CHECK(spec.engine_max_batch == 256);
    CHECK_FALSE(spec.gqa_shared_kv_reads);
    CHECK(spec.async_scheduling);
    CHECK_FALSE(spec.on_device_sampling);
    CHECK(spec.pp == 2);
    CHECK(spec.replicas == 3);
}

TEST_CASE_METHOD(test::Workbench, "The Serve page plans and keeps a model its scenario file shapes",
                 "[gui][serve]") {
    ServePage* page = window.servePage();
    test::open_scenario_text(context, R"({"schema": "clusterplan.scenario/1", "name": "own model",
        "model": {"layers": 40, "hidden": 5120, "heads": 40, "kv_heads": 8, "ffn_hidden": 17408,
        "gated_mlp": true, "vocab": 151936, "seq_len": 4096},
        "cluster": {"region": "us-east-1", "instance": "p5.48xlarge"},
        "serving": {"request_rate_per_s": 5}})");
    auto* model = page->form()->findChild<QComboBox*>(QStringLiteral("model"));
    REQUIRE(model != nullptr);
    CHECK(model->currentText() == QStringLiteral("The scenario's own model"));
    REQUIRE(test::run_study(page));
    REQUIRE(page->errorText().isEmpty());
    CHECK(page->study()->scenario.workload.shape.layers == 40);
    CHECK(page->study()->scenario.workload.shape.vocab == 151936);
    // Choosing a preset replaces it; the scenario's model stays offered.
    model->setCurrentIndex(model->findData(QStringLiteral("llama3-8b")));
    CHECK(page->form()->question().model_json.empty());
    CHECK(page->form()->question().preset == "llama3-8b");
}
