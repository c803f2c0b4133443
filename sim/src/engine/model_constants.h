// Global constants of the step model, each with the physical reason for its value. These are
// the only knobs tuned against the validation data (never a per-row correction).
#pragma once

#include <array>
#include <string_view>

namespace cp::sim::model {

// --- Matrix work -------------------------------------------------------------------------------
// Best dense GEMM throughput as a fraction of the datasheet peak, measured by others on
// cuBLAS/cuBLASLt (A100 SXM bf16 ~87 %, H100 SXM ~80 %, H100 fp8 ~71 %). Unknown parts: 0.80.
inline constexpr double kBestGemmFractionA100 = 0.87;
inline constexpr double kBestGemmFractionHopper = 0.80;
inline constexpr double kBestGemmFractionHopperFp8 = 0.71;
inline constexpr double kBestGemmFractionDefault = 0.80;
// FP32 GEMMs run on the CUDA cores (SIMT FFMA), not the tensor cores: no operand-delivery limit
// of the tensor-core pipeline, so cuBLAS SGEMM keeps the FMA units nearly saturated. Fitted by
// code over the one fitted FP32 transformer row (DeepLearningExamples BERT-large phase 1 on one
// V100 32 GB, pytorch:21.11, 50 seq/s; tests/sim/validation_dle_test.cpp); every other FP32 row is
// held out.
inline constexpr double kBestGemmFractionSimtFp32 = 1.0;
// Published dense 16-bit GEMM rates of power-capped parts under a continuous GEMM loop, with the
// FLOPs of one call: the clock their TDP leaves with the tensor cores busy (compute_rates.h
// full_tensor_w is derived from them). T4 (70 W): ~24 TFLOPS on back-to-back cuBLAS FP16
// 4096^3 GEMMs, "due to power capping" (NVIDIA developer forum thread 264462, "About GPU peak
// performance", moderator's answer). L4 (72 W): 53.80 TFLOPS on torch.matmul FP16 8192^3 (53.02 at
// 4096^3; zzc0721/torch-performance-test-data issue #120). The L40S has no such figure and is not
// modelled; A100 and Hopper fractions above were measured at their sustained clocks.
// A10G (300 W, no NVIDIA datasheet; catalog peak estimated at 70 TFLOPS): 69.47 TFLOPS on
// torch.matmul BF16 and FP16 10240^3 (65.67-66.59 at 8192^3; zzc0721/torch-performance-test-data
// issue #126). That is above the default best fraction of the estimated peak: the measured rate
// then sets the part's best fraction (compute_rates.cpp set_tensor_power).
struct SustainedGemmRate {
    std::string_view device_id;
    double tflops;
    double gemm_flops;
};
inline constexpr std::array<SustainedGemmRate, 3> kSustainedGemmRates{
    {{"T4", 24.0, 2.0 * 4096.0 * 4096.0 * 4096.0},
     {"L4", 53.80, 2.0 * 8192.0 * 8192.0 * 8192.0},
     {"A10G", 69.47, 2.0 * 10240.0 * 10240.0 * 10240.0}}};
// A board allowed more power than the part the best GEMM fraction describes runs a faster clock.
// V100: the fraction describes the 300 W SXM2 (NVIDIA V100 datasheet; DGX-1, p3), whose best
// published cuBLAS FP16 rate on a DGX-1, 112.3 TFLOPS (Baidu DeepBench@30c5115
// results/train/DeepBench_NV_V100.xlsx, 4096 x 7000 x 4096), puts its loaded clock at no less than
// 112.3 / 125 of the 1,530 MHz the 125 TFLOPS rating is quoted at. The 350 W SXM3 of the DGX-2
// (same rating) and the 450 W part of the DGX-2H (130 TFLOPS rating) clock higher by the cube law
// of compute_rates.cpp power_limited_clock_fraction, up to their own rated clock.
struct PowerReference {
    std::string_view device_prefix;
    double reference_w;
    double reference_peak_tflops;
    double reference_best_tflops;
};
inline constexpr std::array<PowerReference, 1> kPowerReferences{{{"V100", 300.0, 125.0, 112.3}}};
// Whole-framework factor on top of the best GEMM rate: kernel-launch gaps, wave quantisation of
// real (non-multiple-of-tile) shapes and the host-side scheduling of an eager framework
// (PyTorch/Megatron). Tuned on the published runs.
inline constexpr double kFrameworkGemmFactor = 0.86;

// FlashAttention-2's fused attention kernel (forward + backward) as a fraction of the dense peak,
// from its paper (Dao 2023, arXiv:2307.08691): 50-73 % on A100, the top at long sequences where
// fusing matters; "up to 335 TFLOPs/s" on H100 (34 % of 989), because it does not use Hopper's
// asynchronous tensor-core instructions. Parts with no published figure: the bottom of the A100
// range. Scaled like the GEMMs by kFrameworkGemmFactor and the size curve.
inline constexpr double kFlashAttentionFractionA100 = 0.73;
inline constexpr double kFlashAttentionFractionHopper = 0.34;
inline constexpr double kFlashAttentionFractionDefault = 0.50;
// A causal (decoder) mask lets the fused kernel skip every score tile above the diagonal
// (FlashAttention-2, Dao 2023, sec. 3.1.1: blocks whose column indices all exceed their row
// indices are skipped, 1.7-1.8x faster than without the mask); tiles on the diagonal run whole,
// so of n x n tiles n(n+1)/2 run. Tiles are 128 rows for head dimension 128 (its sec. 3.3 block
// sizes {64, 128} x {64, 128}).
inline constexpr double kFusedAttentionTileRows = 128.0;
// Streaming multiprocessors of NVIDIA parts and the SM clock their datasheet dense FP16 peak is
// quoted at (peak / (SMs x dense FP16 FLOPs per SM per clock: 1,024 on Volta, Turing and Ada,
// 2,048 on the A100, 4,096 on Hopper)). SM counts: Turing whitepaper appendix (T4, 40 SMs),
// Volta whitepaper table 1 (V100 SXM2, 80), A100 whitepaper table 3 (108), H100 whitepaper table
// 3 (H100 SXM5, 132; H200 is the same die), the L4 and L40S datasheets' CUDA cores / 128 (7,424
// -> 58, 18,176 -> 142). Clocks: 1,590 MHz (T4 65 TFLOPS), 1,530 (V100 125), 1,410 (A100 312),
// 1,830 (H100 989.4), 2,040 (L4 121), 2,490 (L40S 362). The A10G has no NVIDIA datasheet and is
// left out.
// L2 cache sizes: Turing whitepaper (TU104/T4 4 MB), Volta whitepaper (6 MB), A100 whitepaper
// (40 MB), H100 whitepaper (50 MB on H100 SXM5; the H200 is the same GH100 die), Ada whitepaper
// (AD104/L4 48 MB, AD102/L40S 96 MB).
struct SmFigures {
    std::string_view device_id;
    double sms;
    double clock_mhz;
    double l2_mib;
};
inline constexpr std::array<SmFigures, 9> kSmFigures{{{"T4", 40, 1590, 4},
                                                      {"V100-16GB", 80, 1530, 6},
                                                      {"V100-32GB", 80, 1530, 6},
                                                      {"A100-40GB", 108, 1410, 40},
                                                      {"A100-80GB", 108, 1410, 40},
                                                      {"H100-80GB", 132, 1830, 50},
                                                      {"H200-141GB", 132, 1830, 50},
                                                      {"L4", 58, 2040, 48},
                                                      {"L40S", 142, 2490, 96}}};
// The figures of `device_id`, or null where the table has none.
constexpr const SmFigures* sm_figures(std::string_view device_id) {
    for (const SmFigures& f : kSmFigures)
        if (f.device_id == device_id) return &f;
    return nullptr;
}
// Encoder fused attention for sequences up to 512 (NVIDIA's fused multi-head attention, fmha v1/v2:
// the kernels TensorRT's bertQKVToContextPlugin runs, also in NVIDIA apex contrib/csrc/fmha)
// launches one thread block per head of one sequence (dim3 grid(params.h, params.b)), which steps
// through the whole s x s problem of that head alone, 16 query rows at a time (FMHA_kernel_traits
// <512, 64, 16, ...>). A block's steps wait on its loads, its row reductions and its softmax, so
// its time goes with the SM clock, not with the tensor cores' peak; the blocks run in waves of one
// per SM. A block's time is priced at this many FLOPs per clock (the dense FP16 tensor rate of one
// Volta/Turing/Ada SM) and scaled by the engine's fitted attention factor.
inline constexpr double kFusedAttentionBlockFlopsPerClock = 1024.0;
// Time of a FlashAttention-1-generation kernel over FlashAttention-2's for the same work
// (TransformerShape::flash_attention_v1; Dao 2023: "around 2x speedup compared to FlashAttention").
inline constexpr double kFlashAttentionV1TimeRatio = 2.0;

// Size dependence of GEMM efficiency relative to the best rate, log-interpolated in FLOPs per
// GEMM call. Shape after Calculon (Isaacs et al. SC'23: 0.95 >= 128 GFLOP, 0.9 >= 16, 0.6 >= 1,
// 0.1 below) but steeper at the small end, because a GEMM of ~16 GFLOP fills only a few waves of
// the GPU's SMs (wave quantisation) and saturating only at 1 TFLOP; tuned on the validation runs
// together with kFrameworkGemmFactor (the small-hidden vTrain runs pin the small end, the 530B and
// 1T Korthikanti runs the large end).
// Narrowest output tile cuBLAS uses on tensor cores; m and n are rounded up to it.
inline constexpr double kGemmTileWidth = 64.0;
inline constexpr std::array<std::array<double, 2>, 4> kGemmSizeCurve{
    {{1e7, 0.10}, {1e9, 0.5}, {1.6e10, 0.8}, {1e12, 1.0}}};

// HBM efficiency of memory-bound kernels by bytes moved per kernel. Calculon uses 0.9 for >= 100
// MB; eager PyTorch elementwise kernels reach ~0.8 of the A100's 2039 GB/s (~1.6 TB/s), and small
// kernels are dominated by launch latency.
inline constexpr std::array<std::array<double, 2>, 4> kHbmSizeCurve{
    {{1e5, 0.25}, {1e6, 0.50}, {1e7, 0.70}, {1e8, 0.80}}};

// Communication hidden behind compute still costs time: the collective's kernels hold SMs (NCCL
// runs one thread block per channel) and stream its bytes through HBM while the GEMMs run, so the
// compute beside them slows. Lee et al. 2025 ("Characterizing Compute-Communication Overlap in
// GPU-Accelerated Distributed Deep Learning", arXiv:2507.03114) measure an average compute
// slowdown of 18.9 % (at most 40 %) on A100 and H100 for GPT and Llama layers overlapped with
// their collectives. Each second of overlapped communication adds this many seconds to the step
// (collectives.h, overlapped_comm_s). ZeRO-3's per-layer gathers and reduce-scatters run beside
// nearly every GEMM of a step and are priced as a slowdown of that compute while they run
// (contended_overlap_s), at this fraction, and on Hopper at overlap_contention.h's.
inline constexpr double kOverlapComputeSlowdown = 0.189;

// Host-issue floor (clusterplan/sim/host_issue.h): passes a selectively recomputed layer's
// attention core adds to the host's issue work, as a share of a forward pass.
inline constexpr double kHostPassesSelectiveRecompute = 0.25;

// Host-issue work of Transformer Engine's context-parallel P2P ring (AttnFuncWithCP,
// NVIDIA/TransformerEngine v1.6rc2 @090e7241 transformer_engine/pytorch/attention.py), in
// operations that launch device work, call NCCL or order streams (views are metadata only),
// counted per ring step of a causal, fused-attention pass: forward 8 (the step's NCCL
// batch_isend_irecv and the wait on the last one, the K/V or Q half made contiguous, the partial
// attention kernel, the log-sum-exp merge, the stream event wait and record, the output
// correction), backward 9 (the K/V + dK/dV send/receive and two waits, the halves made
// contiguous, the partial backward kernel, the dQ accumulation, the dK/dV concatenation and
// accumulation). The one fused kernel a pass runs without the ring is part of the layer pass.
inline constexpr double kCpRingHostOpsPerStepForward = 8.0;
inline constexpr double kCpRingHostOpsPerStepBackward = 9.0;
// Host operations in the layer forward the HostIssue floor was fitted on (host_issue.h: vTrain's
// Megatron GPT layer, NVIDIA/Megatron-LM megatron/model/transformer.py as Megatron-DeepSpeed
// carries it): two layer norms, the QKV GEMM, the scores baddbmm, the fused masked softmax,
// dropout and its RNG-tracker fork, the context bmm, the permute copy, the output projection and
// its all-reduce, two fused bias-dropout-adds, the MLP up GEMM, the fused bias-GeLU and the MLP
// down GEMM with its all-reduce: 16, which turns the ring's operations into layer passes.
inline constexpr double kHostOpsPerLayerPass = 16.0;
// Host operations of one LoRA adapter (Hu et al. 2021: y += (alpha / r) B A x), counted from
// NeMo's ParallelLinearAdapter.forward (NVIDIA/NeMo v2.0.0.rc0.beta @b2eccd27, the MLPerf v4.0
// LoRA stack: nemo/collections/nlp/modules/common/megatron/adapters/parallel_adapters.py) and
// the adapter mixin's sum: forward 4 (the A and B GEMMs, the alpha / r scale, the add onto the
// frozen layer's output), backward 5 (dgrad and wgrad of A and B, the scale's gradient); with
// tensor parallelism one more each way for the adapter's sequence-parallel gather or
// all-to-all (gather_from_sequence_parallel_region, all2all_hp2sp) and its mirror.
inline constexpr double kLoraHostOpsForward = 4.0;
inline constexpr double kLoraHostOpsBackward = 5.0;

// Generic (non-transformer, e.g. CNN) models: fraction of the precision's peak reached over a
// whole training step, from NVIDIA's published single-GPU ResNet-50 v1.5 training throughput
// (DeepLearningExamples PyTorch/Classification/ConvNets/resnet50v1.5 README, pytorch-21.03 NGC
// container) at 24.6 GFLOP per image (3 x 2 x 4.1 GMAC forward at 224 px):
//   A100-80GB AMP 2,470 img/s = 60.8 TFLOP/s = 19.5 % of 312; V100-16GB AMP 1,200 img/s = 23.6 %
//   of 125  -> 0.21 for fp16/bf16 (and fp8, which has no published CNN figure);
//   A100 TF32 938 img/s = 14.8 % of 156 -> 0.15; V100 FP32 367 img/s = 57 % of 15.7 -> 0.57
//   (CUDA-core fp32 peaks are far easier to approach than tensor-core peaks).
// Convolutions, batch-norm and the input pipeline keep CNNs far below transformer GEMM rates.
inline constexpr double kGenericComputeFractionHalf = 0.21;
inline constexpr double kGenericComputeFractionTf32 = 0.15;
inline constexpr double kGenericComputeFractionFp32 = 0.57;
// Bytes a training step keeps per forward FLOP (16-bit activations), counted on ResNet-50 v1.5 at
// 224 px (He et al. 2016, Table 1; stride in the 3x3 conv): 11.1 M conv-output elements per image;
// backward needs each conv's batch-norm input and its ReLU output (the next conv's input), the
// downsample branch's batch-norm input once and max-pool's int64 indices: 20.7 M 16-bit elements
// + 0.2 M indices = 43 MB per image over 8.2 GFLOP forward -> 1/189. Consistent with
// DeepLearningExamples training batch 256 AMP and 112 FP32 on 16 GB V100s (11 and 9.5 GB).
inline constexpr double kGenericActivationBytesPerForwardFlop = 1.0 / 189.0;

// --- Collectives (alpha-beta per tier; fitted to nccl-tests all-reduce on DGX A100/V100) -------
// Fixed cost of one NCCL call (launch + synchronisation) and latency of one ring step. The pair
// minimises the worst error over the 7,168 A100 points >= 1 MiB (19.5 %; 30 µs + 4 µs gave 30 %):
// from 1 to 5 MiB NCCL's LL128 protocol pipelines the steps, so a step costs less than a hop.
inline constexpr double kCollectiveLaunchS = 35e-6;
inline constexpr double kNvlinkStepS = 2.5e-6;
inline constexpr double kPcieStepS = 8e-6;
// Large-message bus bandwidth as a fraction of the link's unidirectional rate per device:
// 8xA100 NVSwitch (NVLink 3) ~230 GB/s of 300 (nccl-tests tables in tests/data/validation);
// 8xH100/H200 NVSwitch (NVLink 4) ~370 of 450 with the ring algorithm (DESIGN.md; NVLink
// SHARP reaches ~480 but needs NCCL >= 2.18 and is not assumed). The newer switch generation
// keeps a larger share of its link rate, so one fraction cannot serve both; parts with no
// published figure (B200, ...) keep the measured A100 value. PCIe ~80 %; InfiniBand/EFA NICs
// ~12 / 24 / 46-48 GB/s per 100 / 200 / 400 Gb port (~0.95).
inline constexpr double kNvswitchBusEfficiency = 0.77;
inline constexpr double kNvswitchBusEfficiencyHopper = 370.0 / 450.0;
inline constexpr double kNvlinkBusEfficiency = 0.90;
inline constexpr double kPcieBusEfficiency = 0.80;
// PCIe without GPU peer access (AWS G5/G6: catalog "no GPU P2P"): NCCL's ring runs over its
// SHM transport, the sender writing each chunk into pinned host memory and the receiver reading
// it back across its own link, one proxy-driven hand-off per chunk. Published all-reduce busbw
// over that path divided by the link's per-direction rate, averaged by the nccl validation test
// over tests/data/validation/nccl_allreduce/pcie_host_staged.csv, rows on one CPU socket (NVIDIA/
// nccl issue 384: 3.9 GB/s on PCIe Gen3 x16, one channel; issue 1603: 18 GB/s on 4 GPUs at PCIe
// Gen4 x16, one CPU).
inline constexpr double kPcieHostStagedBusEfficiency = 0.4094;
// The same where the ring spans two CPU sockets (g5.48xlarge: four GPUs per NUMA node, aws/
// aws-ofi-nccl topology/g5.48xl-topo.xml): hops whose host buffer sits on the other socket read
// it across the inter-socket link. Fitted likewise on the fixture's rows spanning two sockets
// (4 x A10G of a g5.48xlarge, NCCL 2.18.5: 3.10 GB/s at 29 MB, pytorch/pytorch issue 127077).
inline constexpr double kPcieHostStagedCrossSocketBusEfficiency = 0.1968;
inline constexpr double kNetworkBusEfficiency = 0.95;
// Rings of few ranks run below the full ring's bus bandwidth: factor (1 - c/n^2), fitted to the
// nccl-tests DGX A100 tables (2 GPUs 0.86, 4 GPUs 0.97 of the 8-GPU busbw at 1 GiB).
inline constexpr double kSmallRingPenalty = 0.56;

// --- Memory ------------------------------------------------------------------------------------
// Bytes per parameter: mixed-precision Adam keeps fp32 master weights and two moments (12 B);
// fp32 training keeps just the two moments (8 B). ZeRO (Rajbhandari et al.) shards them.
inline constexpr double kOptimizerBytesMixed = 12.0;
inline constexpr double kOptimizerBytesFp32 = 8.0;
// Optimizer step HBM traffic per parameter: read grads, master, m, v; write master, m, v and the
// low-precision copy, plus the grad-norm/unscale pass.
inline constexpr double kOptimizerTrafficBytesPerParam = 32.0;
// CUDA context, NCCL buffers, cuBLAS workspaces and allocator slack per device.
inline constexpr double kFrameworkReserveGib = 1.5;
// The memory model's error on published figures: LoRA/QLoRA peaks within 8.6 %
// (validation_finetune_memory_test), published training runs that trained predicted at most
// 6.6 % above their device (validation_runs_test prints each). simulate refuses its plan for
// memory only beyond this share above capacity; within it the plan is kept and says it may not
// fit.
inline constexpr double kMemoryEstimateErrorShare = 0.10;

// Human-readable statement of the above, for the CLI's `assumptions` list.
inline constexpr std::array<std::string_view, 11> kAssumptions{{
    "GEMM rate = datasheet peak x best measured GEMM fraction (A100 0.87, Hopper 0.80, fp8 0.71) x "
    "framework factor 0.86 x size curve (1.0 at 1 TFLOP, 0.8 at 16 GFLOP, 0.5 at 1 GFLOP, 0.1 at "
    "10 MFLOP; after Calculon); roofline "
    "against HBM for thin GEMMs",
    "memory-bound kernels (layernorm, softmax, dropout, GeLU, optimizer) at HBM bandwidth x "
    "0.25-0.8 "
    "by kernel size",
    "collectives: alpha-beta per tier; 35 us per call + 2.5 us per ring step on NVLink/NVSwitch; "
    "bus efficiency NVSwitch 0.77 (Hopper 0.82, ring without NVLS), NVLink 0.90, PCIe 0.80 "
    "(0.41 without GPU peer access: staged through host memory), network 0.95",
    "ranks ordered tp (innermost), dp, pp (Megatron); groups spanning nodes share the node's NICs",
    "host-issue floor: a layer takes about the larger of the time the host needs to issue its "
    "kernels and the GPU's work ((host^4 + GPU^4)^(1/4): the queue hides most, not all, of the "
    "shorter one; eager PyTorch/Megatron on GPUs, 0.86 ms per forward pass, backward 2x, "
    "recomputed forward 1x; fitted on vTrain's 1,440 single-node A100 runs; none for Neuron's "
    "compiled graphs); binds only for small layers at small micro-batches",
    "TP: 4 all-reduces of b*s*h per layer per micro-batch (+2 with full recompute); RS+AG pairs "
    "with sequence parallel; not overlapped with compute",
    "PP: bubble (p-1)/(v*m) of a micro-batch's time; p2p of b*s*h per boundary, split over tp "
    "ranks across nodes (Megatron scatter/gather); slowest of first/last stage sets the pace",
    "DP: gradient all-reduce of the largest stage; with overlap only the last micro-batch's "
    "backward hides it. ZeRO-3 (FSDP): every micro-batch all-gathers the parameters for forward "
    "and backward and reduce-scatters gradients, one call per layer, each hidden behind its "
    "pass's compute where it fits (generic models: 1.5x the all-reduce bytes per step)",
    "memory: weights 2P, grads 2P, Adam 12P (mixed precision) sharded by ZeRO; activations per "
    "Korthikanti et al. 2022; 1F1B first stage holds p micro-batches; 1.5 GiB framework reserve",
    "generic (CNN) models: 21 % of the fp16/bf16 peak (15 % tf32, 57 % fp32) over a whole step, "
    "from NVIDIA's ResNet-50 v1.5 training throughput on A100/V100; data parallel only",
    "asynchronous parameter servers: communication overlaps the next step (stale gradients)",
}};

// Instances without EFA (AWS docs: EFA provides the OS-bypass, RDMA-style transport NCCL uses
// through aws-ofi-nccl; without it NCCL falls back to its TCP socket transport, staging through
// host memory). No published NCCL-over-ENA figure is used, so the network model is not changed;
// the plan says it is optimistic and how to measure instead.
inline constexpr std::string_view kNoEfaAssumption =
    "no EFA between nodes: NCCL runs over TCP sockets staged through host memory, with less "
    "bandwidth and more latency than the RDMA-class figures used here (0.95 of line rate), so the "
    "inter-node times are optimistic; measure with clusterplan-probe or nccl-tests and "
    "`clusterplan calibrate import`";

// Which attention a transformer plan assumes (model.flash_attention), for the same list.
inline constexpr std::string_view kAttentionMaterialised =
    "attention materialises the a*s*s scores (Megatron-LM as validated, no FlashAttention): "
    "scores GEMMs, softmax and dropout cost time and memory, so long sequences (s >= 4096) are "
    "pessimistic against fused-attention frameworks (set model.flash_attention)";
inline constexpr std::string_view kAttentionFused =
    "attention fused (model.flash_attention; FlashAttention, Dao et al. 2022 / FlashAttention-2, "
    "2023): no a*s*s scores stored or written to HBM (one fp32 log-sum-exp per row kept), no "
    "softmax/dropout traffic; the fused kernel runs at FlashAttention-2's published rate (A100 "
    "0.73, Hopper 0.34, other 0.50 of peak, x framework factor and size curve, at most the GEMM "
    "rate); backward recomputes Q*K^T, counted in hardware FLOPs and recompute time, not in model "
    "FLOPs/MFU; FLOPs count the full s*s work (Megatron convention) while a decoder's kernel "
    "skips the causal mask's tiles above the diagonal";

} // namespace cp::sim::model
