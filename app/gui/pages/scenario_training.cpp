#include "pages/scenario_training.h"

#include "clusterplan/sim/framework.h"
#include "pages/form_fields.h"

#include <QCheckBox>
#include <QComboBox>
#include <QFormLayout>
#include <QGroupBox>
#include <QLabel>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <optional>

namespace cp::gui {

ScenarioTraining::ScenarioTraining(QWidget* parent) : QWidget(parent) {
    auto* root = new QVBoxLayout(this);
    root->setContentsMargins(0, 0, 0, 0);

    auto* method_box = new QGroupBox(tr("Method and optimizer"));
    auto* form = form_in(method_box);
    // Combo order follows the enums (TrainingMethod, LoraTargets, Optimizer, OffloadTarget).
    method_ = choice_field(
        {tr("Pre-training"), tr("Full fine-tune"), tr("LoRA"), tr("QLoRA (4-bit base)")},
        tr("LoRA trains low-rank adapters over frozen 16-bit weights; QLoRA stores the frozen "
           "weights in 4-bit NF4 and dequantises them for every use."));
    lora_rank_ = int_field(1, 65536, QString(), tr("LoRA rank r of the adapters A and B."));
    lora_targets_ = choice_field({tr("Attention (q, k, v, o)"), tr("MLP / experts"), tr("All")},
                                 tr("Which linear layers carry adapters."));
    optimizer_ = choice_field({tr("AdamW"), tr("AdamW 8-bit"), tr("Adafactor"), tr("SGD momentum"),
                               tr("Lion"), tr("AdamW full BF16 (Neuron)")},
                              tr("Optimizer state per trainable parameter: AdamW 8 B, 8-bit "
                                 "AdamW 2 B, Adafactor ~0, SGD and Lion 4 B (plus the fp32 "
                                 "master copy in mixed precision); full BF16 (Neuron "
                                 "XLA_USE_BF16) 4 B and no master copy."));
    const QStringList targets{tr("GPU (none)"), tr("Host memory"), tr("NVMe")};
    offload_optimizer_ = choice_field(
        targets, tr("ZeRO-Offload: gradients and optimizer state on the host, the optimizer "
                    "step on the CPU."));
    offload_params_ = choice_field(
        targets, tr("ZeRO-Infinity: parameters fetched for every pass (needs ZeRO-3)."));
    form->addRow(tr("Method:"), method_);
    form->addRow(tr("LoRA rank:"), lora_rank_);
    form->addRow(tr("LoRA targets:"), lora_targets_);
    form->addRow(tr("Optimizer:"), optimizer_);
    form->addRow(tr("Offload optimizer:"), offload_optimizer_);
    form->addRow(tr("Offload parameters:"), offload_params_);
    // Item data: the Framework enum; "automatic" first, as a left-out field.
    framework_ = choice_field(
        {tr("automatic (per hardware)")},
        tr("The training framework: it decides the attention kernel, whether collectives overlap "
           "compute, which ZeRO stages and parallelisms exist, and carries its own compute "
           "efficiency fitted on published runs. Automatic: Megatron-Core on NVIDIA GPUs "
           "(PyTorch FSDP for ZeRO-2/3 plans), NeuronX Distributed on Trainium, DeepSpeed "
           "elsewhere."));
    framework_->setItemData(0, static_cast<int>(sim::Framework::automatic));
    for (int i = 0; i < sim::kFrameworkCount; ++i) {
        const auto fw = static_cast<sim::Framework>(i);
        framework_->addItem(
            QString::fromLatin1(sim::enum_name(fw).data(), int(sim::enum_name(fw).size())), i);
    }
    framework_->setObjectName(QStringLiteral("framework"));
    // The scenario parser's range (parallel.cp); 0 stands for a left-out field.
    cp_ = int_field(0, 4096, QString(),
                    tr("Context-parallel ranks per sequence (ring attention: each rank holds "
                       "1/cp of the sequence; 2 × cp must divide the sequence length). Searched: "
                       "1 below 8K tokens, powers of two above, keeping ≥ 2K tokens per rank."));
    cp_->setSpecialValueText(tr("searched"));
    cp_->setObjectName(QStringLiteral("cp"));
    torch_compile_ = new QCheckBox(tr("torch.compile (fused pointwise kernels)"));
    torch_compile_->setObjectName(QStringLiteral("torch_compile"));
    torch_compile_->setToolTip(
        tr("PyTorch FSDP or DeepSpeed with Llama-style blocks: off runs the block's pointwise ops "
           "(RMSNorm, "
           "RoPE, SwiGLU) as eager PyTorch kernels, one memory round trip per op, as the Llama "
           "reference code writes them. The other frameworks run fused kernels."));
    message_ = new QLabel;
    message_->setObjectName(QStringLiteral("training_message"));
    message_->setWordWrap(true);
    message_->setStyleSheet(QStringLiteral("color: #c0392b"));
    message_->hide();
    form->addRow(tr("Framework:"), framework_);
    form->addRow(tr("Context parallel:"), cp_);
    form->addRow(QString(), torch_compile_);
    form->addRow(message_);

    moe_ = new QGroupBox(tr("Expert parallelism"));
    auto* moe = form_in(moe_);
    ep_ = int_field(0, 1 << 16, QString(),
                    tr("Expert-parallel ranks the experts are split over (all-to-all dispatch "
                       "and combine); searched when left at its minimum. The experts themselves "
                       "are part of the model's shape."));
    ep_->setSpecialValueText(tr("searched"));
    moe->addRow(tr("Expert parallel:"), ep_);

    root->addWidget(method_box);
    root->addWidget(moe_);

    for (QComboBox* c : {method_, lora_targets_, optimizer_, offload_optimizer_, offload_params_}) {
        connect(c, &QComboBox::currentIndexChanged, this, [this] { emitEdited(); });
    }
    for (QSpinBox* s : {lora_rank_, ep_})
        connect(s, &QSpinBox::valueChanged, this, [this] { emitEdited(); });
    connect(framework_, &QComboBox::currentIndexChanged, this, [this] { commitFramework(); });
    connect(cp_, &QSpinBox::valueChanged, this, [this] { commitFramework(); });
    connect(torch_compile_, &QCheckBox::toggled, this, [this] { commitFramework(); });
    updateEnabledState();
}

void ScenarioTraining::setScenario(const sim::Scenario& sc) {
    loading_ = true;
    const sim::FineTuning& ft = sc.workload.finetune;
    method_->setCurrentIndex(static_cast<int>(ft.method));
    lora_rank_->setValue(ft.lora.rank);
    lora_targets_->setCurrentIndex(static_cast<int>(ft.lora.targets));
    optimizer_->setCurrentIndex(static_cast<int>(sc.training.optimizer));
    offload_optimizer_->setCurrentIndex(static_cast<int>(sc.parallel.offload.optimizer));
    offload_params_->setCurrentIndex(static_cast<int>(sc.parallel.offload.params));
    showMoe(sc.workload.shape.moe);
    ep_->setValue(sc.parallel.ep.value_or(0));
    framework_accepted_ = sc.training.framework;
    cp_accepted_ = sc.parallel.cp;
    framework_->setCurrentIndex(
        std::max(0, framework_->findData(static_cast<int>(sc.training.framework))));
    cp_->setValue(sc.parallel.cp.value_or(0));
    torch_compile_accepted_ = sc.training.torch_compile;
    torch_compile_->setChecked(sc.training.torch_compile.value_or(true));
    message_->clear();
    message_->hide();
    loading_ = false;
    updateEnabledState();
}

void ScenarioTraining::showMoe(const sim::MoeShape& m) {
    const bool was_loading = loading_;
    loading_ = true;
    routes_experts_ = m.enabled();
    if (!routes_experts_) ep_->setValue(0);
    loading_ = was_loading;
    updateEnabledState();
}

void ScenarioTraining::apply(sim::Scenario& sc) const {
    sim::FineTuning& ft = sc.workload.finetune;
    ft.method = static_cast<sim::TrainingMethod>(method_->currentIndex());
    ft.lora.rank = lora_rank_->value();
    ft.lora.targets = static_cast<sim::LoraTargets>(lora_targets_->currentIndex());
    sc.training.optimizer = static_cast<sim::Optimizer>(optimizer_->currentIndex());
    sc.parallel.offload.optimizer =
        static_cast<sim::OffloadTarget>(offload_optimizer_->currentIndex());
    sc.parallel.offload.params = static_cast<sim::OffloadTarget>(offload_params_->currentIndex());
    sc.training.framework = framework_accepted_;
    sc.parallel.cp = cp_accepted_;
    sc.training.torch_compile = torch_compile_accepted_;
    sc.workload.shape.eager_elementwise = sim::eager_pointwise_kernels(sc);
    // The routing comes from the shape fields, written before these.
    const sim::MoeShape& m = sc.workload.shape.moe;
    if (m.enabled()) {
        // ep must divide the experts; a value that does not is searched instead.
        const int ep = ep_->value();
        sc.parallel.ep = ep > 0 && m.experts % ep == 0 ? std::optional<int>(ep) : std::nullopt;
    } else {
        sc.parallel.ep.reset();
        sc.parallel.etp.reset();
    }
}

QString ScenarioTraining::message() const {
    return message_->text();
}

void ScenarioTraining::commitFramework() {
    if (loading_) return;
    const auto framework = static_cast<sim::Framework>(framework_->currentData().toInt());
    const std::optional<int> cp =
        cp_->value() > 0 ? std::optional<int>(cp_->value()) : std::nullopt;
    // Checked keeps what the file said (true, or left out); unchecked states false.
    const std::optional<bool> torch_compile =
        torch_compile_->isChecked()
            ? (torch_compile_accepted_.value_or(true) ? torch_compile_accepted_ : std::nullopt)
            : std::optional<bool>(false);
    if (source_) {
        sim::Scenario next = source_();
        next.training.framework = framework;
        next.parallel.cp = cp;
        next.training.torch_compile = torch_compile;
        try {
            sim::parse_scenario(sim::scenario_to_json(next), "Plan page");
        } catch (const sim::ScenarioError& e) {
            // A field the edit does not touch is the plan's to report, not this box's.
            const std::string& f = e.field();
            if (f == "training.framework" || f == "parallel.cp" || f == "parallel.zero" ||
                f == "precision" || f == "training.torch_compile") {
                // The fields keep showing what was entered; the scenario keeps the last
                // accepted values.
                message_->setText(QString::fromStdString(e.what()));
                message_->show();
                return;
            }
        }
    }
    framework_accepted_ = framework;
    cp_accepted_ = cp;
    torch_compile_accepted_ = torch_compile;
    message_->clear();
    message_->hide();
    emitEdited();
}

void ScenarioTraining::updateEnabledState() {
    const auto method = static_cast<sim::TrainingMethod>(method_->currentIndex());
    const bool adapters =
        method == sim::TrainingMethod::lora || method == sim::TrainingMethod::qlora;
    lora_rank_->setEnabled(adapters);
    lora_targets_->setEnabled(adapters);
    ep_->setEnabled(routes_experts_);
}

void ScenarioTraining::emitEdited() {
    updateEnabledState();
    if (!loading_) emit edited();
}

} // namespace cp::gui
