#include "engine/memory_model.h"

#include "clusterplan/sim/framework.h"
#include "engine/context_parallel.h"
#include "engine/model_constants.h"
#include "engine/model_state.h"
#include "engine/moe.h"
#include "engine/optimizer_state.h"
#include "engine/pipeline_stages.h"
#include "engine/transformer_work.h"

#include <algorithm>

namespace cp::sim {

namespace {

constexpr double kGib = 1024.0 * 1024.0 * 1024.0;

// The PyTorch fine-tuning stacks of the FSDP family (torchtune's CEWithChunkedOutputLoss, LitGPT's
// chunked_cross_entropy) keep the 16-bit logits and upcast them to fp32 one chunk at a time:
// torchtune's default is 8 chunks (num_output_chunks). Pre-training scripts upcast all of them.
constexpr double kChunkedLossChunks = 8.0;

// Peak bytes per logit of the loss at `element_scale` x 2-byte activations.
double loss_bytes_per_logit(const Workload& workload, const Layout& layout, double element_scale) {
    // Megatron's vocab-parallel cross-entropy: the 16-bit output and its fp32 copy, which becomes
    // the softmax and later its own gradient in place (no third buffer).
    if (framework_profile(layout.framework).family != "fsdp" ||
        workload.finetune.method == TrainingMethod::pretrain)
        return 2.0 * element_scale + 4.0;
    return 2.0 * element_scale + 4.0 / kChunkedLossChunks;
}

// Weights, gradients and optimizer state for a generic model's `params` on one device, sharded
// by ZeRO over dp.
ModelStateBytes state_bytes(double params, const Layout& layout, Precision precision) {
    const double w = weight_bytes_per_param(precision);
    const double dp = std::max(1, layout.dp);
    ModelStateBytes s;
    s.weights = w * params / (layout.zero >= 3 ? dp : 1.0);
    s.gradients = w * params / (layout.zero >= 2 ? dp : 1.0);
    s.optimizer = optimizer_state_bytes_per_param(layout.optimizer, precision) * params /
                  (layout.zero >= 1 ? dp : 1.0);
    return s;
}

MemoryGib to_gib(const ModelStateBytes& s, double activations, double capacity_gib) {
    MemoryGib m;
    m.weights = s.weights / kGib;
    m.weights_frozen = s.weights_frozen / kGib;
    m.offloaded_host = s.offloaded_host / kGib;
    m.gradients = s.gradients / kGib;
    m.optimizer = s.optimizer / kGib;
    m.activations = activations / kGib;
    m.total = m.weights + m.gradients + m.optimizer + m.activations + model::kFrameworkReserveGib;
    m.capacity = capacity_gib;
    return m;
}

} // namespace

double weight_bytes_per_param(Precision precision) {
    return (precision == Precision::fp32 || precision == Precision::tf32) ? 4.0 : 2.0;
}

double transformer_params_per_device(const TransformerShape& shape, const Layout& layout) {
    const StageSplit split = stage_split(shape.layers, layout);
    const double per_layer = transformer_layer_params(shape);
    // First stage holds the input embedding, the last the output layer and the final
    // layernorm; with one stage, all of them. Middle stages hold layers only.
    const double ends = std::max(split.first, split.last) * per_layer +
                        transformer_end_stage_embedding_params(shape, layout.pp) +
                        2.0 * shape.hidden;
    return std::max(ends, split.middle * per_layer) / layout.tp;
}

MemoryGib transformer_memory(const TransformerShape& shape, const Layout& layout,
                             Precision precision, double capacity_gib) {
    Workload workload;
    workload.shape = shape;
    return transformer_memory(workload, layout, precision, capacity_gib);
}

MemoryGib transformer_memory(const Workload& workload, const Layout& layout, Precision precision,
                             double capacity_gib) {
    const TransformerShape& shape = workload.shape;
    const ModelStateBytes state = model_state_bytes(workload, layout, precision);
    // MoE layers keep routed-token and expert activations instead of the dense MLP's.
    const double moe_share = double(shape.moe.moe_layers(shape.layers)) / shape.layers;
    const double moe_delta = moe_share * moe_activation_delta_bytes(shape, layout);
    const StageSplit split = stage_split(shape.layers, layout);
    // Korthikanti's byte counts are for 2-byte activations; fp32/tf32 training keeps 4-byte ones.
    const double element_scale = weight_bytes_per_param(precision) / 2.0;
    const bool fp8_inputs =
        precision == Precision::fp8 && framework_profile(layout.framework).fp8_saves_casts;
    const double per_layer =
        element_scale * (cp_layer_activation_bytes(shape, layout, layout.recompute, fp8_inputs) +
                         (layout.recompute == Recompute::full ? 0.0 : moe_delta));
    const double m = layout.micro_batches(), p = layout.pp, v = std::max(1, layout.virtual_stages);
    // Micro-batches whose activations the first stage holds at its peak.
    double in_flight = 1.0;
    if (layout.schedule == Schedule::gpipe) {
        in_flight = m;
    } else if (layout.schedule == Schedule::interleaved && v > 1) {
        // Rank 0 warms up 2(p - 1) + (v - 1)·N chunk micro-batches and holds one more, each a
        // 1/v stage (Megatron-Core get_pp_rank_microbatches): p + (p - 1)/v stages for N = p,
        // Korthikanti et al. 2022 sec. 4.2.3.
        const double n = std::max(p, double(interleave_group_size(layout)));
        in_flight = std::min(m, n + (2.0 * p - 1.0 - n) / v);
    } else {
        in_flight = std::min(m, p);
    }
    // Full recompute rebuilds one layer's complete activations at a time during backward.
    const double rebuilt =
        layout.recompute == Recompute::full
            ? element_scale *
                  (cp_layer_activation_bytes(shape, layout, Recompute::none, fp8_inputs) +
                   moe_delta)
            : 0.0;
    const double first = in_flight * split.first * per_layer + rebuilt;
    // The fullest middle stage, taken as the second (one micro-batch fewer in flight).
    const double middle =
        layout.pp > 2 ? std::max(1.0, in_flight - 1.0) * split.middle * per_layer + rebuilt : 0.0;
    // The last stage holds one micro-batch in flight plus the logits and the loss's buffers.
    const double tokens =
        double(layout.micro_batch) * shape.head_positions_per_sequence() / std::max(1, layout.cp);
    const double logits = tokens * double(shape.vocab) / layout.tp *
                          loss_bytes_per_logit(workload, layout, element_scale);
    double last = (layout.pp > 1 ? split.last * per_layer : 0.0) + logits;
    if (layout.pp == 1) last += first;
    return to_gib(state, std::max({first, middle, last}), capacity_gib);
}

MemoryGib generic_memory(const Workload& workload, const Layout& layout, Precision precision,
                         double capacity_gib) {
    const ModelStateBytes state = state_bytes(workload.params, layout, precision);
    const double forward_flops = workload.flops_per_sample / 3.0;
    const double activations = layout.micro_batch * forward_flops *
                               model::kGenericActivationBytesPerForwardFlop *
                               weight_bytes_per_param(precision) / 2.0;
    return to_gib(state, activations, capacity_gib);
}

} // namespace cp::sim
