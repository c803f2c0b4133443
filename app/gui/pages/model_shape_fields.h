// The transformer shape fields that both model editors show, the Plan page's scenario editor and
// the Serve page's form: layers, hidden size, heads / KV heads / head width, FFN size, sequence
// length, vocabulary, gated MLP and tied embeddings, each with its range, unit and tooltip. The
// rows go into the owner's form, so their labels line up with its other fields.
#pragma once

#include "clusterplan/sim/workload.h"

#include <QObject>

class QCheckBox;
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
    // `base` with the shown fields written over it; the fields this editor lacks (MoE, fused
    // attention, encoder-only ...) stay as `base` has them.
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

signals:
    void edited();

private:
    bool loading_ = false;
    QFormLayout* form_ = nullptr;
    QWidget* heads_row_ = nullptr;
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
};

} // namespace cp::gui
