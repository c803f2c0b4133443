// Per-micro-batch time of the pipeline stage that sets the pace: per-layer GEMMs, memory-bound
// kernels, recompute, tensor- and context-parallel communication and the host-issue floor, times
// the stage's layers, plus the embedding on the first and the output layer on the last stage.
// With uneven stages (pipeline_stages.h) the slowest of first, middle and last is taken.
#pragma once

#include "clusterplan/sim/plan.h"
#include "clusterplan/sim/workload.h"
#include "engine/collectives.h"
#include "engine/compute_rates.h"

namespace cp::sim {

struct StageTimes {
    double compute_s = 0; // forward + backward, GEMMs and memory-bound kernels
    double recompute_s = 0;
    double tp_comm_s = 0;  // exposed tensor-parallel collectives
    double cp_comm_s = 0;  // exposed context-parallel K/V ring
    double backward_s = 0; // the part that can hide the data-parallel sync
    double host_s = 0;     // GPU idle while the host is still issuing the layers' kernels
    double ep_comm_s = 0;  // MoE all-to-all (and expert TP), forward + backward + recompute
    int layers = 0;        // layers on this stage
    // Mean over all pipeline stages of one micro-batch's forward + backward time (the terms
    // above but backward_s): what each stage adds to the pipeline's fill and drain.
    double mean_stage_s = 0;
};

struct StageOptions {
    double bytes_per_element = 2;
    double host_pass_s = 0;             // host-issue time per layer pass (0: compiled graphs)
    double host_overlap_exponent = 4.0; // HostIssue::overlap_exponent
    // Host time to issue one local expert's kernels in one pass of a dropless MoE layer, on the
    // critical path behind the layer's device-to-host synchronisation (0: no such stall).
    double expert_issue_pass_s = 0;
    // The same, added per local expert and pass under the combined 1F1B schedule
    // (Layout::moe_a2a_overlap), whose synchronisation also drains the other micro-batch's work.
    double expert_issue_combined_pass_s = 0;
    // Streams the per-expert GEMMs run over (0: one grouped kernel for all local experts).
    int expert_gemm_streams = 0;
    bool tp_comm_overlap = false;         // the framework hides TP collectives behind GEMMs
    bool tp_overlap_forward_only = false; // ... in forward passes only (PyTorch async TP)
    // Without that overlap, the backward's column-parallel collectives still run beside the
    // dgrad / wgrad GEMMs (Transformer Engine's Linear, Layout::no_tp_comm_overlap).
    bool tp_async_backward = false;
    bool fp8 = false;                 // FP8 GEMMs: their 16-bit activation inputs are cast first
    bool selective_op_policy = false; // selective recompute is PyTorch's op policy (framework.h)
    bool tp_regather = true;          // SP inputs all-gathered again in backward (framework.h)
    bool fp8_tp_gather = false;       // FP8 runs all-gather TP inputs as FP8 (framework.h)
    bool cp_all_gather = false;       // PyTorch's all-gather ring attention (framework.h)
    bool ulysses_cp = false;          // DeepSpeed-Ulysses all-to-alls (framework.h)
    FineTuning finetune;              // frozen / 4-bit base weights, LoRA adapters
    bool fused_projection_adapters = false; // LoRA on fused QKV and gate/up (framework.h)
};

// Share of the s x s score tiles a causal fused kernel computes over a span of tokens (the
// sequence, or one packed example; model_constants.h).
double causal_tile_share(double span_tokens);

// `shape` is the shape as computed (KV heads already widened to tp when replicated).
StageTimes slowest_stage(const TransformerShape& shape, const Layout& layout, const Network& net,
                         const ComputeRates& rates, const StageOptions& options);

} // namespace cp::sim
