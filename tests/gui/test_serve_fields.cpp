// Serve page fields that the file carried and the form now edits: a batch above the engine
// build's max batch is named as it is entered (the parser's sentence), and the shared shape
// editor's learned position table, attention kernel and MoE capacity factor are written over the
// model section field by field, so every other field of the file survives the round trip; a file's
// request rate and latency limits load unrounded.
#include "app_context.h"
#include "clusterplan/sim/scenario.h"
#include "gui_test_support.h"
#include "main_window.h"
#include "pages/model_shape_fields.h"
#include "pages/serve_page.h"
#include "pages/serving_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QSpinBox>
#include <QTest>
#include <QToolButton>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

using namespace cp::gui;
using json = nlohmann::json;

namespace {

// A stated shape with fields besides the ones edited here (a parameter count, a pipeline degree,
// replicas, the build's max batch).
const char* const kOwnModel = R"({"schema": "clusterplan.scenario/1", "name": "own model",
    "model": {"layers": 40, "hidden": 5120, "heads": 40, "kv_heads": 8, "ffn_hidden": 17408,
              "gated_mlp": true, "vocab": 151936, "seq_len": 4096, "tied_embeddings": false,
              "learned_positions": false, "attention_kernel": "flash2", "params": 14.8e9},
    "cluster": {"region": "us-east-1", "instance": "p5.48xlarge"},
    "serving": {"pp": 2, "replicas": 3, "batch": 128, "engine_max_batch": 256,
                "request_rate_per_s": 5, "input_tokens": 1024, "output_tokens": 300}})";

// The sentence the scenario parser gives for the same serving section.
std::string parser_sentence(const std::string& serving) {
    try {
        cp::sim::parse_scenario(R"({"schema": "clusterplan.scenario/1",
            "model": {"preset": "llama3-8b"}, "cluster": {"instance": "p5.48xlarge"},
            "serving": )" + serving +
                                    "}",
                                "x");
    } catch (const cp::sim::ScenarioError& e) {
        const std::string what = e.what();
        return what.substr(what.find("serving."));
    }
    return {};
}

} // namespace

