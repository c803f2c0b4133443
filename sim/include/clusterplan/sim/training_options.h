// What a training run updates and how it keeps its optimizer state: the fine-tuning method
// (full parameters or low-rank adapters over frozen, possibly 4-bit, base weights), the
// optimizer, and where optimizer state and parameters live (GPU, host memory or NVMe).
#pragma once

namespace cp::sim {

// pretrain and full update every parameter; lora and qlora train low-rank adapters (Hu et al.
// 2021, "LoRA") over frozen base weights, which qlora stores as 4-bit NormalFloat with double
// quantisation (Dettmers et al. 2023, "QLoRA").
enum class TrainingMethod { pretrain, full, lora, qlora };
// Which linear layers carry adapters: the attention projections (q, k, v, o), the MLP (or every
// expert's) matrices, or both.
enum class LoraTargets { attention, mlp, all };

struct LoraSpec {
    int rank = 16;
    double alpha = 32; // scaling alpha/rank: changes the update, not the cost
    LoraTargets targets = LoraTargets::all;
};

struct FineTuning {
    TrainingMethod method = TrainingMethod::pretrain;
    LoraSpec lora;
    bool adapters() const {
        return method == TrainingMethod::lora || method == TrainingMethod::qlora;
    }
};

// adamw_bf16: AdamW with parameters, gradients and both moments in BF16 and no fp32 copy, as
// Neuron trains under XLA_USE_BF16 with stochastic rounding ("full BF16", aws-neuron-sdk
// archive/appnotes/torch-neuronx/migration-from-xla-downcast-bf16.rst).
enum class Optimizer { adamw, adamw_8bit, adafactor, sgd, lion, adamw_bf16 };
enum class OffloadTarget { none, cpu, nvme };

// ZeRO-Offload (Ren et al. 2021) moves optimizer state and its step to the host CPU;
// ZeRO-Infinity (Rajbhandari et al. 2021) adds NVMe and parameter offload.
struct Offload {
    OffloadTarget optimizer = OffloadTarget::none;
    OffloadTarget params = OffloadTarget::none;
    bool any() const { return optimizer != OffloadTarget::none || params != OffloadTarget::none; }
};

} // namespace cp::sim
