#include "engine/layout_check.h"

#include "engine/pipeline_stages.h"

#include <algorithm>
#include <cstdint>

namespace cp::sim {

bool framework_allows(const Layout& layout, const AcceleratorSpec& accelerator) {
    if (layout.framework == Framework::automatic) return true;
    const FrameworkProfile& fw = framework_profile(layout.framework);
    if (!framework_runs_on(layout.framework, accelerator)) return false;
    if (layout.zero > fw.max_zero || (layout.pp > 1 && layout.zero > fw.max_zero_with_pp))
        return false;
    return layout.cp == 1 || fw.context_parallel;
}

Limit check_layout(const Workload& workload, const Cluster& cluster, const Layout& layout) {
    constexpr Limit bad = Limit::invalid_layout;
    if (layout.tp < 1 || layout.pp < 1 || layout.dp < 1 || layout.micro_batch < 1 ||
        layout.global_batch < 1 || layout.virtual_stages < 1 || layout.cp < 1)
        return bad;
    if (cluster.nodes < 1 || cluster.node.accelerators_per_node < 1) return bad;
    // 64-bit products: each factor is range-checked, their product need not fit an int.
    if (std::int64_t{layout.tp} * layout.pp * layout.dp * layout.cp != cluster.devices())
        return bad;
    if (layout.global_batch % (std::int64_t{layout.micro_batch} * layout.dp) != 0) return bad;
    if (layout.zero < 0 || layout.zero > 3) return bad;
    if (layout.zero > cluster.node.accelerator.max_zero_stage) return bad;
    if (!(layout.grad_compression > 0.0 && layout.grad_compression <= 1.0)) return bad;
    if (layout.dp_comm == DpComm::parameter_server && layout.parameter_servers < 1) return bad;
    if (layout.virtual_stages > 1 && layout.schedule != Schedule::interleaved) return bad;
    if (!framework_allows(layout, cluster.node.accelerator)) return bad;
    if (layout.ep < 1 || layout.etp < 1) return bad;
    // Offloaded parameters are fetched shard by shard: ZeRO-3 (DeepSpeed offload_param, FSDP).
    if (layout.offload.params != OffloadTarget::none && layout.zero < 3) return bad;
    // Only a fully recomputed layer's replicated input can be split (Megatron asserts both);
    // with tp 1 there is nothing to split.
    if (layout.distribute_saved_activations &&
        (layout.recompute != Recompute::full || layout.sequence_parallel))
        return bad;

    if (workload.kind == WorkloadKind::generic) {
        if (layout.tp != 1 || layout.pp != 1 || layout.virtual_stages != 1 || layout.cp != 1)
            return bad;
        if (layout.ep != 1 || layout.etp != 1 || workload.finetune.adapters()) return bad;
        if (!(workload.params > 0) || !(workload.flops_per_sample > 0)) return bad;
        return Limit::none;
    }
    const TransformerShape& s = workload.shape;
    if (s.layers < 1 || s.hidden < 1 || s.heads < 1 || s.seq_len < 1 || s.vocab < 1) return bad;
    if (s.hidden % s.heads != 0) return bad;
    const int kv = s.kv_heads > 0 ? s.kv_heads : s.heads;
    const int ffn = s.ffn_hidden > 0 ? s.ffn_hidden : 4 * s.hidden;
    // KV heads split over tp, or replicated when tp is a multiple of them (Megatron, NeuronX).
    if (s.heads % layout.tp != 0 || ffn % layout.tp != 0) return bad;
    if (kv % layout.tp != 0 && layout.tp % kv != 0) return bad;
    // Stages may hold unequal numbers of layers; every virtual chunk needs one (most_chunks).
    const int fewest = stage_split(s.layers, layout).most_chunks(layout.pp);
    if (layout.pp > s.layers || fewest < layout.virtual_stages) return bad;
    // Ring attention splits each sequence into 2·cp chunks (causal load balancing); Ulysses
    // splits it into cp and gives each rank whole heads of a tp rank's share after its all-to-all
    // (DeepSpeed DistributedAttention scatters the head dimension over the sequence group).
    if (layout.cp > 1) {
        if (framework_profile(layout.framework).ulysses_cp) {
            if (s.seq_len % layout.cp != 0 || (s.heads / layout.tp) % layout.cp != 0) return bad;
        } else if (s.seq_len % (2 * layout.cp) != 0) {
            return bad;
        }
    }
    if (layout.virtual_stages > 1 && interleave_group_size(layout) == 0) return bad;
    // Expert parallelism splits the experts (and etp each expert's columns) over ranks carved
    // out of a stage's tp x cp x dp ranks (Megatron-Core's MoE parallel folding).
    if (layout.ep > 1 || layout.etp > 1) {
        if (!s.moe.enabled() || s.moe.experts % layout.ep != 0) return bad;
        if (s.moe.moe_ffn_hidden % layout.etp != 0) return bad;
        if ((layout.tp * layout.cp * layout.dp) % (layout.ep * layout.etp) != 0) return bad;
    }
    return Limit::none;
}

} // namespace cp::sim
