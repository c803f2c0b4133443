#include "pages/model_shape_fields.h"

#include "pages/form_fields.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QSpinBox>
#include <QWidget>
#include <algorithm>
#include <cmath>
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
    learned_positions_ = new QCheckBox(tr("Learned position table"));
    learned_positions_->setToolTip(tr("A sequence length × hidden position embedding, counted in "
                                      "the parameters and the weights (GPT-2/3, BERT); rotary "
                                      "models (Llama, Mixtral, Qwen) have none."));
    // Entry order: unfused, FlashAttention-1 generation, FlashAttention-2 (model.flash_attention
    // false, attention_kernel flash1, attention_kernel flash2).
    attention_ = choice_field(
        {tr("unfused (scores in memory)"), tr("FlashAttention-1 generation"),
         tr("FlashAttention-2")},
        tr("Training: the attention kernel. Unfused kernels (Megatron-LM before fused attention) "
           "store the s² scores; the FlashAttention-1 generation (Triton, xFormers) fuses them at "
           "about half FlashAttention-2's rate (Dao 2023). A scenario without it gets its "
           "framework's kernel.\nServing plans use the engine's own kernel: fused on GPUs "
           "and Trainium2, the scores materialised in the Neuron engine's context encoding on "
           "Inferentia2 and Trainium1."));
    // The scenario parser's ranges (model.experts ...); 0 experts stands for a dense model.
    experts_ = int_field(0, 1 << 16, {},
                         tr("Routed experts per Mixture-of-Experts layer (Mixtral 8, Qwen3-30B-A3B "
                            "128); dense: no routing."));
    experts_->setSpecialValueText(tr("dense model"));
    experts_per_token_ = int_field(1, 1 << 16, {},
                                   tr("Experts each token is routed to (top-k); at most the "
                                      "expert count."));
    shared_experts_ = int_field(0, 1 << 16, {}, tr("Experts every token passes through."));
    expert_ffn_ = int_field(1, 1 << 20, {}, tr("MLP inner size of one expert, elements."));
    layer_freq_ = int_field(1, 1 << 16, tr(" layers"),
                            tr("Every n-th layer routes experts; the others keep the dense MLP "
                               "(1: every layer). At most the layer count."));
    layer_freq_->setPrefix(tr("every "));
    layer_freq_->setSpecialValueText(tr("every layer"));
    capacity_factor_ = real_field(0, 1e6, tr(" × mean"),
                                  tr("Training: the busiest expert takes at most this multiple "
                                     "of the mean load and drops the rest (GShard, Switch "
                                     "Transformer); no cap: dropless routing (Megablocks, "
                                     "Megatron-Core's default), the busiest expert at the mean."
                                     "\nServing plans route without dropping (vLLM fused_moe, "
                                     "TensorRT-LLM) and do not use it."));
    capacity_factor_->setSpecialValueText(tr("no cap (dropless)"));
    capacity_factor_->setObjectName(QStringLiteral("capacity_factor"));
    const struct {
        QSpinBox* field;
        const char* name;
    } named[] = {{layers_, "layers"},
                 {hidden_, "hidden"},
                 {heads_, "heads"},
                 {kv_heads_, "kv_heads"},
                 {head_dim_, "head_dim"},
                 {ffn_, "ffn_hidden"},
                 {seq_, "seq_len"},
                 {vocab_, "vocab"},
                 {experts_, "experts"},
                 {experts_per_token_, "experts_per_token"},
                 {shared_experts_, "shared_experts"},
                 {expert_ffn_, "moe_ffn_hidden"},
                 {layer_freq_, "moe_layer_freq"}};
    // Top-k never exceeds a routing expert count, so the editor cannot state a routing the parser
    // refuses; before the edit signal, so an owner reads the capped value. A count that routes
    // nothing (dense, or a refused 1) leaves top-k as it was for the next count.
    connect(experts_, &QSpinBox::valueChanged, this, [this](int experts) {
        if (experts >= 2) experts_per_token_->setMaximum(experts);
        updateExpertRows();
    });
    // Named as the scenario file names them, so a test or a message finds the field.
    for (const auto& n : named) {
        n.field->setObjectName(QString::fromLatin1(n.name));
        connect(n.field, &QSpinBox::valueChanged, this, [this] {
            if (!loading_) emit edited();
        });
    }
    gated_->setObjectName(QStringLiteral("gated_mlp"));
    tied_->setObjectName(QStringLiteral("tied_embeddings"));
    learned_positions_->setObjectName(QStringLiteral("learned_positions"));
    attention_->setObjectName(QStringLiteral("attention_kernel"));
    for (QCheckBox* c : {gated_, tied_, learned_positions_}) {
        connect(c, &QCheckBox::toggled, this, [this] {
            if (!loading_) emit edited();
        });
    }
    connect(attention_, &QComboBox::currentIndexChanged, this, [this] {
        if (!loading_) emit attentionEdited();
    });
    connect(capacity_factor_, &QDoubleSpinBox::valueChanged, this, [this] {
        if (!loading_) emit edited();
    });
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
    form->addRow(QString(), learned_positions_);
    form->addRow(tr("Attention:"), attention_);
    routing_row_ = new QWidget;
    auto* r = new QHBoxLayout(routing_row_);
    r->setContentsMargins(0, 0, 0, 0);
    r->addWidget(experts_per_token_);
    r->addWidget(shared_experts_);
    form->addRow(tr("Experts:"), experts_);
    form->addRow(tr("Top-k / shared:"), routing_row_);
    expert_row_ = new QWidget;
    auto* e = new QHBoxLayout(expert_row_);
    e->setContentsMargins(0, 0, 0, 0);
    e->addWidget(expert_ffn_);
    e->addWidget(layer_freq_);
    form->addRow(tr("Expert FFN / MoE:"), expert_row_);
    form->addRow(tr("Capacity factor:"), capacity_factor_);
    for (QSpinBox* f : {experts_per_token_, shared_experts_, expert_ffn_, layer_freq_})
        share_row_width(f);
    share_row_width(capacity_factor_);
    updateExpertRows();
}

