// Serve page shape editing: the Plan page's shape fields edit the served model field by field;
// an edit is written over the scenario's model section and read back by the parser, so every
// other field of the section (and of the serving section) survives, and a shape the parser
// refuses is named in a message while the question stays as it was.
#include "app_context.h"
#include "clusterplan/sim/scenario.h"
#include "gui_test_support.h"
#include "main_window.h"
#include "pages/model_shape_fields.h"
#include "pages/serve_page.h"
#include "pages/serving_form.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QScrollArea>
#include <QSpinBox>
#include <QToolButton>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace cp::gui;
using json = nlohmann::json;

namespace {

// A Qwen3-14B-like shape with fields the form has no box for (learned positions, the attention
// kernel, a stated parameter count) and serving fields besides the shape (pp, replicas).
const char* const kOwnModel = R"({"schema": "clusterplan.scenario/1", "name": "own model",
    "model": {"layers": 40, "hidden": 5120, "heads": 40, "kv_heads": 8, "ffn_hidden": 17408,
              "gated_mlp": true, "vocab": 151936, "seq_len": 4096, "tied_embeddings": false,
              "learned_positions": false, "attention_kernel": "flash2", "params": 14.8e9},
    "cluster": {"region": "us-east-1", "instance": "p5.48xlarge"},
    "serving": {"pp": 2, "replicas": 3, "engine_max_batch": 256, "gqa_shared_kv_reads": false,
                "request_rate_per_s": 5, "input_tokens": 1024, "output_tokens": 300}})";

} // namespace

