// How the training method and Mixture-of-Experts layers change one transformer layer's time
// per micro-batch, on top of the dense layer's GEMMs and memory-bound kernels: MoE MLP blocks
// replace dense ones (with their all-to-all), LoRA adds adapter GEMMs, frozen base weights
// skip their weight-gradient GEMMs, QLoRA dequantises its 4-bit weights for every use.
#pragma once

#include "clusterplan/sim/plan.h"
#include "clusterplan/sim/workload.h"
#include "engine/collectives.h"
#include "engine/compute_rates.h"
#include "engine/transformer_work.h"

namespace cp::sim {

struct LayerAdjust {
    double forward_s = 0;         // added to the dense layer's forward
    double backward_s = 0;        // added to its backward (2 x forward); negative when frozen
    double ep_comm_s = 0;         // expert-parallel all-to-all (+ expert TP), forward + backward
    double ep_comm_forward_s = 0; // the forward part (recomputed with full recompute)
};

// Averaged over the layers (MoE layers are a fraction of them), per micro-batch on one rank.
// `expert_gemm_streams`: see moe_layer_times.
LayerAdjust layer_adjust(const TransformerShape& shape, const FineTuning& finetune,
                         const Layout& layout, const Network& net, const ComputeRates& rates,
                         const LayerWork& dense, double bytes_per_element,
                         int expert_gemm_streams = 0);

// Model and hardware FLOPs per sample to add to the dense transformer's count: MoE layers'
// routed and shared experts instead of the dense MLP, LoRA adapters, and no weight gradients for
// frozen base weights (so LoRA's model FLOPs are forward + input gradients, NeMo's convention).
struct FlopsAdjust {
    double model = 0;
    double hardware = 0;
};
FlopsAdjust flops_adjust_per_sample(const Workload& workload, Recompute recompute);

// Host-issue work of one layer's LoRA adapters per micro-batch, in layer passes
// (HostIssue::per_layer_pass_s units): each adapter is a handful of small operations issued
// from Python (model_constants.h). `fused_projections`: adapters on the fused QKV and gate/up
// projections (FrameworkProfile::fused_projection_adapters), else one per q, k, v, o (gate, up,
// down). MoE layers count as dense ones (a lower bound: experts may carry adapters each).
// `forward_passes` counts the forward and a fully recomputed forward.
double lora_host_passes(const TransformerShape& shape, const FineTuning& finetune,
                        const Layout& layout, bool fused_projections, int forward_passes);

} // namespace cp::sim
