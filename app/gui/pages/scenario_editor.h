// The Plan page's scenario editor: every field of a clusterplan.scenario/1 document that a
// user plans with, each with a tooltip and unit. Emits edited() on any change.
#pragma once

#include "clusterplan/sim/scenario.h"

#include <QWidget>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QSpinBox;

namespace cp::gui {
class ModelShapeFields;
class ScenarioExtras;
class ScenarioTraining;
} // namespace cp::gui

namespace cp::gui {

struct InstanceChoice {
    QString type;        // "p4d.24xlarge"
    QString description; // "8 × A100-40GB"
    int accelerators_per_node = 1;
};

struct PresetChoice {
    QString id;    // "gpt3-175b"
    QString label; // "GPT-3 175B"
    sim::Workload workload;
    int global_batch = 0;
};

class ScenarioEditor : public QWidget {
    Q_OBJECT
public:
    explicit ScenarioEditor(QWidget* parent = nullptr);

    void setInstances(const std::vector<InstanceChoice>& instances);
    void setPresets(const std::vector<PresetChoice>& presets);
    // Regions with prices and accelerator ids, for the region and custom-hardware fields.
    void setCatalogChoices(const QStringList& regions, const QStringList& accelerators);

    // Shows `scenario`; fields it does not cover are kept and written back by scenario().
    void setScenario(const sim::Scenario& scenario);
    sim::Scenario scenario() const;

    // In search mode, shows the layout the search chose in the (disabled) manual fields, so they
    // never display stale values and switching to Manual starts from the searched layout.
    void showSearchedLayout(const sim::Layout& layout);

    // Field access for tests and shortcuts.
    QSpinBox* nodesField() const { return nodes_; }
    QComboBox* instanceField() const { return instance_; }
    QComboBox* layoutModeField() const { return layout_mode_; }
    QSpinBox* tensorParallelField() const { return tp_; }
    QComboBox* zeroField() const { return zero_; }
    QSpinBox* pipelineParallelField() const { return pp_; }
    QLineEdit* stageLayersField() const { return stage_layers_; }
    // The shape fields' attention kernel (unfused, FlashAttention-1 generation, FlashAttention-2).
    QComboBox* attentionKernelField() const;
    QSpinBox* headDimField() const;
    QCheckBox* tiedEmbeddingsField() const;
    ModelShapeFields* shapeFields() const { return shape_; }
    QComboBox* presetField() const { return preset_; }
    ScenarioExtras* extras() const { return extras_; }
    ScenarioTraining* training() const { return training_; }

signals:
    void edited();

private:
    void onPresetChosen();
    void updateEnabledState();
    bool genericModel() const; // a generic preset (ResNet-50 ...) is chosen
    double sizeScale() const;  // the dataset field's unit: 1e9 tokens, or 1e6 samples (generic)
    void updateSizeUnit();
    void updateDerived();
    int acceleratorsPerNode() const;
    void emitEdited();

    sim::Scenario base_; // keeps fields the editor does not show (dp_comm, parameter servers...)
    std::vector<InstanceChoice> instances_;
    std::vector<PresetChoice> presets_;
    bool loading_ = false;
    int searched_dp_ = 0;    // data-parallel degree the search chose (0: none yet)
    int searched_cp_ = 1;    // context parallelism of the shown searched layout
    double loaded_size_ = 0; // the dataset field's value as setScenario() showed it
    sim::WorkloadKind loaded_kind_ = sim::WorkloadKind::transformer; // ... and the model kind then

    QComboBox* preset_ = nullptr;
    ModelShapeFields* shape_ = nullptr; // layers, widths, heads, vocabulary (shared with Serve)
    QLabel* generic_info_ = nullptr;
    QFormLayout* model_form_ = nullptr;
    QDoubleSpinBox* tokens_b_ = nullptr;
    QComboBox* precision_ = nullptr;
    QComboBox* instance_ = nullptr;
    QSpinBox* nodes_ = nullptr;
    QLabel* devices_ = nullptr;
    QComboBox* pricing_ = nullptr;
    QComboBox* layout_mode_ = nullptr;
    QSpinBox* tp_ = nullptr;
    QSpinBox* pp_ = nullptr;
    QLabel* dp_ = nullptr;
    QSpinBox* micro_batch_ = nullptr;
    QSpinBox* global_batch_ = nullptr;
    QComboBox* schedule_ = nullptr;
    QCheckBox* seq_parallel_ = nullptr;
    QLineEdit* stage_layers_ = nullptr; // manual layout: layers per stage, empty = default split
    QComboBox* zero_ = nullptr;
    QComboBox* recompute_ = nullptr;
    QSpinBox* max_nodes_ = nullptr;
    QDoubleSpinBox* deadline_h_ = nullptr;
    QDoubleSpinBox* budget_usd_ = nullptr;
    QComboBox* objective_ = nullptr;
    ScenarioExtras* extras_ = nullptr;     // tuning, spot, region, instance list, custom hardware
    ScenarioTraining* training_ = nullptr; // method, optimizer, offload, MoE
};

} // namespace cp::gui
