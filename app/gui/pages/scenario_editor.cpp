#include "pages/scenario_editor.h"

#include "clusterplan/sim/format.h"
#include "clusterplan/sim/scenario_limits.h"
#include "clusterplan/sim/spot_cost.h"
#include "pages/form_fields.h"
#include "pages/model_shape_fields.h"
#include "pages/scenario_extras.h"
#include "pages/scenario_training.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QRegularExpressionValidator>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace cp::gui {

namespace {
QStringList precision_names() {
    QStringList names;
    for (const sim::Precision p : sim::kAllPrecisions)
        names << QString::fromLatin1(sim::enum_name(p));
    return names;
}
} // namespace

ScenarioEditor::ScenarioEditor(QWidget* parent) : QWidget(parent) {
    auto* root = new QVBoxLayout(this);
    root->setContentsMargins(0, 0, 0, 0);

    auto* model_box = new QGroupBox(tr("Model"));
    auto* model = form_in(model_box);
    preset_ = choice_field({tr("Custom shape")},
                           tr("A model preset fills the shape below; editing a shape field "
                              "switches to a custom shape."));
    shape_ = new ModelShapeFields(this);
    generic_info_ = new QLabel;
    generic_info_->setToolTip(
        tr("A generic model (a CNN such as ResNet-50) is described by its parameter "
           "count and training FLOPs per sample, and trains data parallel only."));
    model_form_ = model;
    model->addRow(tr("Preset:"), preset_);
    model->addRow(tr("Size:"), generic_info_);
    shape_->addRows(model);

    auto* train_box = new QGroupBox(tr("Training"));
    auto* train = form_in(train_box);
    tokens_b_ = real_field(0.001, 1e6, tr(" B tokens"),
                           tr("Dataset size: tokens processed over the whole run, in billions."));
    precision_ = choice_field(precision_names(),
                              tr("Numeric precision of the matrix multiplies (mixed-precision "
                                 "training keeps fp32 master weights)."));
    train->addRow(tr("Dataset size:"), tokens_b_);
    train->addRow(tr("Precision:"), precision_);

    auto* cluster_box = new QGroupBox(tr("Cluster"));
    auto* cluster = form_in(cluster_box);
    instance_ =
        choice_field({}, tr("Instance type from the catalog (accelerators per node shown)."));
    instance_->setSizeAdjustPolicy(QComboBox::AdjustToMinimumContentsLengthWithIcon);
    // Wide enough for the longest trainable choice ("trn1n.32xlarge (16 × Trainium1)"; the
    // length counts 'x' widths, wider than the average character): a clipped accelerator name
    // hides what the plan runs on.
    instance_->setMinimumContentsLength(21);
    nodes_ = int_field(1, 4096, tr(" nodes"), tr("Number of instances (nodes) in the cluster."));
    devices_ = new QLabel;
    devices_->setToolTip(tr("Total accelerators = nodes × accelerators per node."));
    pricing_ = choice_field({tr("On-demand"), tr("Spot")},
                            tr("Price used for the headline cost; the other is shown alongside."));
    cluster->addRow(tr("Instance:"), instance_);
    cluster->addRow(tr("Nodes:"), nodes_);
    cluster->addRow(tr("Devices:"), devices_);
    cluster->addRow(tr("Pricing:"), pricing_);

    auto* par_box = new QGroupBox(tr("Parallel layout"));
    auto* par = form_in(par_box);
    layout_mode_ = choice_field({tr("Search best layout"), tr("Manual")},
                                tr("Search tries every valid TP/PP/DP/micro-batch split; Manual "
                                   "uses the values below."));
    tp_ = int_field(1, 64, {}, tr("Tensor-parallel degree (keep within a node)."));
    pp_ = int_field(1, 512, {}, tr("Pipeline-parallel stages."));
    dp_ = new QLabel;
    dp_->setToolTip(tr("Data-parallel degree = devices / (TP × PP)."));
    micro_batch_ =
        int_field(1, 4096, tr(" samples"), tr("Micro-batch size per pipeline step, samples."));
    global_batch_ =
        int_field(1, 1 << 22, tr(" samples"), tr("Global batch per optimizer step, samples."));
    schedule_ = choice_field({"GPipe", "1F1B", tr("Interleaved 1F1B")},
                             tr("Pipeline schedule; interleaving shrinks the bubble at the cost "
                                "of more point-to-point traffic."));
    stage_layers_ = new QLineEdit;
    stage_layers_->setObjectName(QStringLiteral("stage_layers"));
    stage_layers_->setPlaceholderText(tr("default split"));
    stage_layers_->setValidator(new QRegularExpressionValidator(
        QRegularExpression(QStringLiteral("[0-9, ]*")), stage_layers_));
    stage_layers_->setToolTip(
        tr("Layers on each pipeline stage, first stage first (e.g. 7, 8, 8, 7), one count per "
           "stage, summing to the model's layers. Empty: the default split, as Megatron and "
           "DeepSpeed make it. The slowest and fullest stage sets the step time and memory."));
    seq_parallel_ = new QCheckBox(tr("Sequence parallel"));
    seq_parallel_->setToolTip(tr("Shard layer-norm/dropout activations across the TP group."));
    zero_ = choice_field({tr("0 (off)"), "1", "2", "3"},
                         tr("ZeRO stage: 1 shards optimizer state, 2 also gradients, 3 also "
                            "weights across data-parallel ranks."));
    recompute_ = choice_field({tr("None"), tr("Selective"), tr("Full")},
                              tr("Activation recomputation: trades compute for memory."));
    par->addRow(tr("Layout:"), layout_mode_);
    par->addRow(tr("Tensor parallel:"), tp_);
    par->addRow(tr("Pipeline parallel:"), pp_);
    par->addRow(tr("Stage layers:"), stage_layers_);
    par->addRow(tr("Data parallel:"), dp_);
    par->addRow(tr("Micro-batch:"), micro_batch_);
    par->addRow(tr("Global batch:"), global_batch_);
    par->addRow(tr("Schedule:"), schedule_);
    par->addRow(tr("ZeRO stage:"), zero_);
    par->addRow(tr("Recompute:"), recompute_);
    par->addRow(QString(), seq_parallel_);

    auto* con_box = new QGroupBox(tr("Constraints"));
    auto* con = form_in(con_box);
    max_nodes_ = int_field(1, 100000, tr(" nodes"), tr("Largest cluster the search may use."));
    deadline_h_ = real_field(0, sim::limits::kMaxDeadlineHours, tr(" h"),
                             tr("Finish within this many hours (0 = no deadline)."));
    deadline_h_->setSpecialValueText(tr("none"));
    budget_usd_ = real_field(0, sim::limits::kMaxBudgetUsd, tr(" USD"),
                             tr("Spend at most this much (0 = no budget)."));
    budget_usd_->setSpecialValueText(tr("none"));
    objective_ = choice_field({tr("Cheapest"), tr("Fastest"), tr("Cheapest within deadline"),
                               tr("Fastest within budget")},
                              tr("What the recommendation optimises."));
    con->addRow(tr("Max nodes:"), max_nodes_);
    con->addRow(tr("Deadline:"), deadline_h_);
    con->addRow(tr("Budget:"), budget_usd_);
    con->addRow(tr("Objective:"), objective_);

    for (QGroupBox* box : {model_box, train_box, cluster_box, par_box, con_box})
        root->addWidget(box);
    training_ = new ScenarioTraining;
    root->addWidget(training_);
    extras_ = new ScenarioExtras;
    root->addWidget(extras_);
    root->addStretch(1);

    connect(shape_, &ModelShapeFields::edited, this, [this] {
        // Editing the shape makes it custom; the preset id would otherwise override it.
        if (!loading_ && preset_->currentIndex() != 0) {
            const QSignalBlocker block(preset_);
            preset_->setCurrentIndex(0);
        }
        training_->showMoe(shape_->shape(base_.workload.shape).moe);
        emitEdited();
    });
    connect(shape_, &ModelShapeFields::attentionEdited, this, [this] { emitEdited(); });
    connect(preset_, &QComboBox::currentIndexChanged, this, [this] { onPresetChosen(); });
    for (QSpinBox* s : {nodes_, tp_, pp_, micro_batch_, global_batch_, max_nodes_}) {
        connect(s, &QSpinBox::valueChanged, this, [this] { emitEdited(); });
    }
    for (QDoubleSpinBox* s : {tokens_b_, deadline_h_, budget_usd_}) {
        connect(s, &QDoubleSpinBox::valueChanged, this, [this] { emitEdited(); });
    }
    for (QComboBox* c : {precision_, instance_, pricing_, layout_mode_, schedule_, zero_,
                         recompute_, objective_}) {
        connect(c, &QComboBox::currentIndexChanged, this, [this] { emitEdited(); });
    }
    connect(seq_parallel_, &QCheckBox::toggled, this, [this] { emitEdited(); });
    connect(stage_layers_, &QLineEdit::textEdited, this, [this] { emitEdited(); });
    connect(extras_, &ScenarioExtras::edited, this, [this] { emitEdited(); });
    connect(training_, &ScenarioTraining::edited, this, [this] { emitEdited(); });
    training_->setScenarioSource([this] { return scenario(); });
    updateEnabledState();
}

