// Mixture-of-Experts layers (Shazeer et al. 2017; GShard, Lepikhin et al. 2021; Switch,
// Fedus et al. 2022; Megatron-Core MoE): router, token dispatch and combine by all-to-all over
// the expert-parallel group, grouped GEMMs of the experts held by one rank, shared experts.
#pragma once

#include "clusterplan/sim/plan.h"
#include "clusterplan/sim/workload.h"
#include "engine/collectives.h"
#include "engine/compute_rates.h"
#include "engine/transformer_work.h"

namespace cp::sim {

// Forward work of one MoE layer's MLP block for one micro-batch on the busiest rank.
struct MoeLayerWork {
    GemmShape router;    // tokens x experts x hidden
    GemmShape expert_up; // grouped GEMM: per-expert tokens x (2)f/etp x h, batch = local experts
    GemmShape expert_down;
    GemmShape shared_up; // shared experts (dense MLP of shared_experts x moe_ffn_hidden)
    GemmShape shared_down;
    double elementwise_bytes = 0; // router softmax/top-k, permute/unpermute copies, SwiGLU
    double dispatch_bytes = 0;    // bytes one rank sends in one all-to-all (dispatch or combine)
    double tokens_per_expert = 0; // rows of each expert's GEMM (after the imbalance factor)
    double imbalance = 1.0;       // busiest expert's load / the mean
};

MoeLayerWork moe_layer_work(const TransformerShape& shape, const Layout& layout,
                            double bytes_per_element);

// Ranks of one expert-parallel group that share a node (Megatron orders expert ranks etp
// innermost, then ep: consecutive ranks, so a group of ep*etp <= devices per node stays inside).
int ep_ranks_per_node(const Layout& layout, int devices_per_node);

// One dispatch (or combine) of the hierarchical dispatcher (DeepEP, Megatron-Core HybridEP, the
// `hybrid` EpDispatcher) over `ranks` expert-parallel ranks, `local` per node: `token_bytes` of
// tokens per rank, each routed to `experts_per_token` experts, `routed_bytes` of routed copies
// (the all-to-all dispatcher's volume; these dispatchers send one copy per destination rank).
double hybrid_dispatch_s(const Network& net, int ranks, int local, double token_bytes,
                         double experts_per_token, double routed_bytes);

// Times of one MoE layer for one micro-batch.
struct MoeLayerTimes {
    double forward_s = 0;     // router + experts + shared + elementwise, forward
    double weight_gemm_s = 0; // the expert/shared/router GEMMs of forward (their weight
                              // gradients are what frozen base weights skip in backward)
    double all_to_all_s = 0;  // one dispatch + one combine (one pass)
    double etp_comm_s = 0;    // expert tensor parallel gather/scatter, one pass
};

// `expert_gemm_streams` > 0: the experts' GEMMs are launched one per local expert over that many
// CUDA streams (Transformer Engine's grouped GEMM), so the size efficiency follows the experts
// running at once; 0: one grouped kernel for all local experts.
MoeLayerTimes moe_layer_times(const TransformerShape& shape, const Layout& layout,
                              const Network& net, const ComputeRates& rates,
                              double bytes_per_element, int expert_gemm_streams = 0);

// Activation bytes one MoE layer keeps beyond what layer_activation_bytes counts for the dense
// MLP it replaces (may be negative), per micro-batch on one rank, 2-byte elements.
double moe_activation_delta_bytes(const TransformerShape& shape, const Layout& layout);

// 16-bit activation elements one MoE layer's forward casts to FP8 on the busiest rank before its
// GEMMs (the permuted rows into each expert's up projection, the SwiGLU output into its down
// projection, the shared experts' inputs): Transformer Engine quantises every FP8 GEMM input.
double moe_fp8_cast_elements(const TransformerShape& shape, const Layout& layout);

// Expert-kernel issue events of one MoE layer per micro-batch: local experts x passes. Every
// routing issues them; moe_expert_issue_events counts them only where they sit on the critical
// path, behind the dispatcher's synchronisation with the host (dropless routing).
double moe_expert_launch_events(const TransformerShape& shape, const Layout& layout);
double moe_expert_issue_events(const TransformerShape& shape, const Layout& layout);

// Model FLOPs per token of one MoE layer minus those of the dense MLP it replaces, forward.
double moe_forward_flops_delta_per_token(const TransformerShape& shape);

} // namespace cp::sim