TEST_CASE_METHOD(test::Workbench,
                 "The Serve page edits its own model's shape and keeps every other field",
                 "[gui][serve]") {
    ServePage* page = window.servePage();
    test::open_scenario_text(context, kOwnModel);
    ServingForm* form = page->form();
    ModelShapeFields* shape = form->shapeFields();
    // A model the file shapes opens with its shape shown.
    CHECK_FALSE(shape->layersField()->isHidden());
    CHECK(shape->layersField()->value() == 40);
    CHECK(shape->kvHeadsField()->value() == 8);
    CHECK_FALSE(shape->tiedEmbeddingsField()->isChecked());

    // The model section as the scenario writer gives it (attention_kernel flash2 is written as
    // flash_attention true); the edit changes its depth and nothing else.
    json expected = json::parse(form->question().model_json);
    expected["layers"] = 48;
    shape->layersField()->setValue(48); // pp 2 still divides it
    CHECK(form->message().isEmpty());
    auto* model = form->findChild<QComboBox*>(QStringLiteral("model"));
    REQUIRE(model != nullptr);
    CHECK(model->currentText() == QStringLiteral("The scenario's own model"));
    const cp::service::ServingQuestion q = form->question();
    CHECK(json::parse(q.model_json) == expected);
    CHECK(q.pp == 2);
    CHECK(q.replicas == 3);
    CHECK(q.engine_max_batch == 256);
    CHECK_FALSE(q.gqa_shared_kv_reads);

    // Through the service and the scenario writer and back: the scenario file keeps it all.
    REQUIRE(test::run_study(page));
    REQUIRE(page->errorText().isEmpty());
    const cp::sim::Scenario back =
        cp::sim::parse_scenario(cp::sim::scenario_to_json(page->study()->scenario), "saved");
    const cp::sim::TransformerShape& s = back.workload.shape;
    CHECK(s.layers == 48);
    CHECK(s.hidden == 5120);
    CHECK(s.heads == 40);
    CHECK(s.kv_heads == 8);
    CHECK(s.ffn_hidden == 17408);
    CHECK(s.vocab == 151936);
    CHECK(s.seq_len == 4096);
    CHECK(s.gated_mlp);
    CHECK_FALSE(s.tied_embeddings);
    CHECK(s.flash_attention);
    CHECK_FALSE(s.flash_attention_v1);
    CHECK(back.workload.params == Approx(14.8e9));
    REQUIRE(back.serving);
    CHECK(back.serving->pp == 2);
    CHECK(back.serving->replicas == 3);
    CHECK(back.serving->engine_max_batch == 256);
    CHECK_FALSE(back.serving->gqa_shared_kv_reads);
    CHECK(back.serving->input_tokens == 1024);
    CHECK(back.serving->output_tokens == 300);
    CHECK(back.serving->request_rate_per_s == Approx(5));
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE_METHOD(test::Workbench,
                 "A shape the parser refuses is named on the Serve page and changes nothing",
                 "[gui][serve]") {
    test::open_scenario_text(context, kOwnModel);
    ServingForm* form = window.servePage()->form();
    ModelShapeFields* shape = form->shapeFields();
    const std::string before = form->question().model_json;

    shape->headsField()->setValue(48); // 48 does not divide 5120 without model.head_dim
    CHECK(form->message().contains(QStringLiteral("model.heads")));
    test::keep_shot(window, QStringLiteral("serve"), QStringLiteral("serve-shape-refused.png"));
    CHECK(form->question().model_json == before);

    shape->headsField()->setValue(40);
    CHECK(form->message().isEmpty());
    CHECK(json::parse(form->question().model_json) == json::parse(before));

    shape->kvHeadsField()->setValue(3); // must divide the 40 heads
    CHECK(form->message().contains(QStringLiteral("model.kv_heads")));
    CHECK(form->question().model_json == before);
    shape->kvHeadsField()->setValue(8);

    shape->layersField()->setValue(1); // fewer layers than the scenario's pp 2 stages
    CHECK(form->message().contains(QStringLiteral("serving.pp")));
    CHECK(form->question().model_json == before);
    CHECK(form->question().pp == 2);
    CHECK(test::ModelGuard::violations() == 0);
}

TEST_CASE_METHOD(test::Workbench,
                 "Editing a preset's shape on the Serve page makes it the scenario's own model",
                 "[gui][serve]") {
    ServingForm* form = window.servePage()->form();
    cp::service::ServingQuestion q;
    q.preset = "llama3-8b";
    form->setQuestion(q);
    ModelShapeFields* shape = form->shapeFields();
    CHECK(shape->layersField()->value() == 32);
    // A preset's shape is folded away until opened.
    auto* toggle = form->findChild<QToolButton*>(QStringLiteral("model_shape"));
    REQUIRE(toggle != nullptr);
    CHECK(shape->layersField()->isHidden());
    toggle->click();
    CHECK_FALSE(shape->layersField()->isHidden());
    // The form's column widens for the open rows rather than clipping them.
    QCoreApplication::processEvents();
    auto* scroll = window.servePage()->findChild<QScrollArea*>();
    REQUIRE(scroll != nullptr);
    CHECK(scroll->minimumWidth() >= form->sizeHint().width());
    shape->layersField()->setValue(40);
    auto* model = form->findChild<QComboBox*>(QStringLiteral("model"));
    REQUIRE(model != nullptr);
    CHECK(model->currentText() == QStringLiteral("Llama 3 8B, as the scenario changes it"));
    const cp::service::ServingQuestion edited = form->question();
    CHECK(edited.preset == "llama3-8b");
    CHECK(json::parse(edited.model_json) == json{{"preset", "llama3-8b"}, {"layers", 40}});
    guard.rescan();
    // Choosing the preset again serves it as published; a CNN has no shape to edit.
    model->setCurrentIndex(model->findData(QStringLiteral("llama3-8b")));
    CHECK(form->question().model_json.empty());
    CHECK(shape->layersField()->value() == 32);
    model->setCurrentIndex(model->findData(QStringLiteral("resnet50")));
    CHECK(toggle->isHidden());
    CHECK(shape->layersField()->isHidden());
    CHECK(test::ModelGuard::violations() == 0);
}
