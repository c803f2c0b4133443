// Serve page fields beyond the shape: the pipeline degree and replica count, and the Mixture-of-
// Experts routing in the shared shape editor. Each edit is read back by the scenario parser before
// the question takes it, so every other field of the file survives the round trip, and a value it
// refuses is named in the form's message while the question stays as it was.
#include "app_context.h"
#include "clusterplan/sim/scenario.h"
#include "gui_test_support.h"
#include "main_window.h"
#include "models/serving_result_model.h"
#include "pages/model_shape_fields.h"
#include "pages/serve_page.h"
#include "pages/serving_form.h"

#include <QComboBox>
#include <QSpinBox>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace cp::gui;
using json = nlohmann::json;

namespace {

// Mixtral with an overridden field (so the file's own model section is kept) and serving fields a
// form rounds or lists easily: an engine spelled as another profile's alias, a quantile not on
// the list, sub-unit rates and fractional limits.
const char* const kMoeServing = R"({"schema": "clusterplan.scenario/1", "name": "moe serving",
    "model": {"preset": "mixtral-8x7b", "seq_len": 8192},
    "cluster": {"region": "us-east-1", "instance": "p5.48xlarge"},
    "serving": {"engine": "sglang", "weights": "fp8", "kv_cache": "fp8", "tp": 2, "pp": 2,
                "replicas": 3, "batch": 128, "engine_max_batch": 256,
                "gqa_shared_kv_reads": false, "request_rate_per_s": 0.25,
                "input_tokens": 1024, "output_tokens": 300,
                "slo": {"ttft_ms": 250.5, "tpot_ms": 40.25, "p": 0.8}}})";

} // namespace

