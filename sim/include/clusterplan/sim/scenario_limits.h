// Upper bounds of scenario numbers. Each value alone may look harmless, but products of them
// overflowed 32-bit counts (4 × hidden for the default FFN width) or turned a cost into
// $-9,223,372,036,854,775,808 when printed. The bounds sit one to three orders of magnitude
// beyond the largest published training run, so no real scenario meets them.
#pragma once

namespace cp::sim::limits {

// Widths (hidden, ffn_hidden, heads): the widest published dense models are Megatron-LM's 1T
// (hidden 25,600; Narayanan et al. SC'21 Table 1) and PaLM 540B (ffn 73,728; Chowdhery et al.
// 2022 Table 1). 2^20 leaves 14× and keeps 4 × hidden and every per-layer count within int.
inline constexpr int kMaxWidth = 1 << 20;
// Layers: the deepest of those is 128 (Megatron-LM 1T); 2^14 leaves 128×.
inline constexpr int kMaxLayers = 1 << 14;
// Sequence length: the longest published context is 10M tokens (Llama 4 Scout, Meta 2025).
inline constexpr int kMaxSeqLen = 1 << 24;
// Vocabulary: the largest common ones hold 256k entries (Gemma, Gemma Team 2024).
inline constexpr int kMaxVocab = 1 << 24;
// Training length: the largest published budgets are tens of trillions of tokens (Llama 3:
// 15.6T, Dubey et al. 2024; Qwen3: 36T, Qwen Team 2025); 1e15 leaves ~30×.
inline constexpr double kMaxTrainingTokens = 1e15;
inline constexpr double kMaxTrainingSamples = 1e15;
// Epochs: ImageNet recipes run 90 (Goyal et al. 2017); small fine-tuning sets a few thousand.
inline constexpr double kMaxEpochs = 1e6;
// Parameters: the largest published models hold ~2T; 1e15 leaves 500×.
inline constexpr double kMaxParams = 1e15;
// FLOPs per sample: GPT-3 175B needs 6 × 175e9 × 2048 ≈ 2e15 per sequence; 1e21 leaves 5e5×.
inline constexpr double kMaxFlopsPerSample = 1e21;
// Node price: the most expensive EC2 instance lists at about $408/h (u7in-32tb.224xlarge, AWS
// On-Demand pricing 2025); $10,000 per node-hour is the catalog importers' bound too.
inline constexpr double kMaxUsdPerNodeHour = 1e4;
// Budget: no published training run cost a trillion dollars (frontier runs: ~$1e8, Epoch AI 2024).
inline constexpr double kMaxBudgetUsd = 1e12;
// Deadline: a century, in hours.
inline constexpr double kMaxDeadlineHours = 1e6;
// Checkpoint write and restart: a week each, in seconds (real ones take minutes).
inline constexpr double kMaxSpotSeconds = 7 * 24 * 3600.0;
// Serving arrivals: the highest published rate the serving fixtures hold is 79,030 requests/s
// (MLPerf Inference v4.1 ResNet-50 Server on 8 H200, resources/serving/published_runs.json);
// 1e7 leaves ~125×. Latency limits: 1e7 ms is under three hours, far beyond any SLO.
inline constexpr double kMaxRequestRatePerS = 1e7;
// The lowest published serving rate in those fixtures is 0.5 requests/s; 1e-6 (one request in
// 11.6 days) leaves 5e5x below it. Nearer zero, an hourly bill spread over the few tokens served
// printed a cost per 1M tokens of 300 digits (a rate of 1e-300 was accepted).
inline constexpr double kMinRequestRatePerS = 1e-6;
inline constexpr double kMaxSloMs = 1e7;
// Links: a p5 node has 3,200 Gbps of EFA, NVLink 5 1,800 GB/s per GPU (NVIDIA B200 datasheet);
// 1e5 leaves 30×. Latency: a second, in microseconds.
inline constexpr double kMaxGbps = 1e5;
inline constexpr double kMaxGbytesPerS = 1e5;
inline constexpr double kMaxLatencyUs = 1e6;
// Lower bounds of custom hardware rates, which divide every time: 1e-300 GB/s was accepted and
// printed a step time of 300 digits. 0.01 Gbps (10 Mbit/s Ethernet) and 0.01 GB/s are below any
// link, disk or memory an accelerator instance has had; 0.001 TFLOP/s is one CPU core of 2000.
inline constexpr double kMinGbps = 0.01;
inline constexpr double kMinGbytesPerS = 0.01;
inline constexpr double kMinTflops = 0.001;
// Peak rate: the fastest accelerator datasheet lists about 20,000 TFLOP/s (B200 of a GB200, FP4
// with sparsity; NVIDIA GB200 NVL72 datasheet); 1e6 leaves 50x. Device memory: 192 GB (B200,
// same datasheet); 1e5 GiB leaves 500x.
inline constexpr double kMaxTflops = 1e6;
inline constexpr double kMaxDeviceMemoryGib = 1e5;

} // namespace cp::sim::limits
