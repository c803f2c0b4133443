#include "engine/moe.h"

#include <algorithm>
#include <cmath>

namespace cp::sim {
namespace {

// Tokens of one micro-batch that reach one rank's MoE block. Megatron-Core requires sequence
// parallelism when MoE layers run with tensor parallelism, so the tokens are split over tp.
double tokens_per_rank(const TransformerShape& s, const Layout& l) {
    return double(l.micro_batch) * s.seq_len / std::max(1, l.tp);
}

double matrices_in(const TransformerShape& s) {
    return s.gated_mlp ? 2.0 : 1.0;
} // fused up(+gate)

} // namespace

double hybrid_dispatch_s(const Network& net, int ranks, int local, double token_bytes,
                         double experts_per_token, double routed_bytes) {
    if (ranks <= 1 || routed_bytes <= 0 || token_bytes <= 0) return 0;
    local = std::clamp(local, 1, ranks);
    // DeepEP and HybridEP send a token once to each rank holding at least one of its k experts
    // (DeepEP's is_token_in_rank layout), where the all-to-all dispatcher sends one copy per
    // routed expert; the rank then permutes it to its local experts. With experts spread evenly
    // over the ranks a token reaches ranks (1 - (1 - 1/ranks)^k) of them, the own rank included
    // (Qwen3-30B-A3B, top-8 over 8 ranks: 5.3 copies instead of 8).
    const double rank_copies = ranks * (1.0 - std::pow(1.0 - 1.0 / ranks, experts_per_token));
    const double imbalance = routed_bytes / (token_bytes * experts_per_token);
    const double sent_bytes = token_bytes * rank_copies * imbalance;
    if (ranks <= local) return all_to_all_s(net, ranks, local, sent_bytes);
    // DeepEP internode dispatch / Megatron-Core HybridEP: a token crosses the network once to
    // each node holding at least one of its k experts (the same-index GPU there), which forwards
    // it over NVLink to the local ranks of those experts; combine reduces in the node first and
    // returns one row per node. With experts spread evenly over n nodes a token reaches
    // n (1 - (1 - 1/n)^k) of them, the own node included.
    const double nodes = double(ranks) / local;
    const double remote_nodes =
        (nodes - 1.0) * (1.0 - std::pow(1.0 - 1.0 / nodes, experts_per_token));
    const double inter_s =
        token_bytes * remote_nodes / (net.inter.bus_bytes_per_s / net.devices_per_node);
    // Every rank copy but those landing on the receiving GPU itself moves once over NVLink.
    const double intra_s = (local - 1.0) / local * sent_bytes / net.intra.bus_bytes_per_s;
    // The RDMA sends and the NVLink forwarding run as a pipeline of chunks: the slower sets the
    // time.
    const double latency_s =
        std::max(net.intra.launch_s + net.intra.step_s, net.inter.launch_s + net.inter.step_s);
    return latency_s + std::max(inter_s, intra_s);
}

MoeLayerWork moe_layer_work(const TransformerShape& s, const Layout& l, double e) {
    MoeLayerWork w;
    if (!s.moe.enabled()) return w;
    const MoeShape& m = s.moe;
    const double h = s.hidden, f = m.moe_ffn_hidden, experts = m.experts, k = m.experts_per_token;
    const double ep = std::max(1, l.ep), etp = std::max(1, l.etp), tp = std::max(1, l.tp);
    const double tokens = tokens_per_rank(s, l);
    // Dropless routing spreads tokens evenly only on average; the busiest expert sets the pace.
    // A capacity factor caps its load (tokens beyond it are dropped; Fedus et al. 2022, sec. 2.2).
    w.imbalance = m.capacity_factor > 0 ? m.capacity_factor : 1.0;
    w.tokens_per_expert = tokens * k * etp * ep / experts * w.imbalance;
    const double local = experts / ep;
    w.router = {tokens, experts, h, 1};
    w.expert_up = {w.tokens_per_expert, matrices_in(s) * f / etp, h, local};
    w.expert_down = {w.tokens_per_expert, h, f / etp, local};
    if (m.shared_experts > 0) {
        const double all_tokens = double(l.micro_batch) * s.seq_len, fs = m.shared_experts * f;
        w.shared_up = {all_tokens, matrices_in(s) * fs / tp, h, 1};
        w.shared_down = {all_tokens, h, fs / tp, 1};
    }
    const double routed = tokens * k * w.imbalance;
    const double swiglu = (s.gated_mlp ? 3.0 : 2.0) * e;    // read 2 (gated) write 1
    w.elementwise_bytes = 2.0 * 4.0 * tokens * experts      // fp32 softmax + top-k
                          + 2.0 * (tokens + routed) * h * e // permute and unpermute copies
                          + swiglu * routed * f             // activation of every expert row
                          + swiglu * double(l.micro_batch) * s.seq_len * m.shared_experts * f / tp;
    w.dispatch_bytes = routed * h * e;
    return w;
}

int ep_ranks_per_node(const Layout& l, int devices_per_node) {
    return std::max(1, std::min(std::max(1, l.ep), devices_per_node / std::max(1, l.etp)));
}

MoeLayerTimes moe_layer_times(const TransformerShape& s, const Layout& l, const Network& net,
                              const ComputeRates& rates, double e, int expert_gemm_streams) {
    MoeLayerTimes t;
    if (!s.moe.enabled()) return t;
    const MoeLayerWork w = moe_layer_work(s, l, e);
    // One grouped GEMM launch covers all local experts (CUTLASS grouped GEMM): the call's size
    // sets the efficiency, each expert's row count the tile quantisation. Launched one per expert
    // over a few streams, only the experts running at once share the GPU: their combined size
    // sets the efficiency, in rounds of that many experts.
    const auto experts_s = [&](const GemmShape& g) {
        if (expert_gemm_streams <= 0 || g.batch <= expert_gemm_streams)
            return gemm_time_s(rates, g, e);
        const double together = expert_gemm_streams;
        return g.batch / together * gemm_time_s(rates, {g.m, g.n, g.k, together}, e);
    };
    t.weight_gemm_s = experts_s(w.expert_up) + experts_s(w.expert_down);
    for (const GemmShape& g : {w.router, w.shared_up, w.shared_down})
        t.weight_gemm_s += gemm_time_s(rates, g, e);
    t.forward_s = t.weight_gemm_s + memory_time_s(rates, w.elementwise_bytes, 6);
    const int ep = std::max(1, l.ep), local = ep_ranks_per_node(l, net.devices_per_node);
    const double token_bytes = tokens_per_rank(s, l) * s.hidden * e;
    t.all_to_all_s = 2.0 * (l.ep_dispatcher == EpDispatcher::hybrid
                                ? hybrid_dispatch_s(net, ep, local, token_bytes,
                                                    s.moe.experts_per_token, w.dispatch_bytes)
                                : all_to_all_s(net, ep, local, w.dispatch_bytes));
    if (l.etp > 1) {
        const LinkTier tier = group_tier(net, l.etp, std::min(l.etp, net.devices_per_node));
        t.etp_comm_s = 2.0 * reduce_scatter_s(tier, l.etp, w.dispatch_bytes * l.etp);
    }
    return t;
}

double moe_fp8_cast_elements(const TransformerShape& s, const Layout& l) {
    if (!s.moe.enabled()) return 0;
    const MoeLayerWork w = moe_layer_work(s, l, 2.0);
    double elements = 0;
    for (const GemmShape& g : {w.expert_up, w.expert_down, w.shared_up, w.shared_down})
        elements += g.m * g.k * g.batch;
    return elements;
}

double moe_expert_issue_events(const TransformerShape& s, const Layout& l) {
    return s.moe.capacity_factor > 0 ? 0.0 : moe_expert_launch_events(s, l);
}

double moe_expert_launch_events(const TransformerShape& s, const Layout& l) {
    if (!s.moe.enabled()) return 0;
    const double local = double(s.moe.experts) / std::max(1, l.ep);
    // Forward 1, backward 2 (input and weight gradients), a fully recomputed forward 1: the same
    // pass weights as the host-issue floor (model_constants.h).
    const double passes = 3.0 + (l.recompute == Recompute::full ? 1.0 : 0.0);
    return local * passes;
}

double moe_activation_delta_bytes(const TransformerShape& s, const Layout& l) {
    if (!s.moe.enabled()) return 0;
    const MoeShape& m = s.moe;
    const double tp = std::max(1, l.tp), bs = double(l.micro_batch) * s.seq_len, h = s.hidden;
    const double f_dense = s.ffn_width();
    const double per_f =
        s.gated_mlp ? 6.0 : 4.0; // Korthikanti's MLP intermediates, bytes per f element
    const double dense = per_f * bs * f_dense / tp;
    const double tokens = bs / tp, imbalance = m.capacity_factor > 0 ? m.capacity_factor : 1.0;
    const double routed = tokens * m.experts_per_token * imbalance;
    // Megatron-Core (>= 0.13) applies the routing probabilities inside the expert activation,
    // so the combine keeps no expert outputs: the permuted inputs are the copies kept.
    const double moe = 8.0 * tokens * m.experts // fp32 router logits and probabilities
                       + 2.0 * routed * h       // permuted expert inputs
                       + per_f * routed * m.moe_ffn_hidden +
                       per_f * bs * m.shared_experts * m.moe_ffn_hidden / tp;
    return moe - dense;
}

double moe_forward_flops_delta_per_token(const TransformerShape& s) {
    if (!s.moe.enabled()) return 0;
    const MoeShape& m = s.moe;
    const double h = s.hidden, mat = s.gated_mlp ? 3.0 : 2.0;
    const double f_dense = s.ffn_width();
    return 2.0 * h * m.experts +
           (m.experts_per_token + m.shared_experts) * 2.0 * mat * h * m.moe_ffn_hidden -
           2.0 * mat * h * f_dense;
}

} // namespace cp::sim
