// Parameters one device holds and the bytes of weights, gradients and optimizer state they
// need, for dense and Mixture-of-Experts transformers, full training or low-rank adapters over
// frozen (16-bit or 4-bit) base weights, any optimizer, and ZeRO sharding. Expert weights are
// sharded over expert parallelism and their gradients and optimizer state over the expert
// data-parallel group; everything else over tensor/pipeline parallelism and data parallelism.
#pragma once

#include "clusterplan/sim/hardware.h"
#include "clusterplan/sim/plan.h"
#include "clusterplan/sim/workload.h"

namespace cp::sim {

// Per-layer pieces of a transformer, whole (no parallel sharding).
struct LayerPieces {
    double attention_rest = 0;   // attention projections, biases, layernorms
    double attention_linear = 0; // q, k, v, o weight matrices
    double dense_mlp = 0; // the dense MLP with biases (as transformer_layer_params counts it)
    double dense_mlp_linear = 0; // its weight matrices
    double expert = 0;           // one routed expert (no biases: Mixtral, DeepSeek, Qwen3)
    double router = 0;           // gating matrix h x experts
    double shared = 0;           // the shared experts together
    double moe_fraction = 0;     // MoE layers / layers
    double experts = 0;
    double attention_adapters = 0; // LoRA A+B of q, k, v, o
    double mlp_adapters = 0;       // LoRA A+B of the dense MLP matrices
    double expert_adapters = 0;    // LoRA A+B of one expert
};

LayerPieces layer_pieces(const TransformerShape& shape, const FineTuning& finetune);

struct DeviceParams {
    double dense = 0;       // replicated over dp: attention, norms, embeddings, dense MLPs,
                            // shared experts, routers (after tp/pp sharding)
    double expert = 0;      // routed experts on this device (after ep/etp sharding)
    double quantizable = 0; // linear-layer weights (QLoRA's 4-bit ones, FP8 storage)
    double adapters = 0;    // LoRA A and B matrices (trainable)
    bool frozen = false;    // base weights frozen (lora, qlora)
    double trainable_dense() const { return frozen ? adapters : dense + adapters; }
    double trainable_expert() const { return frozen ? 0.0 : expert; }
    double total() const { return dense + expert + adapters; }
};

// Parameters on one device of the fullest pipeline stage (the first: it holds the embedding).
DeviceParams device_params(const Workload& workload, const Layout& layout);

// Parameters of the whole model that the run trains (all of them, or the adapters).
double trainable_params(const Workload& workload);
// Parameters of the whole model (MoE: every expert).
double total_params(const Workload& workload);

// Ranks holding the same dense weights, over which gradients are reduced and ZeRO/FSDP shards
// state: dp x cp (context-parallel ranks hold identical weights; Megatron-Core's distributed
// optimizer and torchtitan's FSDP mesh dp_shard_cp both shard over them).
int dense_data_parallel(const Layout& layout);
// Expert data-parallel size: how many copies of each expert shard exist (tp*cp*dp / (ep*etp),
// Megatron-Core's MoE parallel folding over the same ranks).
int expert_data_parallel(const Layout& layout);

struct ModelStateBytes {
    double weights = 0;        // on the device
    double weights_frozen = 0; // the frozen part of `weights`
    double gradients = 0;
    double optimizer = 0;
    double offloaded_host = 0; // optimizer state / parameters moved to host memory or NVMe
};

// Bytes per device of weights, gradients and optimizer state (ZeRO, method, optimizer, offload).
ModelStateBytes model_state_bytes(const Workload& workload, const Layout& layout,
                                  Precision precision);

// NF4 with double quantisation: 4 bits per weight plus 8-bit block scales per 64 weights and
// one fp32 scale per 256 blocks (Dettmers et al. 2023, sec. 3): 4.127 bits.
inline constexpr double kNf4BytesPerParam = (4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0)) / 8.0;
// An FP8 (E4M3) weight: one byte; its per-tensor scale is negligible (Micikevicius et al. 2022).
inline constexpr double kFp8BytesPerParam = 1.0;

} // namespace cp::sim
