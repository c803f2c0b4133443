// The scenario editor's training-method fields: what the run updates (pre-training, full
// fine-tuning, LoRA or QLoRA adapters with their rank and targets), the optimizer, where
// optimizer state and parameters live (GPU, host memory, NVMe), the training framework, whether
// PyTorch FSDP compiles the block (torch.compile), the context-parallel degree, and the
// expert-parallel size of a Mixture-of-Experts model (its routing is part of the model's shape,
// ModelShapeFields). The framework, torch.compile and context-parallel degree are read back by the
// scenario parser with the rest of the scenario before they are taken: a refused value is named in
// the box's message and the scenario keeps the last accepted one. Part of ScenarioEditor.
#pragma once

#include "clusterplan/sim/scenario.h"

#include <QWidget>
#include <functional>
#include <optional>
#include <string>

class QCheckBox;
class QComboBox;
class QGroupBox;
class QLabel;
class QSpinBox;

namespace cp::gui {

class ScenarioTraining : public QWidget {
    Q_OBJECT
public:
    explicit ScenarioTraining(QWidget* parent = nullptr);

    void setScenario(const sim::Scenario& scenario);
    // The model's routing changed (a preset, a shape edit): expert parallelism applies only while
    // it routes experts; a dense model clears it.
    void showMoe(const sim::MoeShape& moe);
    // Writes these fields into `scenario`, leaving every other field as it is.
    void apply(sim::Scenario& scenario) const;
    // The whole scenario as the editor holds it, for reading a framework or context-parallel edit
    // back through the scenario parser.
    void setScenarioSource(std::function<sim::Scenario()> source) { source_ = std::move(source); }
    // Why the last framework or context-parallel edit was refused (the parser's sentence), or "".
    QString message() const;

    // Field access for tests.
    QComboBox* methodField() const { return method_; }
    QSpinBox* loraRankField() const { return lora_rank_; }
    QComboBox* loraTargetsField() const { return lora_targets_; }
    QComboBox* optimizerField() const { return optimizer_; }
    QComboBox* offloadOptimizerField() const { return offload_optimizer_; }
    QComboBox* offloadParamsField() const { return offload_params_; }
    QSpinBox* epField() const { return ep_; }
    QComboBox* frameworkField() const { return framework_; }
    QSpinBox* contextParallelField() const { return cp_; }
    QCheckBox* torchCompileField() const { return torch_compile_; }

signals:
    void edited();

private:
    void updateEnabledState();
    void emitEdited();
    // Takes the framework, torch.compile and context-parallel degree the fields show once the
    // parser accepts the scenario with them; a refused value leaves the last accepted one and says
    // why.
    void commitFramework();

    bool loading_ = false;
    QComboBox* method_ = nullptr;
    QSpinBox* lora_rank_ = nullptr;
    QComboBox* lora_targets_ = nullptr;
    QComboBox* optimizer_ = nullptr;
    QComboBox* offload_optimizer_ = nullptr;
    QComboBox* offload_params_ = nullptr;
    QGroupBox* moe_ = nullptr;
    bool routes_experts_ = false;
    QSpinBox* ep_ = nullptr;
    QComboBox* framework_ = nullptr;
    QSpinBox* cp_ = nullptr;
    QCheckBox* torch_compile_ = nullptr;
    QLabel* message_ = nullptr;
    // The accepted framework and context-parallel degree (absent: searched).
    sim::Framework framework_accepted_ = sim::Framework::automatic;
    std::optional<int> cp_accepted_;
    std::optional<bool> torch_compile_accepted_; // absent: compiled (fused)
    std::function<sim::Scenario()> source_;
};

} // namespace cp::gui