void ScenarioEditor::setInstances(const std::vector<InstanceChoice>& instances) {
    instances_ = instances;
    const QString current = instance_->currentData().toString();
    const QSignalBlocker block(instance_);
    instance_->clear();
    for (const InstanceChoice& c : instances_) {
        instance_->addItem(QStringLiteral("%1 (%2)").arg(c.type, c.description), c.type);
    }
    // No catalog instance: the cluster is described by the custom hardware fields alone.
    instance_->addItem(tr("None (custom hardware only)"), QString());
    QStringList types;
    for (const InstanceChoice& c : instances_)
        types << c.type;
    extras_->setInstanceTypes(types);
    const int i = instance_->findData(current);
    if (i >= 0) instance_->setCurrentIndex(i);
    updateDerived();
}

void ScenarioEditor::setCatalogChoices(const QStringList& regions,
                                       const QStringList& accelerators) {
    extras_->setCatalogChoices(regions, accelerators);
}

void ScenarioEditor::setPresets(const std::vector<PresetChoice>& presets) {
    presets_ = presets;
    const QSignalBlocker block(preset_);
    const QString current = preset_->currentData().toString();
    preset_->clear();
    preset_->addItem(tr("Custom shape"), QString());
    for (const PresetChoice& p : presets_)
        preset_->addItem(p.label, p.id);
    const int i = preset_->findData(current);
    preset_->setCurrentIndex(i >= 0 ? i : 0);
}

