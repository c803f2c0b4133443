#include "engine/context_parallel.h"

#include "clusterplan/sim/framework.h"

#include <algorithm>

namespace cp::sim {

TransformerShape cp_local_shape(const TransformerShape& shape, int cp) {
    TransformerShape local = shape;
    local.seq_len = shape.seq_len / std::max(1, cp);
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
    double bytes =
        op_policy ? layer_activation_bytes_op_policy(local, layout.micro_batch, layout.tp,
                                                     layout.sequence_parallel)
                  : layer_activation_bytes(local, layout.micro_batch, layout.tp,
                                           layout.sequence_parallel, recompute, fp8_gemm_inputs);
    // Softmax output, dropout mask and output of the scores (5 bytes each, Korthikanti et al.),
    // which layer_activation_bytes counts as s/cp x s/cp for the local shape.
    if (cp > 1 && !shape.flash_attention && recompute == Recompute::none) {
        const double s_local = local.seq_len;
        bytes += 5.0 * shape.heads * s_local * s_local * (cp - 1) * layout.micro_batch / layout.tp;
    }
    return bytes;
}

double cp_ring_forward_s(const TransformerShape& shape, const Layout& layout, const Network& net,
                         double e) {
    const int cp = layout.cp;
    if (cp <= 1) return 0;
    const double kv_heads = shape.kv_heads > 0 ? shape.kv_heads : shape.heads;
    const double head_dim = shape.attention_head_dim();
    // K and V of the local tokens, for this rank's tensor-parallel share of the KV heads (at
    // least one head when tp exceeds the KV heads, which are then replicated).
    const double kv_per_rank = std::max(1.0, kv_heads / layout.tp);
    const double chunk_bytes = double(layout.micro_batch) * (double(shape.seq_len) / cp) * 2.0 *
                               kv_per_rank * head_dim * e;
    // Megatron orders ranks tp, cp, dp, pp: the cp group's neighbours sit tp ranks apart.
    const int local = std::clamp(net.devices_per_node / std::max(1, layout.tp), 1, cp);
    return (cp - 1) * p2p_s(group_tier(net, cp, local), chunk_bytes);
}

} // namespace cp::sim