void ModelShapeFields::updateExpertRows() {
    if (form_ == nullptr) return;
    const bool routed = rows_visible_ && experts_->value() >= 2;
    form_->setRowVisible(routing_row_, routed);
    form_->setRowVisible(expert_row_, routed);
    form_->setRowVisible(capacity_factor_, routed);
}

void ModelShapeFields::setRowsVisible(bool visible) {
    rows_visible_ = visible;
    if (form_ == nullptr) return;
    for (QWidget* w :
         std::initializer_list<QWidget*>{layers_, hidden_, heads_row_, ffn_, seq_, vocab_, gated_,
                                         tied_, learned_positions_, attention_, experts_})
        form_->setRowVisible(w, visible);
    updateExpertRows();
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
    learned_positions_->setChecked(s.learned_positions);
    attention_->setCurrentIndex(!s.flash_attention ? 0 : s.flash_attention_v1 ? 1 : 2);
    const sim::MoeShape& m = s.moe;
    experts_->setValue(m.enabled() ? m.experts : 0);
    experts_per_token_->setValue(std::max(1, m.experts_per_token));
    shared_experts_->setValue(m.shared_experts);
    // A dense model offers its own MLP width as the expert size it would start from.
    expert_ffn_->setValue(m.moe_ffn_hidden > 0 ? m.moe_ffn_hidden : s.ffn_hidden);
    layer_freq_->setValue(m.moe_layer_freq);
    capacity_factor_->setValue(m.capacity_factor);
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
    s.learned_positions = learned_positions_->isChecked();
    s.flash_attention = attention_->currentIndex() > 0;
    s.flash_attention_v1 = attention_->currentIndex() == 1;
    if (experts_->value() == 0) {
        s.moe = sim::MoeShape{};
    } else {
        s.moe.experts = experts_->value();
        s.moe.experts_per_token = experts_per_token_->value();
        s.moe.shared_experts = shared_experts_->value();
        s.moe.moe_ffn_hidden = expert_ffn_->value();
        s.moe.moe_layer_freq = layer_freq_->value();
        s.moe.capacity_factor = capacity_factor_->value();
    }
    return s;
}

} // namespace cp::gui
