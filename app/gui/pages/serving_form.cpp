#include "pages/serving_form.h"

#include "clusterplan/sim/presets.h"
#include "clusterplan/sim/scenario_limits.h"
#include "clusterplan/sim/serving.h"
#include "pages/form_fields.h"
#include "pages/model_shape_fields.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <array>
#include <cmath>
#include <utility>

namespace cp::gui {

namespace {

const std::array<double, 4> kQuantiles = {0.5, 0.9, 0.95, 0.99};

// Item data of the model box's entry for a model the scenario file shapes.
const QString kScenarioModel = QStringLiteral("(scenario)");

// A combo whose first entry ("auto") stands for a left-out field; the rest are file spellings.
QComboBox* names_field(const QStringList& names, const QString& tip) {
    QComboBox* box = choice_field(QStringList{QObject::tr("auto")} + names, tip);
    for (int i = 1; i < box->count(); ++i)
        box->setItemData(i, names[i - 1]);
    return box;
}

std::string chosen(const QComboBox* box) {
    return box->currentData().toString().toStdString();
}

void choose(QComboBox* box, const std::string& name) {
    const int i = name.empty() ? 0 : box->findData(QString::fromStdString(name));
    box->setCurrentIndex(std::max(0, i));
}

// Chooses `name`, adding it after the listed names where the file gives another spelling (an
// engine that runs on a listed profile, such as sglang): the saved scenario keeps the name given.
void choose_or_offer(QComboBox* box, int listed, const std::string& name) {
    while (box->count() > listed)
        box->removeItem(listed);
    if (!name.empty() && box->findData(QString::fromStdString(name)) < 0)
        box->addItem(QString::fromStdString(name), QString::fromStdString(name));
    choose(box, name);
}

} // namespace

ServingForm::ServingForm(QWidget* parent) : QWidget(parent) {
    model_ = new QComboBox;
    model_->setObjectName(QStringLiteral("model"));
    model_->setToolTip(tr("Model preset: decoder LLMs generate tokens; BERT and ResNet-50 run "
                          "one forward pass per batch."));
    for (const sim::ModelPreset& p : sim::model_presets())
        model_->addItem(QString::fromStdString(p.title), QString::fromStdString(p.id));
    QStringList engines, weights, kv;
    for (int i = 0; i < sim::kServingEngineCount; ++i)
        engines << QString::fromLatin1(sim::enum_name(static_cast<sim::ServingEngine>(i)));
    for (auto t : {sim::StorageType::fp32, sim::StorageType::fp16, sim::StorageType::bf16,
                   sim::StorageType::fp8, sim::StorageType::int8, sim::StorageType::int4}) {
        weights << QString::fromLatin1(sim::enum_name(t));
        if (t != sim::StorageType::int4) kv << QString::fromLatin1(sim::enum_name(t));
    }
    engine_ = names_field(engines, tr("Serving engine; auto: TensorRT-LLM on NVIDIA GPUs, "
                                      "Neuron on Inferentia and Trainium"));
    weights_ = names_field(weights, tr("Storage type of the weights; auto: searched"));
    kv_cache_ = names_field(kv, tr("Storage type of the KV cache; auto: the weights' type, at "
                                   "least 8 bit"));
    tp_ = int_field(0, 64, QString(),
                    tr("Tensor-parallel devices per replica (NeuronCores on "
                       "Inferentia/Trainium); auto: searched"));
    tp_->setSpecialValueText(tr("auto"));
    batch_ = int_field(0, 1 << 16, QString(),
                       tr("Concurrent sequences per replica; auto: as many as memory allows"));
    batch_->setSpecialValueText(tr("auto"));
    engine_max_batch_ = int_field(0, 1 << 16, QString(),
                                  tr("The engine build's max batch (trtllm-build "
                                     "--max_batch_size): the scheduler's cap and the size of its "
                                     "runtime buffers; auto: built for the batch it runs"));
    engine_max_batch_->setSpecialValueText(tr("as the batch it runs"));
    // The scenario parser's ranges (serving.pp, serving.replicas).
    pp_field_ = int_field(0, 64, QString(),
                          tr("Pipeline stages per replica (each holds layers / PP of the model, "
                             "the first ones one layer more where PP does not divide them); "
                             "auto: searched"));
    pp_field_->setSpecialValueText(tr("auto"));
    pp_field_->setObjectName(QStringLiteral("pp"));
    replicas_field_ = int_field(0, 100000, QString(),
                                tr("Copies of the deployment serving the traffic together; auto: "
                                   "as many as the request rate needs"));
    replicas_field_->setSpecialValueText(tr("as the rate needs"));
    replicas_field_->setObjectName(QStringLiteral("replicas"));
    engine_max_batch_->setObjectName(QStringLiteral("engine_max_batch"));
    batch_->setObjectName(QStringLiteral("batch"));
    gqa_shared_kv_reads_ = new QCheckBox(tr("GQA decode kernel (shared KV reads)"));
    gqa_shared_kv_reads_->setObjectName(QStringLiteral("gqa_shared_kv_reads"));
    gqa_shared_kv_reads_->setToolTip(tr("Decode attention reads each KV head once for its query-"
                                        "head group; off: per-query-head kernels re-read it"));
    async_scheduling_ = new QCheckBox(tr("Async scheduling (Neuron)"));
    async_scheduling_->setObjectName(QStringLiteral("async_scheduling"));
    async_scheduling_->setToolTip(tr("The server schedules the next step while the device runs "
                                     "this one (the vLLM Neuron plugin's default): on Inferentia "
                                     "and Trainium the host loop bounds a decode step instead of "
                                     "adding to it; no effect on GPUs"));
    on_device_sampling_ = new QCheckBox(tr("On-device sampling (Neuron)"));
    on_device_sampling_->setObjectName(QStringLiteral("on_device_sampling"));
    on_device_sampling_->setToolTip(tr("The compiled graphs sample each token on the device; off: "
                                       "they return logits and the host samples every step and "
                                       "prompt pass (no async scheduling then); no effect on "
                                       "GPUs"));
    rate_ = real_field(0, sim::limits::kMaxRequestRatePerS, tr(" req/s"),
                       tr("Arrivals per second (Poisson); saturated: offline throughput"));
    rate_->setSpecialValueText(tr("saturated"));
    rate_->setObjectName(QStringLiteral("request_rate"));
    input_tokens_ = int_field(1, 1 << 21, tr(" tokens"), tr("Prompt length per request"));
    output_tokens_ = int_field(0, 1 << 21, tr(" tokens"), tr("Generated tokens per request"));
    output_tokens_->setObjectName(QStringLiteral("output_tokens"));
    ttft_ = real_field(0, sim::limits::kMaxSloMs, tr(" ms"),
                       tr("Time to first token limit (queueing + prefill); for encoders and "
                          "CNNs the latency of one batch"));
    ttft_->setSpecialValueText(tr("no limit"));
    tpot_ = real_field(0, sim::limits::kMaxSloMs, tr(" ms"), tr("Time per output token limit"));
    tpot_->setSpecialValueText(tr("no limit"));
    for (QDoubleSpinBox* f : {rate_, ttft_, tpot_})
        share_row_width(f);
    quantile_ = choice_field({tr("median (p50)"), tr("p90"), tr("p95"), tr("p99")},
                             tr("The quantile the latency limits apply to"));
    for (std::size_t i = 0; i < kQuantiles.size(); ++i)
        quantile_->setItemData(int(i), kQuantiles[i]);
    pricing_ = choice_field({tr("on demand"), tr("spot")},
                            tr("Rank on on-demand prices, or on spot prices with the spare "
                               "replicas that one reclaim needs"));
    instances_ = new QLineEdit;
    instances_->setPlaceholderText(tr("all (e.g. g5, g6, p5, inf2)"));
    instances_->setToolTip(tr("Instance types or families, separated by commas; empty: every "
                              "instance in the catalog"));
    instances_->setClearButtonEnabled(true);

    // The shape rows fold under the model box: a preset is served as published unless opened.
    shape_ = new ModelShapeFields(this);
    shape_toggle_ = new QToolButton;
    shape_toggle_->setObjectName(QStringLiteral("model_shape"));
    shape_toggle_->setCheckable(true);
    shape_toggle_->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    shape_toggle_->setAutoRaise(true);
    shape_toggle_->setToolTip(tr("The chosen model's shape; an edit makes it the scenario's own "
                                 "model and keeps every other field the scenario file gives"));
    message_ = new QLabel;
    message_->setObjectName(QStringLiteral("form_message"));
    message_->setWordWrap(true);
    message_->setStyleSheet(QStringLiteral("color: #c0392b"));

    auto* model_box = new QGroupBox(tr("Model and engine"));
    QFormLayout* f = form_in(model_box);
    model_form_ = f;
    f->addRow(tr("Model"), model_);
    f->addRow(tr("Shape"), shape_toggle_);
    shape_->addRows(f);
    f->addRow(message_);
    f->addRow(tr("Engine"), engine_);
    f->addRow(tr("Weights"), weights_);
    f->addRow(tr("KV cache"), kv_cache_);
    f->addRow(tr("TP"), tp_);
    f->addRow(tr("PP"), pp_field_);
    f->addRow(tr("Batch"), batch_);
    f->addRow(tr("Engine max"), engine_max_batch_);
    f->addRow(gqa_shared_kv_reads_);
    f->addRow(async_scheduling_);
    f->addRow(on_device_sampling_);
    auto* traffic_box = new QGroupBox(tr("Traffic and limits"));
    f = form_in(traffic_box);
    f->addRow(tr("Requests"), rate_);
    f->addRow(tr("Input"), input_tokens_);
    f->addRow(tr("Output"), output_tokens_);
    f->addRow(tr("TTFT ≤"), ttft_);
    f->addRow(tr("TPOT ≤"), tpot_);
    f->addRow(tr("At"), quantile_);
    auto* where_box = new QGroupBox(tr("Instances"));
    f = form_in(where_box);
    f->addRow(tr("Only"), instances_);
    f->addRow(tr("Replicas"), replicas_field_);
    f->addRow(tr("Pricing"), pricing_);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(model_box);
    layout->addWidget(traffic_box);
    layout->addWidget(where_box);
    layout->addStretch(1);

    for (QComboBox* box : {model_, engine_, weights_, kv_cache_, quantile_, pricing_})
        connect(box, &QComboBox::currentIndexChanged, this, &ServingForm::changed);
    for (QSpinBox* box : {tp_, input_tokens_, output_tokens_})
        connect(box, &QSpinBox::valueChanged, this, &ServingForm::changed);
    for (QDoubleSpinBox* box : {rate_, ttft_, tpot_})
        connect(box, &QDoubleSpinBox::valueChanged, this, &ServingForm::changed);
    for (QCheckBox* box : {gqa_shared_kv_reads_, async_scheduling_, on_device_sampling_})
        connect(box, &QCheckBox::toggled, this, &ServingForm::changed);
    connect(instances_, &QLineEdit::editingFinished, this, &ServingForm::changed);
    for (QSpinBox* box : {pp_field_, replicas_field_, batch_, engine_max_batch_})
        connect(box, &QSpinBox::valueChanged, this, &ServingForm::commitLayout);
    connect(model_, &QComboBox::currentIndexChanged, this, [this] {
        pp_ = 0;
        const QSignalBlocker block(pp_field_);
        pp_field_->setValue(0);
    });
    connect(model_, &QComboBox::currentIndexChanged, this, &ServingForm::updateForModel);
    connect(shape_, &ModelShapeFields::edited, this, &ServingForm::reshapeModel);
    connect(shape_, &ModelShapeFields::attentionEdited, this, &ServingForm::reshapeModel);
    connect(shape_toggle_, &QToolButton::toggled, this, [this](bool open) {
        shape_open_ = open;
        updateShapeRows();
    });
    setQuestion(service::ServingQuestion{});
}

void ServingForm::updateShapeRows() {
    model_form_->setRowVisible(shape_toggle_, shape_editable_);
    shape_->setRowsVisible(shape_editable_ && shape_open_);
    model_form_->setRowVisible(message_, !message_->text().isEmpty());
    const QSignalBlocker block(shape_toggle_);
    shape_toggle_->setChecked(shape_open_);
    shape_toggle_->setArrowType(shape_open_ ? Qt::DownArrow : Qt::RightArrow);
    // Open, the routing has rows of its own (and the longer text would widen the form).
    shape_toggle_->setText(shape_open_ ? shape_summary_ : shape_summary_ + routing_summary_);
    updateGeometry();
    emit widthChanged();
}

bool ServingForm::scenarioModelChosen() const {
    return model_->currentData().toString() == kScenarioModel;
}

void ServingForm::updateForModel() {
    const bool generates =
        scenarioModelChosen() ? model_generates_ : service::preset_generates(chosen(model_));
    output_tokens_->setEnabled(generates);
    tpot_->setEnabled(generates);
    kv_cache_->setEnabled(generates);
    gqa_shared_kv_reads_->setEnabled(generates);
    async_scheduling_->setEnabled(generates);
    on_device_sampling_->setEnabled(generates);
    if (!generates) {
        output_tokens_->setValue(0);
        tpot_->setValue(0);
    } else if (output_tokens_->value() == 0) {
        output_tokens_->setValue(service::ServingQuestion{}.output_tokens);
    }
    showModelShape();
}

QString ServingForm::message() const {
    return message_->text();
}

void ServingForm::showModelShape() {
    message_->clear();
    try {
        const sim::Workload w = service::question_model(question());
        shape_editable_ = w.kind == sim::WorkloadKind::transformer;
        if (shape_editable_) {
            const sim::TransformerShape& s = w.shape;
            shape_->show(s);
            shape_summary_ = tr("%1 layers × %2, %3 heads (%4 KV)")
                                 .arg(s.layers)
                                 .arg(s.hidden)
                                 .arg(s.heads)
                                 .arg(s.kv_heads);
            routing_summary_ =
                s.moe.enabled()
                    ? tr(", %1 experts (top %2)").arg(s.moe.experts).arg(s.moe.experts_per_token)
                    : QString();
        }
    } catch (const std::exception& e) {
        // Only a model the parser refuses gets here; its planning says the same.
        message_->setText(QString::fromStdString(e.what()));
    }
    updateShapeRows();
}

void ServingForm::reshapeModel() {
    const service::ServingQuestion q = question();
    std::string reshaped;
    sim::Workload model;
    try {
        reshaped = service::reshaped_model_json(q, shape_->shape(service::question_model(q).shape));
        service::ServingQuestion next = q;
        next.model_json = reshaped;
        model = service::question_model(next);
    } catch (const std::exception& e) {
        message_->setText(QString::fromStdString(e.what()));
        updateShapeRows();
        return;
    }
    model_json_ = reshaped;
    model_preset_ = q.preset;
    model_generates_ = service::workload_generates(model);
    if (!scenarioModelChosen()) {
        // The pipeline degree stays: the reshaped model was read back with it.
        const QSignalBlocker block(model_);
        offerScenarioModel();
    }
    // The parsed shape: a field left to its default (KV heads, FFN size) follows the edit.
    showModelShape();
    emit changed();
}

void ServingForm::offerScenarioModel() {
    const int stale = model_->findData(kScenarioModel);
    if (stale >= 0) model_->removeItem(stale);
    const sim::ModelPreset* p = sim::find_model_preset(model_preset_);
    model_->insertItem(
        0,
        p != nullptr ? tr("%1, as the scenario changes it").arg(QString::fromStdString(p->title))
                     : tr("The scenario's own model"),
        kScenarioModel);
    model_->setCurrentIndex(0);
}

void ServingForm::commitLayout() {
    service::ServingQuestion next = question();
    next.pp = pp_field_->value();
    next.replicas = replicas_field_->value();
    next.batch = batch_->value();
    next.engine_max_batch = engine_max_batch_->value();
    try {
        service::check_question(next);
    } catch (const std::exception& e) {
        message_->setText(QString::fromStdString(e.what()));
        updateShapeRows();
        return;
    }
    pp_ = next.pp;
    replicas_ = next.replicas;
    batch_accepted_ = next.batch;
    engine_max_batch_accepted_ = next.engine_max_batch;
    message_->clear();
    updateShapeRows();
    emit changed();
}

service::ServingQuestion ServingForm::question() const {
    service::ServingQuestion q;
    q.name = name_.toStdString();
    q.preset = chosen(model_);
    if (scenarioModelChosen()) {
        q.preset = model_preset_;
        q.model_json = model_json_;
        q.model_generates = model_generates_;
    }
    q.engine = chosen(engine_);
    q.weights = chosen(weights_);
    q.kv_cache = kv_cache_->isEnabled() ? chosen(kv_cache_) : std::string();
    q.tp = tp_->value();
    q.batch = batch_accepted_;
    q.pp = pp_;
    q.replicas = replicas_;
    q.engine_max_batch = engine_max_batch_accepted_;
    q.gqa_shared_kv_reads = gqa_shared_kv_reads_->isChecked();
    q.async_scheduling = async_scheduling_->isChecked();
    q.on_device_sampling = on_device_sampling_->isChecked();
    q.request_rate_per_s = rate_->value();
    q.input_tokens = input_tokens_->value();
    q.output_tokens = output_tokens_->value();
    q.ttft_ms = ttft_->value();
    q.tpot_ms = tpot_->value();
    q.slo_p = quantile_->currentData().toDouble();
    q.spot = pricing_->currentIndex() == 1;
    q.region = region_.isEmpty() ? q.region : region_.toStdString();
    q.cluster_json = cluster_json_;
    q.instances.clear();
    for (const QString& part : instances_->text().split(QLatin1Char(','), Qt::SkipEmptyParts))
        if (!part.trimmed().isEmpty()) q.instances.push_back(part.trimmed().toStdString());
    return q;
}

void ServingForm::setQuestion(const service::ServingQuestion& q) {
    {
        const QSignalBlocker block(this);
        fill(q);
    }
    emit widthChanged(); // the shape rows may have opened or closed
}

void ServingForm::fill(const service::ServingQuestion& q) {
    name_ = QString::fromStdString(q.name);
    region_ = QString::fromStdString(q.region);
    cluster_json_ = q.cluster_json;
    model_json_ = q.model_json;
    model_preset_ = q.preset;
    model_generates_ = q.model_generates;
    shape_open_ = !q.model_json.empty(); // a model the file shapes is shown as it is shaped
    if (!q.model_json.empty()) {
        offerScenarioModel();
    } else {
        const int stale = model_->findData(kScenarioModel);
        if (stale >= 0) model_->removeItem(stale);
        model_->setCurrentIndex(std::max(0, model_->findData(QString::fromStdString(q.preset))));
    }
    choose_or_offer(engine_, sim::kServingEngineCount + 1, q.engine);
    choose(weights_, q.weights);
    choose(kv_cache_, q.kv_cache);
    tp_->setValue(q.tp);
    pp_ = q.pp; // after the model, whose change drops it
    replicas_ = q.replicas;
    batch_accepted_ = q.batch;
    engine_max_batch_accepted_ = q.engine_max_batch;
    for (auto [field, value] :
         {std::pair{pp_field_, q.pp}, std::pair{replicas_field_, q.replicas},
          std::pair{batch_, q.batch}, std::pair{engine_max_batch_, q.engine_max_batch}}) {
        const QSignalBlocker block(field);
        field->setValue(value);
    }
    gqa_shared_kv_reads_->setChecked(q.gqa_shared_kv_reads);
    async_scheduling_->setChecked(q.async_scheduling);
    on_device_sampling_->setChecked(q.on_device_sampling);
    rate_->setValue(q.request_rate_per_s);
    input_tokens_->setValue(q.input_tokens);
    output_tokens_->setValue(q.output_tokens);
    ttft_->setValue(q.ttft_ms);
    tpot_->setValue(q.tpot_ms);
    // A quantile the list lacks (p80, p99.9) is offered as the file gives it, not rounded away.
    while (quantile_->count() > int(kQuantiles.size()))
        quantile_->removeItem(int(kQuantiles.size()));
    int quantile = -1;
    for (std::size_t i = 0; i < kQuantiles.size(); ++i)
        if (std::abs(kQuantiles[i] - q.slo_p) < 1e-9) quantile = int(i);
    if (quantile < 0) {
        quantile_->addItem(tr("p%1").arg(q.slo_p * 100, 0, 'g', 6), q.slo_p);
        quantile = quantile_->count() - 1;
    }
    quantile_->setCurrentIndex(quantile);
    pricing_->setCurrentIndex(q.spot ? 1 : 0);
    QStringList instances;
    for (const std::string& i : q.instances)
        instances << QString::fromStdString(i);
    instances_->setText(instances.join(QStringLiteral(", ")));
    updateForModel();
}

} // namespace cp::gui