void ScenarioEditor::onPresetChosen() {
    if (loading_) return;
    const QString id = preset_->currentData().toString();
    for (const PresetChoice& p : presets_) {
        if (p.id != id) continue;
        loading_ = true;
        // A generic preset has no shape: the shape fields keep the last transformer's values.
        if (p.workload.kind == sim::WorkloadKind::transformer) {
            // The attention kernel is the user's choice, not the model's: it stays.
            QComboBox* kernel = shape_->attentionKernelField();
            const int chosen = kernel->currentIndex();
            shape_->show(p.workload.shape);
            const QSignalBlocker block(kernel);
            kernel->setCurrentIndex(chosen);
        }
        if (p.global_batch > 0) global_batch_->setValue(p.global_batch);
        base_.workload = p.workload;
        training_->showMoe(p.workload.shape.moe);
        loading_ = false;
    }
    emitEdited();
}

void ScenarioEditor::setScenario(const sim::Scenario& sc) {
    loading_ = true;
    searched_dp_ = 0;
    base_ = sc;
    {
        const QSignalBlocker block(preset_);
        const int i = preset_->findData(QString::fromStdString(sc.preset));
        preset_->setCurrentIndex(i >= 0 ? i : 0);
    }
    if (sc.workload.kind == sim::WorkloadKind::transformer) shape_->show(sc.workload.shape);
    // Whatever form the file gives (tokens, samples, epochs of a dataset, fine-tuning examples),
    // the field shows the amount the planner trains on.
    const double tokens = sc.training.tokens > 0
                              ? sc.training.tokens
                              : sim::training_samples(sc) * sc.workload.tokens_per_sample();
    updateSizeUnit();
    tokens_b_->setValue(tokens / sizeScale());
    loaded_size_ = tokens_b_->value();
    loaded_kind_ = sc.workload.kind;
    precision_->setCurrentIndex(static_cast<int>(sc.precision));
    const int inst = instance_->findData(QString::fromStdString(sc.instance));
    if (inst >= 0) instance_->setCurrentIndex(inst);
    nodes_->setValue(sc.nodes.value_or(1));
    pricing_->setCurrentIndex(sc.pricing == sim::Pricing::spot ? 1 : 0);
    const sim::ParallelSpec& p = sc.parallel;
    const bool manual = p.tp && p.pp && p.micro_batch;
    layout_mode_->setCurrentIndex(manual ? 1 : 0);
    tp_->setValue(p.tp.value_or(1));
    pp_->setValue(p.pp.value_or(1));
    micro_batch_->setValue(p.micro_batch.value_or(1));
    if (p.global_batch > 0) global_batch_->setValue(p.global_batch);
    schedule_->setCurrentIndex(static_cast<int>(p.schedule));
    seq_parallel_->setChecked(p.sequence_parallel);
    QStringList stages;
    for (int n : p.stage_layers)
        stages << QString::number(n);
    stage_layers_->setText(stages.join(QStringLiteral(", ")));
    zero_->setCurrentIndex(p.zero.value_or(0));
    recompute_->setCurrentIndex(static_cast<int>(p.recompute.value_or(sim::Recompute::none)));
    max_nodes_->setValue(sc.constraints.max_nodes);
    deadline_h_->setValue(
        std::isnan(sc.constraints.deadline_hours) ? 0 : sc.constraints.deadline_hours);
    budget_usd_->setValue(std::isnan(sc.constraints.budget_usd) ? 0 : sc.constraints.budget_usd);
    objective_->setCurrentIndex(static_cast<int>(sc.constraints.objective));
    extras_->setScenario(sc);
    training_->setScenario(sc);
    loading_ = false;
    updateEnabledState();
    updateDerived();
}

