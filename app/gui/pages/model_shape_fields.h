// The transformer shape fields that both model editors show, the Plan page's scenario editor and
// the Serve page's form: layers, hidden size, heads / KV heads / head width, FFN size, sequence
// length, vocabulary, gated MLP, tied embeddings, learned position table, the attention kernel and
// the Mixture-of-Experts routing (experts, top-k, shared experts, expert FFN size, which layers
// route, the capacity factor), each with its range, unit and tooltip. The rows go into the owner's
// form, so their labels line up with its other fields; the routing rows beyond the expert count
// show only while the model routes experts.
#pragma once

#include "clusterplan/sim/workload.h"

#include <QObject>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QSpinBox;
class QWidget;

namespace cp::gui {

class ModelShapeFields : public QObject {
    Q_OBJECT
public:
    explicit ModelShapeFields(QObject* parent = nullptr);

    void addRows(QFormLayout* form);
    void setRowsVisible(bool visible);
    // Shows `shape` without emitting edited().
    void show(const sim::TransformerShape& shape);
    // `base` with the shown fields written over it; the fields this editor lacks (encoder-only,
    // the vocabulary head's positions ...) stay as `base` has them. An expert count of 0 makes
    // the model dense.
    sim::TransformerShape shape(sim::TransformerShape base) const;

    QSpinBox* layersField() const { return layers_; }
    QSpinBox* hiddenField() const { return hidden_; }
    QSpinBox* headsField() const { return heads_; }
    QSpinBox* kvHeadsField() const { return kv_heads_; }
    QSpinBox* headDimField() const { return head_dim_; }
    QSpinBox* ffnField() const { return ffn_; }
    QSpinBox* seqLenField() const { return seq_; }
    QSpinBox* vocabField() const { return vocab_; }
    QCheckBox* gatedField() const { return gated_; }
    QCheckBox* tiedEmbeddingsField() const { return tied_; }
    QCheckBox* learnedPositionsField() const { return learned_positions_; }
    // Unfused (the s × s scores reach memory), the FlashAttention-1 generation, FlashAttention-2.
    QComboBox* attentionKernelField() const { return attention_; }
    QDoubleSpinBox* capacityFactorField() const { return capacity_factor_; }
    QSpinBox* expertsField() const { return experts_; }
    QSpinBox* expertsPerTokenField() const { return experts_per_token_; }
    QSpinBox* sharedExpertsField() const { return shared_experts_; }
    QSpinBox* expertFfnField() const { return expert_ffn_; }
    QSpinBox* moeLayerFreqField() const { return layer_freq_; }

signals:
    void edited();
    // The attention kernel changed: how the model runs, not what it is (the Plan page keeps the
    // preset for it).
    void attentionEdited();

private:
    // The routing rows follow the expert count: shown while it routes (2 or more experts).
    void updateExpertRows();

    bool loading_ = false;
    bool rows_visible_ = true;
    QFormLayout* form_ = nullptr;
    QWidget* heads_row_ = nullptr;
    QWidget* routing_row_ = nullptr;
    QWidget* expert_row_ = nullptr;
    QSpinBox* layers_ = nullptr;
    QSpinBox* hidden_ = nullptr;
    QSpinBox* heads_ = nullptr;
    QSpinBox* kv_heads_ = nullptr;
    QSpinBox* head_dim_ = nullptr;
    QSpinBox* ffn_ = nullptr;
    QSpinBox* seq_ = nullptr;
    QSpinBox* vocab_ = nullptr;
    QCheckBox* gated_ = nullptr;
    QCheckBox* tied_ = nullptr;
    QCheckBox* learned_positions_ = nullptr;
    QComboBox* attention_ = nullptr;
    QDoubleSpinBox* capacity_factor_ = nullptr;
    QSpinBox* experts_ = nullptr;
    QSpinBox* experts_per_token_ = nullptr;
    QSpinBox* shared_experts_ = nullptr;
    QSpinBox* expert_ffn_ = nullptr;
    QSpinBox* layer_freq_ = nullptr;
};

} // namespace cp::gui
