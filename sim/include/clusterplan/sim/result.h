// The outcome of evaluating one plan: step time and its breakdown, memory, throughput.
// Kept allocation-free so sweeps can evaluate millions of plans per second.
#pragma once

namespace cp::sim {

// Why a plan is not valid or does not fit. `none` means the plan is valid.
enum class Limit {
    none,
    invalid_layout, // tp*pp*dp != devices, tp not dividing heads, batch not divisible ...
    out_of_memory,
    cannot_train,     // accelerator is inference-only or lacks the precision
    unknown_hardware, // a figure the model needs is unknown (NaN) for this accelerator
};

struct StepBreakdown {
    double compute_s = 0;
    double recompute_s = 0;
    double tp_comm_s = 0;
    double pp_bubble_s = 0;
    double pp_comm_s = 0;
    double dp_comm_exposed_s = 0;
    double optimizer_s = 0;
    // GPU idle while the host issues the kernels of small layers (host-issue floor).
    double host_overhead_s = 0;
    // Expert-parallel all-to-all (MoE token dispatch and combine), not overlapped.
    double ep_comm_s = 0;
    // Optimizer/parameter offload transfers and host optimizer step the GPU waits for.
    double offload_s = 0;
    // Exposed context-parallel K/V ring (ring attention) beyond the attention it hides behind.
    double cp_comm_s = 0;
};

struct MemoryGib {
    double weights = 0;
    double gradients = 0;
    double optimizer = 0;
    double activations = 0;
    double total = 0;
    double capacity = 0;
    double weights_frozen = 0; // the frozen part of `weights` (LoRA/QLoRA base)
    double offloaded_host = 0; // per device, moved to host memory or NVMe (not in total)
    double host_capacity = 0;  // instance host memory per device (0 = unknown)
};

// Which measured figures replaced datasheet defaults in an evaluation (for `calibration`).
struct CalibrationUse {
    bool gemm = false;
    bool hbm = false;
    bool intra_node = false;
    bool inter_node = false;
    bool job = false; // factors fitted on the user's own job log
    bool any() const { return gemm || hbm || intra_node || inter_node || job; }
};

struct PlanResult {
    Limit limit = Limit::none;
    double step_time_s = 0;
    StepBreakdown breakdown_s;
    double dp_comm_total_s = 0;     // before overlap, for explanations
    double dp_bytes_per_device = 0; // gradient-sync bytes each device sends per step
    double tokens_per_s = 0;
    double samples_per_s = 0;
    double model_flops_per_step = 0;    // 6·P-style, no recompute, whole cluster
    double trainable_params = 0;        // parameters the run updates (all, or LoRA adapters)
    double hardware_flops_per_step = 0; // counts recompute (Megatron definition)
    double model_tflops_per_device = 0;
    double hardware_tflops_per_device = 0;
    double mfu = 0;
    MemoryGib memory_gib;
    bool fits_in_memory = false;
    int micro_batches = 0;         // m = global_batch / (micro_batch * dp)
    double pp_bubble_fraction = 0; // bubble time / step time
    CalibrationUse calibration_used;

    bool valid() const { return limit == Limit::none; }
};

} // namespace cp::sim