sim::Scenario ScenarioEditor::scenario() const {
    sim::Scenario sc = base_;
    sc.preset = preset_->currentData().toString().toStdString();
    sim::Workload& w = sc.workload;
    if (sc.preset.empty()) {
        w.kind = sim::WorkloadKind::transformer;
        w.name = "custom";
        w.flops_per_sample = 0;
    }
    // A generic preset's workload (params, FLOPs per sample) is kept from base_ as it is.
    if (w.kind == sim::WorkloadKind::transformer) {
        w.shape = shape_->shape(w.shape);
        w.params = 0; // derived from the shape
    }
    // An untouched dataset field keeps the file's own form (epochs of a dataset, samples); a
    // generic model counts samples, never tokens.
    if (w.kind != loaded_kind_ || tokens_b_->value() != loaded_size_) {
        sc.training.tokens = 0;
        sc.training.samples = 0;
        sc.training.epochs = 0;
        sc.training.dataset_samples = 0;
        sc.training.examples = 0;
        (w.kind == sim::WorkloadKind::transformer ? sc.training.tokens : sc.training.samples) =
            tokens_b_->value() * sizeScale();
    }
    sc.precision = static_cast<sim::Precision>(precision_->currentIndex());
    sc.instance = instance_->currentData().toString().toStdString();
    sc.nodes = nodes_->value();
    sc.pricing = pricing_->currentIndex() == 1 ? sim::Pricing::spot : sim::Pricing::on_demand;
    sim::ParallelSpec& p = sc.parallel;
    p.global_batch = global_batch_->value();
    p.schedule = static_cast<sim::Schedule>(schedule_->currentIndex());
    p.sequence_parallel = seq_parallel_->isChecked();
    p.zero = zero_->currentIndex();
    p.recompute = static_cast<sim::Recompute>(recompute_->currentIndex());
    if (layout_mode_->currentIndex() == 1) {
        p.tp = tp_->value();
        p.pp = pp_->value();
        p.micro_batch = micro_batch_->value();
        const int devices = nodes_->value() * acceleratorsPerNode();
        // Manual fixes every searched field: sequence parallelism and cp as shown.
        p.sequence_parallel_given = true;
        p.cp = searched_cp_;
        p.dp = std::max(1, devices / std::max(1, p.tp.value() * p.pp.value() * searched_cp_));
        p.virtual_stages =
            p.schedule == sim::Schedule::interleaved ? std::optional<int>(2) : std::nullopt;
        // The validator admits digits, commas and spaces only; the planner checks the counts
        // against pp and the model's layers and names what is wrong.
        p.stage_layers.clear();
        for (const QString& n : stage_layers_->text().split(
                 QRegularExpression(QStringLiteral("[, ]+")), Qt::SkipEmptyParts))
            p.stage_layers.push_back(std::min(n.left(6).toInt(), 100000));
    } else {
        p.tp.reset();
        p.pp.reset();
        p.dp.reset();
        p.micro_batch.reset();
        // In search mode ZeRO, recompute, sequence parallelism and cp are searched as well.
        p.zero.reset();
        p.recompute.reset();
        p.cp.reset();
        p.sequence_parallel_given = false;
        p.stage_layers.clear(); // the search splits each pp it tries
    }
    // A loaded scenario's split checkpoints hold only for the full-recompute, no-SP layout it
    // stated (scenario_layout_fields.cpp); an edit that leaves that layout drops them.
    if (p.recompute != sim::Recompute::full || !p.sequence_parallel_given || p.sequence_parallel)
        p.distribute_saved_activations = false;
    sc.constraints.max_nodes = max_nodes_->value();
    sc.constraints.deadline_hours = deadline_h_->value() > 0 ? deadline_h_->value() : sim::kUnknown;
    sc.constraints.budget_usd = budget_usd_->value() > 0 ? budget_usd_->value() : sim::kUnknown;
    sc.constraints.objective = static_cast<sim::Objective>(objective_->currentIndex());
    extras_->apply(sc);
    training_->apply(sc);
    return sc;
}

