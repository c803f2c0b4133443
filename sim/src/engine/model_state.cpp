#include "engine/model_state.h"

#include "engine/memory_model.h"
#include "engine/optimizer_state.h"
#include "engine/pipeline_stages.h"
#include "engine/transformer_work.h"

#include <algorithm>

namespace cp::sim {

LayerPieces layer_pieces(const TransformerShape& s, const FineTuning& ft) {
    LayerPieces p;
    const double h = s.hidden, f = s.ffn_width();
    const double kv_dim = s.kv_width(), q = s.query_width();
    const double matrices = s.gated_mlp ? 3.0 : 2.0;
    p.dense_mlp_linear = matrices * h * f;
    p.dense_mlp = p.dense_mlp_linear + (s.gated_mlp ? 2.0 : 1.0) * f + h;
    p.attention_rest = transformer_layer_params(s) - p.dense_mlp;
    p.attention_linear = h * (2.0 * q + 2.0 * kv_dim);
    if (s.moe.enabled()) {
        p.experts = s.moe.experts;
        p.expert = matrices * h * s.moe.moe_ffn_hidden;
        p.router = h * s.moe.experts;
        p.shared = s.moe.shared_experts * p.expert;
        p.moe_fraction = double(s.moe.moe_layers(s.layers)) / s.layers;
    }
    if (ft.adapters()) {
        const double r = ft.lora.rank;
        const bool attention = ft.lora.targets != LoraTargets::mlp;
        const bool mlp = ft.lora.targets != LoraTargets::attention;
        // LoRA adds A (r x in) and B (out x r) beside each targeted matrix (Hu et al. 2021).
        if (attention) p.attention_adapters = r * (2.0 * (h + q) + 2.0 * (h + kv_dim));
        if (mlp) {
            p.mlp_adapters = matrices * r * (h + f);
            if (s.moe.enabled()) p.expert_adapters = matrices * r * (h + s.moe.moe_ffn_hidden);
        }
    }
    return p;
}

namespace {

// Parameters of `layers` layers plus the embedding share, sharded by tp (dense) and ep*etp
// (experts); `embedding_share` 0 for stages without the embedding; `pp` picks how much of an
// untied embedding one end stage holds.
DeviceParams params_of(const Workload& w, double layers, double tp, double ep_etp,
                       double embedding_share, int pp = 1) {
    const TransformerShape& s = w.shape;
    const LayerPieces p = layer_pieces(s, w.finetune);
    const double moe = p.moe_fraction, dense_layers = layers * (1.0 - moe),
                 moe_layers = layers * moe;
    DeviceParams d;
    d.frozen = w.finetune.adapters();
    const double embedding =
        embedding_share * (transformer_end_stage_embedding_params(s, pp) + 2.0 * s.hidden);
    d.dense = (layers * p.attention_rest + dense_layers * p.dense_mlp + moe_layers * p.shared +
               embedding) /
                  tp +
              moe_layers * p.router;
    d.expert = moe_layers * p.experts * p.expert / ep_etp;
    d.quantizable =
        (layers * p.attention_linear + dense_layers * p.dense_mlp_linear + moe_layers * p.shared) /
        tp;
    d.adapters = (layers * p.attention_adapters + dense_layers * p.mlp_adapters +
                  moe_layers * s.moe.shared_experts * p.expert_adapters) /
                     tp +
                 moe_layers * p.experts * p.expert_adapters / ep_etp;
    return d;
}

double sharded(double value, bool shard, int group) {
    return shard ? value / std::max(1, group) : value;
}

} // namespace

int dense_data_parallel(const Layout& layout) {
    return std::max(1, layout.dp) * std::max(1, layout.cp);
}

int expert_data_parallel(const Layout& layout) {
    const int ep_etp = std::max(1, layout.ep) * std::max(1, layout.etp);
    return std::max(1, layout.tp * dense_data_parallel(layout) / ep_etp);
}

DeviceParams device_params(const Workload& workload, const Layout& layout) {
    // The fullest stage (pipeline_stages.h): an end stage with the embedding, or a middle one.
    const StageSplit split = stage_split(workload.shape.layers, layout);
    const double ep_etp = double(std::max(1, layout.ep)) * std::max(1, layout.etp);
    const DeviceParams ends =
        params_of(workload, std::max(split.first, split.last), layout.tp, ep_etp, 1.0, layout.pp);
    const DeviceParams middle = params_of(workload, split.middle, layout.tp, ep_etp, 0.0);
    return middle.total() > ends.total() ? middle : ends;
}

double total_params(const Workload& workload) {
    if (workload.kind == WorkloadKind::generic) return workload.params;
    const DeviceParams d = params_of(workload, workload.shape.layers, 1, 1, 1.0);
    return d.dense + d.expert;
}

double trainable_params(const Workload& workload) {
    if (workload.kind == WorkloadKind::generic || !workload.finetune.adapters())
        return total_params(workload);
    return params_of(workload, workload.shape.layers, 1, 1, 1.0).adapters;
}

ModelStateBytes model_state_bytes(const Workload& workload, const Layout& layout,
                                  Precision precision) {
    const DeviceParams d = device_params(workload, layout);
    const double w = weight_bytes_per_param(precision);
    const int dp = dense_data_parallel(layout), edp = expert_data_parallel(layout);
    const bool qlora = workload.finetune.method == TrainingMethod::qlora;
    ModelStateBytes s;
    // Frozen base weights: 16-bit, or NF4 for QLoRA's linear layers (embeddings, norms and
    // routers stay 16-bit, as bitsandbytes quantises nn.Linear modules only).
    double dense_bytes = d.dense * w, expert_bytes = d.expert * w;
    if (qlora) {
        dense_bytes = d.quantizable * kNf4BytesPerParam + (d.dense - d.quantizable) * w;
        expert_bytes = d.expert * kNf4BytesPerParam;
    } else if (layout.fp8_weights && precision == Precision::fp8) {
        // FP8 weight storage (plan.h Layout::fp8_weights): the linear layers' weights take one
        // byte; embeddings, the output layer, norms, routers and LoRA adapters stay 16-bit.
        dense_bytes = d.quantizable * kFp8BytesPerParam + (d.dense - d.quantizable) * w;
        expert_bytes = d.expert * kFp8BytesPerParam;
    }
    // Pipelined FSDP2 keeps a stage's parameters gathered and its gradients unreduced from the
    // first micro-batch to the last backward (data_parallel_sync.h): only the optimizer state
    // stays sharded.
    const bool zero3 = layout.zero >= 3 && layout.pp <= 1;
    const double base = sharded(dense_bytes, zero3, dp) + sharded(expert_bytes, zero3, edp);
    const double adapters = sharded(d.adapters * w, zero3, dp);
    s.weights = base + adapters;
    s.weights_frozen = d.frozen ? base : 0.0;
    const bool zero2 = layout.zero >= 2 && layout.pp <= 1;
    s.gradients =
        sharded(d.trainable_dense() * w, zero2, dp) + sharded(d.trainable_expert() * w, zero2, edp);
    const double state = optimizer_state_bytes_per_param(layout.optimizer, precision);
    s.optimizer = sharded(d.trainable_dense() * state, layout.zero >= 1, dp) +
                  sharded(d.trainable_expert() * state, layout.zero >= 1, edp);
    if (layout.offload.optimizer != OffloadTarget::none) {
        // ZeRO-Offload keeps fp32 gradients and the optimizer state on the host and streams the
        // 16-bit gradients out in buckets during backward (Ren et al. 2021, sec. 4.1).
        s.offloaded_host += s.optimizer + s.gradients * 4.0 / w;
        s.optimizer = 0;
        s.gradients = 0;
    }
    if (layout.offload.params != OffloadTarget::none) {
        // ZeRO-Infinity parameter offload: the device keeps the layers being computed and the
        // next one being prefetched (two layers' worth).
        s.offloaded_host += s.weights;
        const double keep =
            std::min(1.0, 2.0 / std::max(1.0, double(workload.shape.layers) / layout.pp));
        s.weights_frozen *= keep;
        s.weights *= keep;
    }
    return s;
}

} // namespace cp::sim
