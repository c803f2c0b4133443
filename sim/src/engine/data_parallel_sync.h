// Data-parallel traffic of one training step: the gradient reduce over the data-parallel group
// (all-reduce, or reduce-scatter + all-gather under ZeRO-1/2, tree, hierarchical or parameter
// servers) and ZeRO-3's per-layer parameter gathers (DeepSpeed stage 3, PyTorch FSDP FULL_SHARD).
#pragma once

#include "clusterplan/sim/plan.h"
#include "clusterplan/sim/workload.h"
#include "engine/collectives.h"
#include "engine/transformer_stage.h"

namespace cp::sim {

// Gradient synchronisation over the data-parallel group, before overlap. Under ZeRO-1/2 the
// reduce is a reduce-scatter of the gradients followed by an all-gather of the updated weights;
// `gather_s` is that all-gather's share of `time_s` (0 when the sync is one all-reduce).
struct DpSync {
    double time_s = 0;
    double gather_s = 0;
    double bytes_sent = 0; // per device
};

// `grad_bytes`: one device's gradients as reduced; `gather_bytes`: its weights as all-gathered
// after a ZeRO-1/2 update (16-bit even when gradients reduce in fp32; < 0: `grad_bytes`).
// `full_reduce_then_gather`: the gradients are all-reduced whole and the updated weights then
// all-gathered (DeepSpeed's BF16_Optimizer, FrameworkProfile::fp32_grad_full_all_reduce), at any
// ZeRO stage below 2.
// `reduce_calls`: collectives a ring reduce is issued as. NCCL runs the ops of one group one
// after another, each through its own ring steps, so every op after the first adds the ring's
// step latencies (its bytes are already in the single-call time).
DpSync dp_sync(const Network& net, const Layout& layout, int dp_local, double grad_bytes,
               double gather_bytes = -1.0, bool full_reduce_then_gather = false,
               int reduce_calls = 1);

// Parameter tensors of a stage of `layers` transformer layers with its embedding and final
// norm: the fused QKV, output, MLP-in (fused gate/up) and MLP-out weights and the two norms of
// each layer, as nanotron's LlamaDecoderLayer holds them (huggingface/nanotron@c2528430
// src/nanotron/models/llama.py: qkv_proj, o_proj, gate_up_proj, down_proj, input_layernorm,
// post_attention_layernorm).
int stage_param_tensors(int layers);

// Collectives a stage's data-parallel reduce of `grad_bytes` is issued as: one per parameter
// tensor (Layout::dp_reduce_per_tensor), one per stated bucket (Layout::dp_bucket_bytes), or one.
int dp_reduce_calls(const Layout& layout, int stage_layers, double grad_bytes);

// ZeRO-3 (DeepSpeed stage 3, PyTorch FSDP FULL_SHARD): parameters stay sharded, so every
// micro-batch all-gathers them for its forward and again for its backward and reduce-scatters
// its gradients, one call per layer (FSDP wraps each block; DeepSpeed fetches per module), each
// prefetched behind the compute of its pass. Per-layer calls pay the ring latency once per layer,
// which is what slows ZeRO-3 at hundreds of ranks. Under pipelining FSDP2 gathers once per step
// and reduces once after the last backward. `gather_bytes` and `grad_bytes` are one device's
// parameters as gathered and its gradients as reduced.
struct Zero3Traffic {
    bool applies = false;
    double total_s = 0, exposed_s = 0, bytes_sent = 0;
};

Zero3Traffic zero3_traffic(const Layout& layout, const Network& net, int dp_local,
                           const StageTimes& st, double gather_bytes, double grad_bytes);

// Time FSDP2 (Layout::fsdp_per_param_copies) spends copying around the collectives counted by
// zero3_traffic, with the compute stream waiting: each all-gather's flat output is copied into
// the parameters (split_with_sizes_copy on the current stream), and each reduce-scatter's input
// is built by copying the gradients into one flat buffer in the reduce dtype, a copy the compute
// stream waits on before it frees them (pytorch/pytorch@01d66d21
// torch/distributed/_composable/fsdp/_fsdp_collectives.py, foreach_all_gather_copy_out and
// foreach_reduce_scatter). Bytes are one device's: `gather_bytes` its parameters as gathered,
// `grad_bytes` its gradients as autograd writes them, `reduce_bytes` as reduced. 0 where
// zero3_traffic does not apply or the run shards with FSDP1's flat parameters.
double fsdp_copy_s(const Layout& layout, const ComputeRates& rates, const StageTimes& st,
                   double gather_bytes, double grad_bytes, double reduce_bytes);

// Linear-layer weights on one device (its fullest stage, tp-sharded): what torchao's FP8
// parameter all-gather sends as FP8; embeddings, norms and biases stay 16-bit.
double fp8_gathered_params(const Workload& workload, const Layout& layout);

} // namespace cp::sim