TEST_CASE_METHOD(test::Workbench, "A batch above the engine's max batch is named as it is entered",
                 "[gui][serve]") {
    test::open_scenario_text(context, kOwnModel);
    ServingForm* form = window.servePage()->form();
    auto* batch = test::named_child<QSpinBox>(form, "batch");
    auto* max_batch = test::named_child<QSpinBox>(form, "engine_max_batch");
    CHECK(form->message().isEmpty());
    const std::string model_before = form->question().model_json;

    batch->setValue(300);
    const std::string sentence = parser_sentence(R"({"batch": 300, "engine_max_batch": 256})");
    REQUIRE_FALSE(sentence.empty());
    INFO(form->message().toStdString());
    CHECK(form->message().toStdString().find(sentence) != std::string::npos);
    CHECK(form->message().contains(QStringLiteral("serving.batch")));
    // The question keeps the accepted batch; the field shows what was entered.
    CHECK(form->question().batch == 128);
    CHECK(batch->value() == 300);
    test::keep_shot(window, QStringLiteral("serve"), QStringLiteral("serve-batch-refused.png"));

    // A build for a larger batch settles it: both values are taken.
    max_batch->setValue(512);
    CHECK(form->message().isEmpty());
    CHECK(form->question().batch == 300);
    CHECK(form->question().engine_max_batch == 512);
    // A build below the batch is the same refusal, from the other field.
    max_batch->setValue(200);
    CHECK(form->message().contains(QStringLiteral("serving.batch")));
    CHECK(form->question().engine_max_batch == 512);
    max_batch->setValue(0); // built for the batch it runs
    CHECK(form->message().isEmpty());
    const cp::service::ServingQuestion q = form->question();
    CHECK(q.engine_max_batch == 0);
    CHECK(q.batch == 300);
    CHECK(q.pp == 2);
    CHECK(q.replicas == 3);
    CHECK(q.model_json == model_before);
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE_METHOD(test::Workbench,
                 "The Serve page edits learned positions and the attention kernel of its own model",
                 "[gui][serve]") {
    ServePage* page = window.servePage();
    test::open_scenario_text(context, kOwnModel);
    ServingForm* form = page->form();
    ModelShapeFields* shape = form->shapeFields();
    CHECK_FALSE(shape->learnedPositionsField()->isHidden());
    CHECK_FALSE(shape->learnedPositionsField()->isChecked());
    QComboBox* kernel = shape->attentionKernelField();
    CHECK(kernel->currentIndex() == 2); // FlashAttention-2
    CHECK(kernel->toolTip().contains(QStringLiteral("Serving plans")));
    // A dense model has no capacity factor to edit.
    CHECK(shape->capacityFactorField()->isHidden());

    json expected = json::parse(form->question().model_json);
    shape->learnedPositionsField()->setChecked(true);
    CHECK(form->message().isEmpty());
    expected["learned_positions"] = true;
    CHECK(json::parse(form->question().model_json) == expected);

    kernel->setCurrentIndex(1);
    expected.erase("flash_attention");
    expected["attention_kernel"] = "flash1";
    CHECK(json::parse(form->question().model_json) == expected);
    kernel->setCurrentIndex(0);
    expected.erase("attention_kernel");
    expected["flash_attention"] = false;
    CHECK(json::parse(form->question().model_json) == expected);

    REQUIRE(test::run_study(page));
    REQUIRE(page->errorText().isEmpty());
    const cp::sim::Scenario back =
        cp::sim::parse_scenario(cp::sim::scenario_to_json(page->study()->scenario), "saved");
    const cp::sim::TransformerShape& s = back.workload.shape;
    CHECK(s.learned_positions);
    CHECK_FALSE(s.flash_attention);
    CHECK(s.layers == 40);
    CHECK(s.kv_heads == 8);
    CHECK_FALSE(s.tied_embeddings);
    CHECK(back.workload.params == Approx(14.8e9));
    REQUIRE(back.serving);
    CHECK(back.serving->pp == 2);
    CHECK(back.serving->replicas == 3);
    CHECK(back.serving->batch == 128);
    CHECK(back.serving->engine_max_batch == 256);
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE_METHOD(test::Workbench,
                 "The Serve page edits a routed model's capacity factor and nothing else",
                 "[gui][serve]") {
    ServingForm* form = window.servePage()->form();
    cp::service::ServingQuestion q;
    q.preset = "mixtral-8x7b";
    form->setQuestion(q);
    test::named_child<QToolButton>(form, "model_shape")->click();
    ModelShapeFields* shape = form->shapeFields();
    QDoubleSpinBox* capacity = shape->capacityFactorField();
    CHECK_FALSE(capacity->isHidden());
    CHECK(capacity->value() == 0); // no cap (dropless)

    capacity->setValue(1.25);
    CHECK(form->message().isEmpty());
    CHECK(json::parse(form->question().model_json) ==
          json({{"preset", "mixtral-8x7b"}, {"capacity_factor", 1.25}}));
    CHECK(cp::service::question_model(form->question()).shape.moe.capacity_factor == Approx(1.25));
    // Another edit keeps the factor; the factor's own field drops it again at no cap.
    shape->seqLenField()->setValue(8192);
    CHECK(json::parse(form->question().model_json) ==
          json({{"preset", "mixtral-8x7b"}, {"capacity_factor", 1.25}, {"seq_len", 8192}}));
    capacity->setValue(0);
    CHECK(json::parse(form->question().model_json) ==
          json({{"preset", "mixtral-8x7b"}, {"seq_len", 8192}}));
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE_METHOD(test::Workbench,
                 "A file's capacity factor shows unrounded and survives other edits",
                 "[gui][serve]") {
    ServingForm* form = window.servePage()->form();
    cp::service::ServingQuestion q;
    q.preset = "mixtral-8x7b";
    q.model_json = R"({"preset": "mixtral-8x7b", "capacity_factor": 1.333})";
    form->setQuestion(q);
    ModelShapeFields* shape = form->shapeFields();
    CHECK(shape->capacityFactorField()->value() == 1.333);
    shape->layersField()->setValue(16);
    CHECK(json::parse(form->question().model_json) ==
          json({{"preset", "mixtral-8x7b"}, {"capacity_factor", 1.333}, {"layers", 16}}));
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE_METHOD(test::Workbench, "The Serve page holds a file's request rate and limits as given",
                 "[gui][serve]") {
    // Below the old field's 3 decimals: 2.5e-4 req/s loaded as 0, "saturated".
    test::open_scenario_text(context, R"({"schema": "clusterplan.scenario/1",
        "model": {"preset": "llama3-8b"}, "cluster": {"instance": "p5.48xlarge"},
        "serving": {"request_rate_per_s": 0.00025, "input_tokens": 1024, "output_tokens": 128,
                    "slo": {"ttft_ms": 0.04, "tpot_ms": 0.004}}})");
    ServePage* page = window.servePage();
    ServingForm* form = page->form();
    window.show();
    window.showPage(QStringLiteral("serve"));
    QTest::qWait(50);
    const cp::service::ServingQuestion q = form->question();
    CHECK(q.request_rate_per_s == 0.00025);
    CHECK(q.ttft_ms == 0.04);
    CHECK(q.tpot_ms == 0.004);
    auto* rate = test::named_child<QDoubleSpinBox>(form, "request_rate");
    CHECK(rate->text() == QStringLiteral("0.00025 req/s"));
    // The parser's lowest rate, and one of full precision, survive typing.
    for (const char* typed : {"0.000001", "0.0000123456789012345"}) {
        rate->selectAll();
        QTest::keyClicks(rate, QString::fromLatin1(typed));
        rate->interpretText();
        CHECK(form->question().request_rate_per_s == std::stod(typed));
    }
    rate->setValue(0.00025);
    test::keep_shot(window, QStringLiteral("serve"), QStringLiteral("serve-low-rate.png"));
    REQUIRE(test::run_study(page));
    REQUIRE(page->errorText().isEmpty());
    const cp::sim::Scenario back =
        cp::sim::parse_scenario(cp::sim::scenario_to_json(page->study()->scenario), "saved");
    REQUIRE(back.serving);
    CHECK(back.serving->request_rate_per_s == 0.00025);
    CHECK(back.serving->slo.tpot_ms == 0.004);
    CHECK(test::ModelGuard::violations() == 0);
}
