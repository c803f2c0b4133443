#include "engine/context_parallel.h"

#include "clusterplan/sim/framework.h"
#include "engine/model_constants.h"

#include <algorithm>

namespace cp::sim {

TransformerShape cp_local_shape(const TransformerShape& shape, int cp) {
    TransformerShape local = shape;
    local.seq_len = shape.seq_len / std::max(1, cp);
    // Masked positions fall on every rank's chunk; the busiest rank holds the rounded-up share.
    if (shape.head_positions > 0)
        local.head_positions = (shape.head_positions + std::max(1, cp) - 1) / std::max(1, cp);
    return local;
}

LayerWork cp_layer_work(const TransformerShape& shape, const Layout& layout, double e) {
    const int cp = std::max(1, layout.cp);
    LayerWork w = transformer_layer_work(cp_local_shape(shape, cp), layout.micro_batch, layout.tp,
                                         layout.sequence_parallel, e);
    if (cp == 1) return w;
    const auto core = static_cast<std::size_t>(w.attention_core_begin);
    w.gemm_flops -= w.gemms[core].flops() + w.gemms[core + 1].flops();
    w.gemms[core].n *= cp;     // local queries x all keys
    w.gemms[core + 1].k *= cp; // probabilities x all values
    w.attention_core_flops = w.gemms[core].flops() + w.gemms[core + 1].flops();
    w.gemm_flops += w.attention_core_flops;
    w.attention_core_bytes *= cp;
    if (w.attention_fused) w.attention_backward_recompute_flops = w.gemms[core].flops();
    return w;
}

double cp_layer_activation_bytes(const TransformerShape& shape, const Layout& layout,
                                 Recompute recompute, bool fp8_gemm_inputs) {
    const int cp = std::max(1, layout.cp);
    const TransformerShape local = cp_local_shape(shape, cp);
    const bool op_policy = recompute == Recompute::selective &&
                           framework_profile(layout.framework).selective_op_policy;
    double bytes = op_policy ? layer_activation_bytes_op_policy(local, layout.micro_batch,
                                                                layout.tp, layout.sequence_parallel)
                             : layer_activation_bytes(local, layout.micro_batch, layout.tp,
                                                      layout.sequence_parallel, recompute,
                                                      fp8_gemm_inputs, layout.fp8_activation_input);
    // A distributed checkpoint keeps 1/tp of the layer input on each rank (Layout).
    if (recompute == Recompute::full && layout.distribute_saved_activations &&
        !layout.sequence_parallel)
        bytes /= layout.tp;
    // Softmax output, dropout mask and output of the scores (5 bytes each, Korthikanti et al.),
    // which layer_activation_bytes counts as s/cp x s/cp for the local shape.
    if (cp > 1 && !shape.flash_attention && recompute == Recompute::none) {
        const double s_local = local.seq_len;
        bytes += 5.0 * shape.heads * s_local * s_local * (cp - 1) * layout.micro_batch / layout.tp;
    }
    return bytes;
}

namespace {

// K and V of one rank's local tokens for `heads` heads shared over tp (at least one head per rank
// when tp exceeds them, which are then replicated).
double kv_chunk_bytes(const TransformerShape& shape, const Layout& layout, double heads, double e) {
    const double heads_per_rank = std::max(1.0, heads / layout.tp);
    return double(layout.micro_batch) * (double(shape.seq_len) / layout.cp) * 2.0 * heads_per_rank *
           shape.attention_head_dim() * e;
}

double kv_heads(const TransformerShape& shape) {
    return shape.kv_heads > 0 ? shape.kv_heads : shape.heads;
}

// The cp group's links: ranks are ordered tp, cp, dp, pp (Megatron, torchtitan), so the group's
// neighbours sit tp ranks apart.
LinkTier cp_group_tier(const Network& net, const Layout& layout) {
    const int local = std::clamp(net.devices_per_node / std::max(1, layout.tp), 1, layout.cp);
    return group_tier(net, layout.cp, local);
}

} // namespace

double cp_ring_forward_s(const TransformerShape& shape, const Layout& layout, const Network& net,
                         double e) {
    const int cp = layout.cp;
    if (cp <= 1) return 0;
    return (cp - 1) *
           p2p_s(cp_group_tier(net, layout), kv_chunk_bytes(shape, layout, kv_heads(shape), e));
}

double cp_ring_host_passes(int cp, int forward_passes) {
    if (cp <= 1) return 0;
    const double forward_ops = cp * model::kCpRingHostOpsPerStepForward - 1.0;
    const double backward_ops = cp * model::kCpRingHostOpsPerStepBackward - 1.0;
    return (forward_passes * forward_ops + backward_ops) / model::kHostOpsPerLayerPass;
}

double ulysses_forward_s(const TransformerShape& shape, const Layout& layout, const Network& net,
                         double e) {
    const int cp = layout.cp;
    if (cp <= 1) return 0;
    const double tokens = double(layout.micro_batch) * (double(shape.seq_len) / cp);
    const double q_bytes = tokens * shape.query_width() / layout.tp * e;
    const double kv_bytes =
        kv_chunk_bytes(shape, layout, std::max(kv_heads(shape), double(layout.tp) * cp), e);
    const int local = std::clamp(net.devices_per_node / std::max(1, layout.tp), 1, cp);
    // Q, K and V go as one all-to-all each, as does the output (layer.py _SeqAllToAll).
    return 2.0 * all_to_all_s(net, cp, local, q_bytes) + all_to_all_s(net, cp, local, kv_bytes);
}

namespace {

// Bytes moved per element of the local attention output by the ring's pointwise work, counted
// from _attention.py (2-byte block output, 4-byte fp32 running values). Eager, per step: the
// forward merge upcasts the block output (2 read + 4 written), forms out - block_out (8 + 4),
// scales it by sigmoid(lse) (4 + 4) and subtracts (8 + 4); backward accumulates dQ, dK and dV
// (2 + 4 read, 4 written each; repeated K/V carry as many elements as Q) and concatenates dK/dV
// for the send (8 + 8). Compiled (Inductor fuses each into one kernel): the merge reads the
// running output and the block output and writes the running output (4 + 2 + 4), and each
// gradient accumulation the same.
struct RingPointwise {
    double merge_bytes_per_element, merge_kernels;
    double grad_bytes_per_element, grad_kernels;
};
constexpr RingPointwise kEagerRing{6.0 + 12.0 + 8.0 + 12.0, 4.0, 3.0 * 10.0 + 16.0, 4.0};
constexpr RingPointwise kCompiledRing{10.0, 1.0, 3.0 * 10.0, 1.0};

} // namespace

double cp_all_gather_ring_s(const TransformerShape& shape, const Layout& layout, const Network& net,
                            const ComputeRates& rates, double e, double core_forward_s,
                            double core_backward_s, int forward_passes) {
    const int cp = layout.cp;
    if (cp <= 1) return 0;
    const double ring_heads = shape.llama_reference_code ? double(shape.heads) : kv_heads(shape);
    const double local_tokens = double(layout.micro_batch) * (double(shape.seq_len) / cp);
    const double chunk_bytes = kv_chunk_bytes(shape, layout, ring_heads, e);
    const LinkTier tier = cp_group_tier(net, layout);
    const double gather_s = all_gather_s(tier, cp, cp * chunk_bytes);
    const double dkv_send_s = p2p_s(tier, chunk_bytes * 4.0 / e);
    // Eager, a collective is waited for at its first use (AsyncCollectiveTensor), a step later;
    // traced by torch.compile, functional collectives wait where they are issued
    // (_maybe_wrap_tensor), so nothing hides them.
    const bool eager = shape.eager_elementwise;
    const double step_fwd_s = eager ? core_forward_s / cp : 0.0;
    const double step_bwd_s = eager ? core_backward_s / cp : 0.0;
    double s = (forward_passes + 1.0) * overlapped_comm_s(gather_s, step_fwd_s);
    s += (cp - 1.0) * overlapped_comm_s(dkv_send_s, step_bwd_s) + dkv_send_s;

    const RingPointwise& pw = eager ? kEagerRing : kCompiledRing;
    const double out_elements = local_tokens * shape.query_width() / layout.tp;
    s += forward_passes * (cp - 1.0) *
         memory_time_s(rates, pw.merge_bytes_per_element * out_elements, pw.merge_kernels);
    s += cp * memory_time_s(rates, pw.grad_bytes_per_element * out_elements, pw.grad_kernels);
    return s;
}

} // namespace cp::sim