void ScenarioEditor::showSearchedLayout(const sim::Layout& l) {
    if (layout_mode_->currentIndex() == 1) return;
    loading_ = true;
    tp_->setValue(l.tp);
    pp_->setValue(l.pp);
    micro_batch_->setValue(l.micro_batch);
    schedule_->setCurrentIndex(static_cast<int>(l.schedule));
    seq_parallel_->setChecked(l.sequence_parallel);
    zero_->setCurrentIndex(std::clamp(l.zero, 0, 3));
    recompute_->setCurrentIndex(static_cast<int>(l.recompute));
    loading_ = false;
    searched_dp_ = l.dp;
    searched_cp_ = l.cp;
    updateDerived();
}

QSpinBox* ScenarioEditor::headDimField() const {
    return shape_->headDimField();
}

QComboBox* ScenarioEditor::attentionKernelField() const {
    return shape_->attentionKernelField();
}

QCheckBox* ScenarioEditor::tiedEmbeddingsField() const {
    return shape_->tiedEmbeddingsField();
}

bool ScenarioEditor::genericModel() const {
    return !preset_->currentData().toString().isEmpty() &&
           base_.workload.kind == sim::WorkloadKind::generic;
}

double ScenarioEditor::sizeScale() const {
    return genericModel() ? 1e6 : 1e9;
}

void ScenarioEditor::updateSizeUnit() {
    const bool generic = genericModel();
    tokens_b_->setSuffix(generic ? tr(" M samples") : tr(" B tokens"));
    tokens_b_->setToolTip(
        generic ? tr("Dataset size: samples (images) processed over the whole run, in millions "
                     "(epochs × dataset size).")
                : tr("Dataset size: tokens processed over the whole run, in billions."));
}

void ScenarioEditor::updateEnabledState() {
    // A generic model has no transformer shape: its size replaces the shape rows.
    const bool generic = genericModel();
    shape_->setRowsVisible(!generic);
    model_form_->setRowVisible(generic_info_, generic);
    if (generic) {
        generic_info_->setText(
            tr("%1 M parameters, %2 GFLOP per sample")
                .arg(QLocale().toString(base_.workload.params / 1e6, 'f', 1),
                     QLocale().toString(base_.workload.flops_per_sample / 1e9, 'f', 1)));
    }
    updateSizeUnit();
    const bool manual = layout_mode_->currentIndex() == 1;
    for (QWidget* w : std::initializer_list<QWidget*>{
             tp_, pp_, stage_layers_, micro_batch_, schedule_, zero_, recompute_, seq_parallel_}) {
        w->setEnabled(manual);
    }
}

int ScenarioEditor::acceleratorsPerNode() const {
    // Custom hardware may set its own count; else the chosen instance's.
    if (extras_->customField()->isChecked() && extras_->customPerNodeField()->value() > 0)
        return extras_->customPerNodeField()->value();
    for (const InstanceChoice& c : instances_) {
        if (c.type == instance_->currentData().toString()) return c.accelerators_per_node;
    }
    return 1;
}

void ScenarioEditor::updateDerived() {
    const int per_node = acceleratorsPerNode();
    const int devices = nodes_->value() * per_node;
    devices_->setText(tr("%1 accelerators (%2 per node)").arg(devices).arg(per_node));
    const int mp = tp_->value() * pp_->value();
    if (layout_mode_->currentIndex() != 1) {
        dp_->setText(searched_dp_ > 0 ? tr("%1 (searched)").arg(searched_dp_) : tr("searched"));
    } else if (devices % mp != 0) {
        dp_->setText(tr("invalid: TP × PP = %1 does not divide %2 devices").arg(mp).arg(devices));
    } else {
        dp_->setText(QString::number(devices / mp));
    }
}

void ScenarioEditor::emitEdited() {
    if (loading_) return;
    searched_dp_ = 0; // until the next evaluation says what the search chose
    updateEnabledState();
    updateDerived();
    emit edited();
}

} // namespace cp::gui
