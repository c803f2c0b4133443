// Constants and stated assumptions of the fine-tuning, optimizer, offload and Mixture-of-Experts
// mechanisms (model_state, layer_training, moe, offload), each with its physical reason and source.
#pragma once

#include <string_view>

namespace cp::sim::model {

// Host memory bandwidth the CPU optimizer step (DeepSpeed CPU-Adam, ZeRO-Offload) gets on one
// node, shared by its accelerators. A two-socket server with 8 DDR4-3200 channels per socket
// peaks at 410 GB/s and sustains ~60 % of it in STREAM triad; the step streams master weights,
// moments and gradients once each way. An estimate (no per-instance figure is published): it is
// stated in every offload plan's assumptions.
inline constexpr double kHostMemoryGbytesPerS = 240.0;

// Share of an instance's host memory a training job can pin for offloaded state: the rest holds
// the OS, the data loader and the framework (DeepSpeed pins its offload buffers).
inline constexpr double kHostMemoryUsableFraction = 0.85;

// Host time to issue one local expert's kernels in one pass of a dropless MoE layer, exposed
// because the dropless dispatcher copies the per-expert token counts to the host every MoE layer
// (a device-to-host synchronisation: the GPU's queue drains and the host cannot run ahead).
// Transformer Engine's grouped GEMM launches one cuBLAS GEMM per local expert
// (multi_stream_cublas_gemm), each with its own FP8 quantisation, so the host's work grows with
// the local experts. Fitted by least squares of the relative step-time error (Eigen, each source
// weighing the same) over the published dropless Megatron runs in
// tests/data/validation/moe_training.csv; tests/sim/validation_moe_test.cpp refits it, checks
// this value and prints the leave-one-source-out error. 0.124 ms is about a seventh of a dense
// layer's forward issue time (HostIssue::per_layer_pass_s, 0.86 ms, vTrain fit): four or five eager
// kernel launches per expert and pass.
inline constexpr double kMoeExpertIssuePerPassS = 0.124e-3;

// Host time per local expert and pass that a dropless MoE layer adds on top of
// kMoeExpertIssuePerPassS under Megatron-Core's combined 1F1B schedule
// (--overlap-moe-expert-parallel-comm, megatron/core/pipeline_parallel/combined_1f1b.py): each
// layer step issues one micro-batch's forward beside another's backward on one compute stream, so
// the forward dispatcher's device-to-host synchronisation (token_dispatcher.py,
// d2h_event.synchronize) also waits for the other micro-batch's queued backward kernels; the
// per-expert kernels of both passes are issued into a drained queue and none runs ahead. Fitted
// together with kMoeExpertIssuePerPassS by tests/sim/validation_moe_test.cpp over the published
// runs with moe_a2a_overlap (Megatron-Bridge Qwen3-30B-A3B PP2 VP12 EP8 and Qwen3-235B-A22B TP2
// PP8 VP4 EP32 on H100), which checks this value and prints the leave-one-source-out error.
inline constexpr double kMoeCombinedScheduleIssuePerPassS = 0.102e-3;

// Streams Transformer Engine's grouped GEMM spreads its per-expert cuBLAS GEMMs over
// (transformer_engine/common/include/transformer_engine/gemm.h: num_streams = 4), so at most
// four experts' GEMMs share the GPU at a time.
inline constexpr int kExpertGemmStreams = 4;

inline constexpr std::string_view kMoeAssumption =
    "MoE: top-k routing with the busiest expert at capacity_factor x the mean load (1.0 when "
    "dropless: balanced, as in the published force-balanced benchmarks; real routers add "
    "imbalance); experts run as one grouped GEMM per rank (efficiency from the call's size, "
    "tile quantisation from each expert's rows, HBM roofline of each expert's weights at few "
    "rows per expert; FP8 casts of the routed rows); dispatch and combine are all-to-alls over "
    "the expert-parallel group (intra-node fabric, the node's NICs beyond it), 2 per MoE layer "
    "per pass, overlapped with another micro-batch's compute only with moe_a2a_overlap, each "
    "token sent once per destination node and rank with the hybrid (DeepEP/HybridEP) "
    "dispatcher; dropless routing synchronises device and host every MoE layer, so frameworks "
    "launching one GEMM per local expert (Megatron-Core/NeMo via Transformer Engine, 4 experts "
    "at a time over 4 streams) expose 0.124 ms of host issue per local expert and pass, 0.226 "
    "ms under the combined 1F1B schedule of moe_a2a_overlap (fitted on published dropless "
    "runs); sequence parallelism assumed with tp > 1 (Megatron-Core); expert weights sharded by "
    "ep x etp, their gradients and optimizer state by ZeRO over the expert data-parallel group";
inline constexpr std::string_view kLoraAssumption =
    "LoRA (Hu et al. 2021): adapters A (r x in) and B (out x r) beside each targeted matrix; base "
    "weights frozen: no weight-gradient GEMMs for them (backward = input gradients only), "
    "gradients and optimizer state for the adapters only; activations flow through the whole "
    "model as in full training; model FLOPs count forward + input gradients (NeMo's convention)";
inline constexpr std::string_view kQloraAssumption =
    "QLoRA (Dettmers et al. 2023): frozen linear weights in NF4 with double quantisation (4.127 "
    "bits per weight), embeddings and norms in 16 bit; each weight is dequantised to 16 bit before "
    "its GEMM in forward and again in backward (read 0.52 B, write 2 B per weight)";
inline constexpr std::string_view kOffloadAssumption =
    "offload (ZeRO-Offload / ZeRO-Infinity): gradients stream to the host during each backward, "
    "the "
    "optimizer step runs on the CPU at an estimated 240 GB/s of host memory bandwidth per node, "
    "updated weights return over PCIe (0.8 of the link rate) while it runs; offloaded parameters "
    "are fetched for every forward and backward, prefetched behind compute; no one-step delayed "
    "update";

} // namespace cp::sim::model
