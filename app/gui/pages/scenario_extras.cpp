#include "pages/scenario_extras.h"

#include "clusterplan/sim/scenario_limits.h"
#include "pages/form_fields.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLineEdit>
#include <QMenu>
#include <QSpinBox>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>

namespace cp::gui {
namespace {

// A value the scenario may leave out (NaN: taken from the catalog instance), shown at the
// field's minimum as "from the instance".
QDoubleSpinBox* optional_field(double min, double max, const QString& suffix, const QString& tip) {
    QDoubleSpinBox* box = real_field(min, max, suffix, tip);
    box->setSpecialValueText(QObject::tr("from the instance"));
    return box;
}

void show_optional(QDoubleSpinBox* box, double v) {
    box->setValue(std::isfinite(v) ? v : box->minimum());
}

double read_optional(const QDoubleSpinBox* box) {
    return box->value() > box->minimum() ? box->value() : sim::kUnknown;
}

std::string text_of(const QComboBox* box) {
    return box->currentText().trimmed().toStdString();
}

} // namespace

ScenarioExtras::ScenarioExtras(QWidget* parent) : QWidget(parent) {
    auto* root = new QVBoxLayout(this);
    root->setContentsMargins(0, 0, 0, 0);

    auto* job_box = new QGroupBox(tr("Tuning and spot"));
    auto* job = form_in(job_box);
    trials_ = int_field(1, 1000000, tr(" trials"),
                        tr("Hyper-parameter tuning: training jobs run with different settings; "
                           "times and costs are for the whole tuning job."));
    parallel_trials_ = int_field(1, 1000000, tr(" at a time"),
                                 tr("Trials running at once, each on its own cluster (SageMaker "
                                    "max_parallel_jobs); 1 runs them one after another."));
    allow_spot_ = new QCheckBox(tr("Spot instances may be recommended"));
    allow_spot_->setToolTip(
        tr("Off: recommendations and the Pareto front use on-demand prices only."));
    checkpoint_write_s_ =
        real_field(0, sim::limits::kMaxSpotSeconds, tr(" s"),
                   tr("Time to write one checkpoint: periodic checkpoints cost it, and "
                      "an interrupted spot job loses the work since the last one."));
    restart_s_ = real_field(0, sim::limits::kMaxSpotSeconds, tr(" s"),
                            tr("Time from a spot interruption to training again (new instances, "
                               "loading the checkpoint)."));
    checkpoint_on_notice_ = new QCheckBox(tr("Checkpoint on the 2-minute notice"));
    checkpoint_on_notice_->setToolTip(
        tr("The job writes a checkpoint when AWS announces the interruption, so no work is lost; "
           "needs a checkpoint write of at most 120 s."));
    job->addRow(tr("Trials:"), trials_);
    job->addRow(tr("Parallel trials:"), parallel_trials_);
    job->addRow(QString(), allow_spot_);
    job->addRow(tr("Checkpoint write:"), checkpoint_write_s_);
    job->addRow(tr("Restart:"), restart_s_);
    job->addRow(QString(), checkpoint_on_notice_);

    auto* search_box = new QGroupBox(tr("Search"));
    auto* search = form_in(search_box);
    region_ = choice_field({}, tr("AWS region whose prices are used."));
    region_->setEditable(true);
    instances_button_ = new QToolButton;
    instances_button_->setPopupMode(QToolButton::InstantPopup);
    instances_button_->setToolButtonStyle(Qt::ToolButtonTextOnly);
    instances_button_->setToolTip(
        tr("Instance types the Scaling page and recommendations consider; "
           "none ticked = every type that can train."));
    instances_menu_ = new QMenu(instances_button_);
    instances_button_->setMenu(instances_menu_);
    search->addRow(tr("Region:"), region_);
    search->addRow(tr("Instances:"), instances_button_);

    custom_ = new QGroupBox(tr("Custom hardware"));
    custom_->setCheckable(true);
    custom_->setToolTip(tr("Hardware that is not in the catalog (an on-prem pod), or figures that "
                           "override the chosen instance's. Fields left at \"from the instance\" "
                           "keep the catalog's value."));
    auto* custom = form_in(custom_);
    accelerator_ = choice_field({}, tr("Accelerator (datasheet figures from the catalog)."));
    per_node_ = int_field(0, 1024, tr(" per node"), tr("Accelerators per node."));
    per_node_->setSpecialValueText(tr("from the instance"));
    intra_gbytes_per_s_ = optional_field(0, sim::limits::kMaxGbytesPerS, tr(" GB/s"),
                                         tr("Link bandwidth inside a node, per accelerator and "
                                            "direction (NVLink 3: 300 GB/s)."));
    inter_gbps_ =
        optional_field(0, sim::limits::kMaxGbps, tr(" Gbps"),
                       tr("Network bandwidth between nodes, the node's total (P4d: 400 Gbps)."));
    latency_us_ = optional_field(-1, sim::limits::kMaxLatencyUs, tr(" µs"),
                                 tr("Network latency between nodes."));
    usd_per_node_hour_ = optional_field(-1, sim::limits::kMaxUsdPerNodeHour, tr(" USD/h"),
                                        tr("Price per node-hour; 0 for hardware already owned."));
    custom->addRow(tr("Accelerator:"), accelerator_);
    custom->addRow(tr("Accelerators:"), per_node_);
    custom->addRow(tr("Intra-node:"), intra_gbytes_per_s_);
    custom->addRow(tr("Inter-node:"), inter_gbps_);
    custom->addRow(tr("Latency:"), latency_us_);
    custom->addRow(tr("Price:"), usd_per_node_hour_);

    for (QGroupBox* box : {job_box, search_box, custom_})
        root->addWidget(box);

    for (QSpinBox* s : {trials_, parallel_trials_, per_node_})
        connect(s, &QSpinBox::valueChanged, this, [this] { emitEdited(); });
    for (QDoubleSpinBox* s : {checkpoint_write_s_, restart_s_, intra_gbytes_per_s_, inter_gbps_,
                              latency_us_, usd_per_node_hour_})
        connect(s, &QDoubleSpinBox::valueChanged, this, [this] { emitEdited(); });
    for (QCheckBox* c : {allow_spot_, checkpoint_on_notice_})
        connect(c, &QCheckBox::toggled, this, [this] { emitEdited(); });
    connect(custom_, &QGroupBox::toggled, this, [this] { emitEdited(); });
    connect(accelerator_, &QComboBox::currentIndexChanged, this, [this] { emitEdited(); });
    // Typed region names count when editing ends, not at every keystroke.
    connect(region_, &QComboBox::currentIndexChanged, this, [this] { emitEdited(); });
    connect(region_->lineEdit(), &QLineEdit::editingFinished, this, [this] { emitEdited(); });
    updateInstancesText();
}

void ScenarioExtras::setInstanceTypes(const QStringList& types) {
    const bool was_loading = loading_;
    loading_ = true;
    const std::vector<std::string> chosen = chosenInstances();
    instances_menu_->clear();
    for (const QString& type : types) {
        QAction* a = instances_menu_->addAction(type);
        a->setCheckable(true);
        connect(a, &QAction::toggled, this, [this] {
            updateInstancesText();
            emitEdited();
        });
    }
    showInstances(chosen);
    loading_ = was_loading;
}

void ScenarioExtras::setCatalogChoices(const QStringList& regions,
                                       const QStringList& accelerators) {
    loading_ = true;
    const QString region = region_->currentText();
    region_->clear();
    region_->addItems(regions);
    region_->setCurrentText(region);
    const QString accelerator = accelerator_->currentData().toString();
    accelerator_->clear();
    accelerator_->addItem(tr("from the instance"), QString());
    for (const QString& a : accelerators)
        accelerator_->addItem(a, a);
    accelerator_->setCurrentIndex(std::max(0, accelerator_->findData(accelerator)));
    loading_ = false;
}

void ScenarioExtras::setScenario(const sim::Scenario& sc) {
    loading_ = true;
    trials_->setValue(sc.training.trials);
    parallel_trials_->setValue(sc.training.max_parallel_trials);
    allow_spot_->setChecked(sc.constraints.allow_spot);
    checkpoint_write_s_->setValue(sc.spot.checkpoint_write_s);
    restart_s_->setValue(sc.spot.restart_s);
    checkpoint_on_notice_->setChecked(sc.spot.checkpoint_on_notice);
    region_->setCurrentText(QString::fromStdString(sc.region));
    showInstances(sc.constraints.instances);
    custom_->setChecked(sc.custom.has_value());
    const sim::CustomHardware c = sc.custom.value_or(sim::CustomHardware{});
    const QString accelerator = QString::fromStdString(c.accelerator);
    // An accelerator the catalog does not list is kept, not replaced by the first one.
    if (!accelerator.isEmpty() && accelerator_->findData(accelerator) < 0)
        accelerator_->addItem(accelerator, accelerator);
    accelerator_->setCurrentIndex(std::max(0, accelerator_->findData(accelerator)));
    per_node_->setValue(c.accelerators_per_node);
    show_optional(intra_gbytes_per_s_, c.intra_node_gbytes_per_s);
    show_optional(inter_gbps_, c.inter_node_gbps);
    show_optional(latency_us_, c.inter_node_latency_us);
    show_optional(usd_per_node_hour_, c.usd_per_node_hour);
    loading_ = false;
    updateEnabledState();
}

void ScenarioExtras::apply(sim::Scenario& sc) const {
    sc.training.trials = trials_->value();
    sc.training.max_parallel_trials = parallel_trials_->value();
    sc.constraints.allow_spot = allow_spot_->isChecked();
    sc.spot.checkpoint_write_s = checkpoint_write_s_->value();
    sc.spot.restart_s = restart_s_->value();
    // The parser refuses checkpoint-on-notice with a write longer than the notice: so does this.
    sc.spot.checkpoint_on_notice =
        checkpoint_on_notice_->isChecked() && sc.spot.checkpoint_write_s <= 120;
    if (const std::string region = text_of(region_); !region.empty()) sc.region = region;
    sc.constraints.instances = chosenInstances();
    if (!custom_->isChecked()) {
        sc.custom.reset();
        return;
    }
    sim::CustomHardware c;
    c.accelerator = accelerator_->currentData().toString().toStdString();
    c.accelerators_per_node = per_node_->value();
    c.intra_node_gbytes_per_s = read_optional(intra_gbytes_per_s_);
    c.inter_node_gbps = read_optional(inter_gbps_);
    c.inter_node_latency_us = read_optional(latency_us_);
    c.usd_per_node_hour = read_optional(usd_per_node_hour_);
    sc.custom = c;
}

void ScenarioExtras::showInstances(const std::vector<std::string>& chosen) {
    const bool was_loading = loading_;
    loading_ = true;
    for (QAction* a : instances_menu_->actions()) {
        a->setChecked(std::find(chosen.begin(), chosen.end(), a->text().toStdString()) !=
                      chosen.end());
    }
    loading_ = was_loading;
    updateInstancesText();
}

std::vector<std::string> ScenarioExtras::chosenInstances() const {
    std::vector<std::string> out;
    for (const QAction* a : instances_menu_->actions()) {
        if (a->isChecked()) out.push_back(a->text().toStdString());
    }
    return out;
}

void ScenarioExtras::updateInstancesText() {
    const std::vector<std::string> chosen = chosenInstances();
    instances_button_->setText(chosen.empty()       ? tr("all that can train")
                               : chosen.size() == 1 ? QString::fromStdString(chosen.front())
                                                    : tr("%1 types").arg(chosen.size()));
}

void ScenarioExtras::updateEnabledState() {
    checkpoint_on_notice_->setEnabled(checkpoint_write_s_->value() <= 120);
    parallel_trials_->setEnabled(trials_->value() > 1);
}

void ScenarioExtras::emitEdited() {
    if (loading_) return;
    updateEnabledState();
    emit edited();
}

} // namespace cp::gui
