// The scenario editor's training-method fields: what the run updates (pre-training, full
// fine-tuning, LoRA or QLoRA adapters with their rank and targets), the optimizer, where
// optimizer state and parameters live (GPU, host memory, NVMe), and the expert-parallel size of
// a Mixture-of-Experts model (its routing is part of the model's shape, ModelShapeFields). Part
// of ScenarioEditor.
#pragma once

#include "clusterplan/sim/scenario.h"

#include <QWidget>

class QComboBox;
class QGroupBox;
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

    // Field access for tests.
    QComboBox* methodField() const { return method_; }
    QSpinBox* loraRankField() const { return lora_rank_; }
    QComboBox* loraTargetsField() const { return lora_targets_; }
    QComboBox* optimizerField() const { return optimizer_; }
    QComboBox* offloadOptimizerField() const { return offload_optimizer_; }
    QComboBox* offloadParamsField() const { return offload_params_; }
    QSpinBox* epField() const { return ep_; }

signals:
    void edited();

private:
    void updateEnabledState();
    void emitEdited();

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
};

} // namespace cp::gui
