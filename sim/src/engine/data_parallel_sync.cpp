#include "engine/data_parallel_sync.h"

#include "engine/model_state.h"
#include "engine/pipeline_stages.h"

#include <algorithm>
#include <cmath>

namespace cp::sim {

int stage_param_tensors(int layers) {
    return 6 * std::max(0, layers) + 2;
}

int dp_reduce_calls(const Layout& layout, int stage_layers, double grad_bytes) {
    if (layout.dp_reduce_per_tensor) return stage_param_tensors(stage_layers);
    if (layout.dp_bucket_bytes > 0)
        return static_cast<int>(std::min(1e6, std::ceil(grad_bytes / layout.dp_bucket_bytes)));
    return 1;
}

DpSync dp_sync(const Network& net, const Layout& layout, int dp_local, double grad_bytes,
               double gather_bytes, bool full_reduce_then_gather, int reduce_calls) {
    DpSync out;
    const int n = layout.dp;
    if (n <= 1 || grad_bytes <= 0) return out;
    if (gather_bytes < 0) gather_bytes = grad_bytes;
    // ZeRO-1/2 replace the all-reduce by reduce-scatter + all-gather (same bytes); ZeRO-3 adds
    // a parameter all-gather in forward and backward (~1.5x the traffic).
    const double zero_factor = layout.zero >= 3 ? 1.5 : 1.0;
    const double nd = n;
    switch (layout.dp_comm) {
    case DpComm::ring: {
        const LinkTier tier = group_tier(net, n, dp_local);
        // ZeRO really runs reduce-scatter + all-gather: measured fits of both are used as such.
        const bool split = layout.zero >= 1 && tier.gather_fit && tier.scatter_fit;
        if (full_reduce_then_gather && layout.zero <= 1) {
            out.gather_s = split ? all_gather_s(tier, n, gather_bytes)
                                 : 0.5 * ring_all_reduce_s(tier, n, gather_bytes);
            out.time_s = ring_all_reduce_s(tier, n, grad_bytes) + out.gather_s +
                         std::max(0, reduce_calls - 1) * 2.0 * (nd - 1.0) * tier.step_s;
            out.bytes_sent = (nd - 1.0) / nd * (2.0 * grad_bytes + gather_bytes);
            break;
        }
        if (split) {
            out.gather_s = all_gather_s(tier, n, gather_bytes) * zero_factor;
            out.time_s = reduce_scatter_s(tier, n, grad_bytes) * zero_factor + out.gather_s;
        } else if (layout.zero >= 1) {
            // A ring all-reduce is a reduce-scatter and an all-gather of equal halves.
            const double scatter_s = 0.5 * ring_all_reduce_s(tier, n, grad_bytes);
            out.gather_s = 0.5 * ring_all_reduce_s(tier, n, gather_bytes) * zero_factor;
            out.time_s = scatter_s * zero_factor + out.gather_s;
        } else {
            out.time_s = ring_all_reduce_s(tier, n, grad_bytes) * zero_factor;
        }
        // Ring steps of the reduce (all-reduce, or the reduce-scatter under ZeRO).
        const double steps = (layout.zero >= 1 ? 1.0 : 2.0) * (nd - 1.0);
        out.time_s += std::max(0, reduce_calls - 1) * steps * tier.step_s;
        out.bytes_sent = (nd - 1.0) / nd *
                         (grad_bytes + (layout.zero >= 1 ? gather_bytes : grad_bytes)) *
                         zero_factor;
        break;
    }
    case DpComm::tree: {
        out.time_s = tree_all_reduce_s(group_tier(net, n, dp_local), n, grad_bytes) * zero_factor;
        out.bytes_sent = 2.0 * grad_bytes * zero_factor;
        break;
    }
    case DpComm::hierarchical: {
        const int nodes_spanned = (n + dp_local - 1) / dp_local;
        if (dp_local <= 1 || nodes_spanned <= 1) {
            out.time_s = ring_all_reduce_s(group_tier(net, n, dp_local), n, grad_bytes);
        } else {
            // Intra-node reduce-scatter, inter-node all-reduce of S/g over every NIC in parallel,
            // intra-node all-gather.
            const double shard = grad_bytes / dp_local;
            out.time_s = 2.0 * reduce_scatter_s(net.intra, dp_local, grad_bytes) +
                         ring_all_reduce_s(group_tier(net, nodes_spanned, 1), nodes_spanned, shard);
        }
        out.time_s *= zero_factor;
        out.bytes_sent = 2.0 * (nd - 1.0) / nd * grad_bytes * zero_factor;
        break;
    }
    case DpComm::parameter_server: {
        // Push gradients, pull weights: the worker's NIC share moves 2S, the k server shards
        // (one node's NICs each) move 2nS/k; the slower side sets the time.
        const double worker_bw = net.inter.bus_bytes_per_s / net.devices_per_node;
        const double server_bw = net.inter.bus_bytes_per_s;
        const double k = std::max(1, layout.parameter_servers);
        const double worker_s = 2.0 * grad_bytes / worker_bw;
        const double server_s = 2.0 * nd * grad_bytes / (k * server_bw);
        out.time_s = net.inter.launch_s + std::max(worker_s, server_s) * zero_factor;
        out.bytes_sent = grad_bytes * zero_factor;
        break;
    }
    }
    return out;
}

Zero3Traffic zero3_traffic(const Layout& layout, const Network& net, int dp_local,
                           const StageTimes& st, double gather_bytes, double grad_bytes) {
    Zero3Traffic z;
    if (layout.zero < 3 || layout.dp <= 1 || layout.dp_comm == DpComm::parameter_server ||
        gather_bytes <= 0)
        return z;
    z.applies = true;
    const int n = layout.dp;
    const LinkTier tier = group_tier(net, n, dp_local);
    const double calls = std::max(1, st.layers);
    const double gather_s = calls * all_gather_s(tier, n, gather_bytes / calls);
    const double scatter_s = calls * reduce_scatter_s(tier, n, grad_bytes / calls);
    const double m = layout.micro_batches();
    const double forward_s = st.compute_s + st.recompute_s - st.backward_s;
    const double nd = n;
    if (layout.pp > 1) {
        // Pipelined FSDP2 (torch.distributed.pipelining with torchtitan's
        // reshard_after_forward=False): a stage gathers its parameters for the first
        // micro-batch and keeps them; gradient sync is off until the last backward, after which
        // every group reduce-scatters at once, behind no compute of its own.
        z.total_s = gather_s + scatter_s;
        z.exposed_s =
            layout.overlap_dp
                ? contended_overlap_s(gather_s, forward_s, net.overlap_slowdown) + scatter_s
                : z.total_s;
        z.bytes_sent = (nd - 1.0) / nd * (gather_bytes + grad_bytes);
        return z;
    }
    z.total_s = m * (2.0 * gather_s + scatter_s);
    z.exposed_s =
        layout.overlap_dp
            ? m * (contended_overlap_s(gather_s, forward_s, net.overlap_slowdown) +
                   contended_overlap_s(gather_s + scatter_s, st.backward_s, net.overlap_slowdown))
            : z.total_s;
    z.bytes_sent = m * (nd - 1.0) / nd * (2.0 * gather_bytes + grad_bytes);
    return z;
}

double fsdp_copy_s(const Layout& layout, const ComputeRates& rates, const StageTimes& st,
                   double gather_bytes, double grad_bytes, double reduce_bytes) {
    if (!layout.fsdp_per_param_copies || layout.zero < 3 || layout.dp <= 1 ||
        layout.dp_comm == DpComm::parameter_server || gather_bytes <= 0)
        return 0;
    // A copy reads its source and writes its destination, one copy per FSDP group (a block) and
    // collective.
    const double calls = std::max(1, st.layers);
    const double gather_copy_s = memory_time_s(rates, 2.0 * gather_bytes, calls);
    const double reduce_copy_s = memory_time_s(rates, grad_bytes + reduce_bytes, calls);
    // As in zero3_traffic: pipelined FSDP2 gathers once per step and reduces once; otherwise
    // every micro-batch gathers for its forward and again for its backward, and reduces.
    if (layout.pp > 1) return gather_copy_s + reduce_copy_s;
    return layout.micro_batches() * (2.0 * gather_copy_s + reduce_copy_s);
}

double fp8_gathered_params(const Workload& workload, const Layout& layout) {
    const LayerPieces p = layer_pieces(workload.shape, workload.finetune);
    const double layers = stage_split(workload.shape.layers, layout).fullest();
    return layers * (p.attention_linear + p.dense_mlp_linear) / std::max(1, layout.tp);
}

} // namespace cp::sim
