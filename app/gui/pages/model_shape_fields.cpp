#include "pages/model_shape_fields.h"

#include "pages/form_fields.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QSpinBox>
#include <QWidget>
#include <initializer_list>

namespace cp::gui {

ModelShapeFields::ModelShapeFields(QObject* parent) : QObject(parent) {
    layers_ = int_field(1, 1000, {}, tr("Transformer layers (blocks)."));
    hidden_ = int_field(64, 131072, {}, tr("Hidden size h (model width), elements."));
    heads_ = int_field(1, 1024, {}, tr("Attention heads; tensor parallelism must divide this."));
    kv_heads_ =
        int_field(1, 1024, {}, tr("Key/value heads (fewer than heads = grouped-query attention)."));
    head_dim_ = int_field(0, 1024, {},
                          tr("Width of one attention head; auto = hidden / heads (Qwen3 and "
                             "GPT-OSS use other widths)."));
    head_dim_->setSpecialValueText(tr("auto"));
    ffn_ = int_field(64, 524288, {}, tr("MLP inner size, elements (4·h for GPT-style models)."));
    seq_ = int_field(16, 1048576, tr(" tokens"), tr("Sequence length s, tokens per sample."));
    vocab_ = int_field(2, 1048576, tr(" tokens"), tr("Vocabulary size V, tokens."));
    gated_ = new QCheckBox(tr("Gated (SwiGLU) MLP"));
    gated_->setToolTip(tr("Three-matrix gated MLP as in LLaMA; GPT uses two matrices."));
    tied_ = new QCheckBox(tr("Output layer shares the input embedding"));
    tied_->setToolTip(tr("Tied embeddings (GPT-2/3, BERT); Llama 3 and Mixtral keep a second "
                         "vocabulary × hidden matrix."));
    const struct {
        QSpinBox* field;
        const char* name;
    } named[] = {{layers_, "layers"},     {hidden_, "hidden"},     {heads_, "heads"},
                 {kv_heads_, "kv_heads"}, {head_dim_, "head_dim"}, {ffn_, "ffn_hidden"},
                 {seq_, "seq_len"},       {vocab_, "vocab"}};
    // Named as the scenario file names them, so a test or a message finds the field.
    for (const auto& n : named) {
        n.field->setObjectName(QString::fromLatin1(n.name));
        connect(n.field, &QSpinBox::valueChanged, this, [this] {
            if (!loading_) emit edited();
        });
    }
    gated_->setObjectName(QStringLiteral("gated_mlp"));
    tied_->setObjectName(QStringLiteral("tied_embeddings"));
    for (QCheckBox* c : {gated_, tied_}) {
        connect(c, &QCheckBox::toggled, this, [this] {
            if (!loading_) emit edited();
        });
    }
}

void ModelShapeFields::addRows(QFormLayout* form) {
    form_ = form;
    heads_row_ = new QWidget;
    auto* h = new QHBoxLayout(heads_row_);
    h->setContentsMargins(0, 0, 0, 0);
    h->addWidget(heads_);
    h->addWidget(kv_heads_);
    h->addWidget(head_dim_);
    form->addRow(tr("Layers:"), layers_);
    form->addRow(tr("Hidden size:"), hidden_);
    form->addRow(tr("Heads / KV / head dim:"), heads_row_);
    form->addRow(tr("FFN size:"), ffn_);
    form->addRow(tr("Sequence length:"), seq_);
    form->addRow(tr("Vocabulary:"), vocab_);
    form->addRow(QString(), gated_);
    form->addRow(QString(), tied_);
}

void ModelShapeFields::setRowsVisible(bool visible) {
    if (form_ == nullptr) return;
    for (QWidget* w : std::initializer_list<QWidget*>{layers_, hidden_, heads_row_, ffn_, seq_,
                                                      vocab_, gated_, tied_})
        form_->setRowVisible(w, visible);
}

void ModelShapeFields::show(const sim::TransformerShape& s) {
    loading_ = true;
    layers_->setValue(s.layers);
    hidden_->setValue(s.hidden);
    heads_->setValue(s.heads);
    kv_heads_->setValue(s.kv_heads > 0 ? s.kv_heads : s.heads);
    ffn_->setValue(s.ffn_hidden);
    seq_->setValue(s.seq_len);
    vocab_->setValue(s.vocab);
    gated_->setChecked(s.gated_mlp);
    head_dim_->setValue(s.head_dim);
    tied_->setChecked(s.tied_embeddings);
    loading_ = false;
}

sim::TransformerShape ModelShapeFields::shape(sim::TransformerShape s) const {
    s.layers = layers_->value();
    s.hidden = hidden_->value();
    s.heads = heads_->value();
    s.kv_heads = kv_heads_->value();
    s.ffn_hidden = ffn_->value();
    s.seq_len = seq_->value();
    s.vocab = vocab_->value();
    s.gated_mlp = gated_->isChecked();
    s.head_dim = head_dim_->value();
    s.tied_embeddings = tied_->isChecked();
    return s;
}

} // namespace cp::gui