TEST_CASE_METHOD(test::Workbench,
                 "The Serve page edits pipeline stages and replicas and keeps every other field",
                 "[gui][serve]") {
    ServePage* page = window.servePage();
    test::open_scenario_text(context, kMoeServing);
    ServingForm* form = page->form();
    auto* pp = test::named_child<QSpinBox>(form, "pp");
    auto* replicas = test::named_child<QSpinBox>(form, "replicas");
    CHECK(pp->value() == 2);
    CHECK(replicas->value() == 3);
    const json model_before = json::parse(form->question().model_json);

    pp->setValue(4); // divides Mixtral's 32 layers
    replicas->setValue(5);
    CHECK(form->message().isEmpty());
    cp::service::ServingQuestion q = form->question();
    CHECK(q.pp == 4);
    CHECK(q.replicas == 5);
    CHECK(json::parse(q.model_json) == model_before);

    // Through the service and the scenario writer and back: the file keeps every field.
    REQUIRE(test::run_study(page));
    REQUIRE(page->errorText().isEmpty());
    // The ranked table shows the layout it planned.
    const ServingResultModel* results = page->results();
    REQUIRE(results->rowCount() == 1);
    CHECK(results->index(0, ServingResultModel::Pp).data().toInt() == 4);
    CHECK(results->index(0, ServingResultModel::Replicas).data().toInt() == 5);
    const cp::sim::Scenario back =
        cp::sim::parse_scenario(cp::sim::scenario_to_json(page->study()->scenario), "saved");
    REQUIRE(back.serving);
    const cp::sim::ServingSpec& s = *back.serving;
    CHECK(s.pp == 4);
    CHECK(s.replicas == 5);
    CHECK(s.tp == 2);
    CHECK(s.engine_as_given == "sglang");
    CHECK(s.batch == 128);
    CHECK(s.engine_max_batch == 256);
    CHECK_FALSE(s.gqa_shared_kv_reads);
    CHECK(s.request_rate_per_s == Approx(0.25));
    CHECK(s.input_tokens == 1024);
    CHECK(s.output_tokens == 300);
    CHECK(s.slo.ttft_ms == Approx(250.5));
    CHECK(s.slo.tpot_ms == Approx(40.25));
    CHECK(s.slo.p == Approx(0.8));
    CHECK(back.preset == "mixtral-8x7b");
    CHECK(back.workload.shape.seq_len == 8192);
    CHECK(back.workload.shape.moe.experts == 8);
    CHECK(back.workload.shape.moe.experts_per_token == 2);

    // A file loaded again fills the same fields (no entry of the last file is left behind).
    form->setQuestion(cp::service::serving_question(back));
    CHECK(pp->value() == 4);
    CHECK(replicas->value() == 5);
    CHECK(form->question().engine == "sglang");
    CHECK(form->question().slo_p == Approx(0.8));
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE_METHOD(test::Workbench,
                 "A pipeline degree the parser refuses is named and changes nothing",
                 "[gui][serve]") {
    test::open_scenario_text(context, kMoeServing);
    ServingForm* form = window.servePage()->form();
    auto* pp = test::named_child<QSpinBox>(form, "pp");
    const cp::service::ServingQuestion before = form->question();

    pp->setValue(40); // more stages than the 32 layers
    CHECK(form->message().contains(QStringLiteral("serving.pp")));
    CHECK(form->question().pp == 2);
    CHECK(form->question().model_json == before.model_json);
    test::keep_shot(window, QStringLiteral("serve"), QStringLiteral("serve-pp-refused.png"));

    pp->setValue(8);
    CHECK(form->message().isEmpty());
    CHECK(form->question().pp == 8);
    // A new model drops the pipeline degree, which is stated per model.
    auto* model = test::named_child<QComboBox>(form, "model");
    model->setCurrentIndex(model->findData(QStringLiteral("llama3-8b")));
    CHECK(pp->value() == 0);
    CHECK(form->question().pp == 0);
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE_METHOD(test::Workbench, "The shared shape editor edits a served model's experts",
                 "[gui][serve]") {
    test::open_scenario_text(context, kMoeServing);
    ServingForm* form = window.servePage()->form();
    ModelShapeFields* shape = form->shapeFields();
    // The file shapes the model, so its shape, routing included, is shown.
    CHECK(shape->expertsField()->value() == 8);
    CHECK(shape->expertsPerTokenField()->value() == 2);
    CHECK(shape->expertFfnField()->value() == 14336);
    CHECK(shape->expertsPerTokenField()->isVisibleTo(form));
    CHECK(shape->expertFfnField()->isVisibleTo(form));
    CHECK(shape->moeLayerFreqField()->value() == 1);
    const cp::service::ServingQuestion before = form->question();

    shape->expertsPerTokenField()->setValue(4);
    CHECK(form->message().isEmpty());
    json expected = json::parse(before.model_json);
    expected["experts_per_token"] = 4;
    CHECK(json::parse(form->question().model_json) == expected);
    CHECK(form->question().pp == 2); // the serving fields stay
    CHECK(form->question().replicas == 3);

    // Refused: one expert is no routing, and a preset's experts cannot be removed.
    const std::string accepted = form->question().model_json;
    shape->expertsField()->setValue(1);
    CHECK(form->message().contains(QStringLiteral("model.experts")));
    CHECK(form->question().model_json == accepted);
    shape->expertsField()->setValue(0);
    CHECK(form->message().contains(QStringLiteral("model.experts")));
    CHECK(form->question().model_json == accepted);
    shape->expertsField()->setValue(16);
    CHECK(form->message().isEmpty());
    expected["experts"] = 16;
    CHECK(json::parse(form->question().model_json) == expected);
    // Every 64th of 32 layers routes none: the parser names the field.
    shape->moeLayerFreqField()->setValue(64);
    CHECK(form->message().contains(QStringLiteral("model.moe_layer_freq")));
    CHECK(json::parse(form->question().model_json) == expected);
    shape->moeLayerFreqField()->setValue(2);
    CHECK(form->message().isEmpty());
    expected["moe_layer_freq"] = 2;
    CHECK(json::parse(form->question().model_json) == expected);

    const cp::sim::Workload w = cp::service::question_model(form->question());
    CHECK(w.shape.moe.experts == 16);
    CHECK(w.shape.moe.experts_per_token == 4);
    CHECK(w.shape.seq_len == 8192);

    // A dense model shows the expert count only, as "dense".
    auto* model = test::named_child<QComboBox>(form, "model");
    model->setCurrentIndex(model->findData(QStringLiteral("llama3-8b")));
    CHECK(shape->expertsField()->value() == 0);
    CHECK_FALSE(shape->expertsPerTokenField()->isVisibleTo(form));
    CHECK_FALSE(shape->expertFfnField()->isVisibleTo(form));
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE_METHOD(test::Workbench,
                 "The Serve page plans the file's custom hardware, not the catalog",
                 "[gui][serve]") {
    ServePage* page = window.servePage();
    test::open_scenario_text(context, R"({"schema": "clusterplan.scenario/1", "name": "pod",
        "model": {"preset": "llama3-8b"},
        "cluster": {"region": "us-east-1", "custom": {"accelerator": "H100-80GB",
                    "accelerators_per_node": 8, "usd_per_node_hour": 40,
                    "inter_node_gbps": 3200, "intra_node_gbytes_per_s": 450}},
        "serving": {"tp": 1, "request_rate_per_s": 2}})");
    REQUIRE(test::run_study(page));
    INFO(page->errorText().toStdString());
    REQUIRE(page->errorText().isEmpty());
    const cp::sim::Scenario& planned = page->study()->scenario;
    REQUIRE(planned.custom);
    CHECK(planned.custom->accelerator == "H100-80GB");
    CHECK(planned.custom->usd_per_node_hour == Approx(40));
    REQUIRE(page->study()->ranked.size() == 1);
    CHECK(test::ModelGuard::violations() == 0);
}
