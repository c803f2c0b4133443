#include "clusterplan/sim/framework.h"

#include <array>

namespace cp::sim {
namespace {

// Mechanisms per framework, from each project's documentation:
// - Megatron-LM 2021-22 (Narayanan et al. SC'21; Korthikanti et al. 2022): materialised attention,
//   gradient all-reduce after the backward pass, distributed optimizer (ZeRO-1) from 2022.
// - Megatron-Core + Transformer Engine: cuDNN fused attention, --tp-comm-overlap (userbuffers,
//   needs sequence parallelism), --overlap-grad-reduce, FP8, context parallelism; the distributed
//   optimizer is ZeRO-1 (Megatron-Core docs, "distributed optimizer"); Megatron-FSDP
//   (--use-megatron-fsdp, --data-parallel-sharding-strategy optim_grads / optim_grads_params,
//   Megatron-Core since 2025) shards gradients and weights too, ZeRO-2/3, in recipes without
//   pipeline stages (docs/user-guide/features/megatron_fsdp.md, examples/megatron_fsdp). TE's FP8
//   Linear saves the FP8 cast of its input for the weight-gradient GEMM
//   (transformer_engine/pytorch/module/linear.py); torchao's Float8Linear saves the 16-bit input
//   (torchao/float8/float8_linear.py).
// - Megatron-DeepSpeed: DeepSpeed's PipelineEngine reduces gradients after the pipeline flush;
//   ZeRO-2/3 "are incompatible with pipeline parallelism" (DeepSpeed pipeline docs).
// - PyTorch FSDP (FSDP1/FSDP2, torchtitan): FULL_SHARD = ZeRO-3, SHARD_GRAD_OP = ZeRO-2;
//   torchtitan composes FSDP2 with TP, PP and CP (Liang et al. 2024, arXiv:2410.06511); FA2/SDPA;
//   float8 through torchao.
// - NeMo: Megatron-Core underneath with NVIDIA's tuned recipes.
// - NeuronX Distributed: XLA-compiled graphs, ZeRO-1 only (Neuron docs, "ZeRO-1 Tutorial"),
//   NKI flash attention. Gradients are reduced after the backward pass: the training loop runs
//   xm.mark_step() on the last micro-batch (which executes the accumulated forward/backward
//   graph) and only then optimizer.step(), whose NeuronZero1Optimizer reduce-scatters the
//   gradients and all-gathers the weights in a graph of its own (aws-neuron/neuronx-distributed
//   examples/training/llama/tp_zero1_llama_hf_pretrain; awslabs/HLAT 7b and 70b scripts).
//   Context parallelism is ring attention over tp-strided ranks, as Megatron's
//   (aws-neuron/aws-neuron-sdk 44d4fd27 libraries/neuronx-distributed/
//   context_parallelism_overview.rst; NxD Training 1.3.0, May 2025: up to 32K tokens on Trn1).
// - DeepSpeed and Megatron-DeepSpeed: context parallelism is DeepSpeed-Ulysses (Jacobs et al.
//   2023, arXiv:2309.14509; deepspeed/sequence/layer.py DistributedAttention), all-to-alls from
//   sequence-split to head-split Q/K/V around an unchanged attention kernel, with ZeRO-3 sharding
//   over the data and sequence ranks together.
// - MoE expert GEMMs: Megatron-Core's TEGroupedMLP runs Transformer Engine's GroupedLinear, whose
//   grouped GEMM launches one cuBLAS GEMM per local expert over 4 streams
//   (multi_stream_cublas_gemm); DeepSpeed-MoE loops over its local experts; NeMo AutoModel and
//   torchtitan run one grouped_gemm.gmm / torch._grouped_mm kernel for all local experts.
// - Selective activation checkpointing in torchtitan ("selective", "op"; the policy FSDP2 users
//   copy) saves the outputs of aten.mm (all but every second one in a block), of the SDPA/flash
//   kernel and of max, and recomputes every other op in backward (torchtitan
//   torchtitan/models/llama3/infra/parallelize.py, _save_list and _custom_policy).
// - Gradient reduce precision with BF16 weights, when the run does not say: Megatron-LM turns on
//   fp32 gradient accumulation and reduction for --bf16 since its BF16 support
//   (NVIDIA/Megatron-LM@50a4b5fa megatron/arguments.py, 2021-04) to today (@d98e8a64
//   megatron/training/arguments.py; opt-out --grad-reduce-in-bf16 from d165a854, Core 0.12);
//   NeMo 2's MegatronMixedPrecision defaults grad_reduce_in_fp32=True (NVIDIA/NeMo@8cfedd72
//   nemo/lightning/pytorch/plugins/mixed_precision.py) and NeMo 1's distributed optimizers sync
//   fp32 unless grad_sync_dtype is set; DeepSpeed accumulates BF16 gradients in fp32 only
//   without ZeRO (BF16_Optimizer), its ZeRO stages communicate in the weights' dtype
//   (microsoft/DeepSpeed@38327e07 deepspeed/runtime/engine.py get_data_types,
//   communication_data_type); PyTorch FSDP's reduce_dtype None is the compute dtype.
// Megatron-Core with Transformer Engine; NeMo runs the same stack (with its own name).
constexpr FrameworkProfile kMegatronCore{.id = Framework::megatron_core,
                                         .name = "megatron-core",
                                         .family = "megatron",
                                         .fused_attention = true,
                                         .te_attention = true,
                                         .tp_comm_overlap = true,
                                         .dp_overlap = true,
                                         .param_gather_overlap = true,
                                         .fp8 = true,
                                         .max_zero = 3,
                                         .max_zero_with_pp = 1,
                                         .context_parallel = true,
                                         .gpu = true,
                                         .per_expert_gemm_launch = true,
                                         .fp8_saves_casts = true,
                                         .tp_regather = true,
                                         .interleave_microbatch_groups = true,
                                         .bf16_grad_reduce_fp32 = true,
                                         .fused_projection_adapters = true};

constexpr FrameworkProfile renamed(FrameworkProfile profile, Framework id, std::string_view name) {
    profile.id = id;
    profile.name = name;
    return profile;
}

constexpr std::array<FrameworkProfile, kFrameworkCount> kProfiles{{
    {.id = Framework::megatron_lm,
     .name = "megatron-lm",
     .family = "megatron",
     .max_zero = 1,
     .max_zero_with_pp = 1,
     .gpu = true,
     .tp_regather = true,
     .bf16_grad_reduce_fp32 = true,
     .fused_projection_adapters = true},
    kMegatronCore,
    {.id = Framework::megatron_deepspeed,
     .name = "megatron-deepspeed",
     .family = "deepspeed",
     .max_zero = 3,
     .max_zero_with_pp = 1,
     .context_parallel = true,
     .gpu = true,
     .per_expert_gemm_launch = true,
     .tp_regather = true,
     .ulysses_cp = true,
     .bf16_unsharded_grad_reduce_fp32 = true,
     .fp32_grad_full_all_reduce = true,
     .fused_projection_adapters = true},
    {.id = Framework::deepspeed,
     .name = "deepspeed",
     .family = "deepspeed",
     .fused_attention = true,
     .dp_overlap = true,
     .max_zero = 3,
     .max_zero_with_pp = 1,
     .context_parallel = true,
     .gpu = true,
     .per_expert_gemm_launch = true,
     .tp_regather = true,
     .ulysses_cp = true,
     .bf16_unsharded_grad_reduce_fp32 = true},
    {.id = Framework::pytorch_fsdp,
     .name = "pytorch-fsdp",
     .family = "fsdp",
     .fused_attention = true,
     .dp_overlap = true,
     .fp8 = true,
     .max_zero = 3,
     .max_zero_with_pp = 3,
     .context_parallel = true,
     .gpu = true,
     .selective_op_policy = true,
     .async_tp_option = true,
     .fp8_tp_gather = true,
     .cp_all_gather = true,
     .interleave_rounds = true},
    renamed(kMegatronCore, Framework::nemo, "nemo"),
    {.id = Framework::neuronx_distributed,
     .name = "neuronx-distributed",
     .family = "neuron",
     .fused_attention = true,
     .max_zero = 1,
     .max_zero_with_pp = 1,
     .context_parallel = true,
     .neuron = true,
     .tp_regather = true,
     .pads_attention_heads = true},
}};

} // namespace

const FrameworkProfile& framework_profile(Framework framework) {
    // `automatic` has no mechanisms of its own; callers resolve it first (resolve_framework).
    const auto i = static_cast<std::size_t>(framework);
    return kProfiles[i < kProfiles.size() ? i : static_cast<std::size_t>(Framework::megatron_core)];
}

std::optional<Framework> framework_from_name(std::string_view name) {
    for (const auto& p : kProfiles)
        if (p.name == name) return p.id;
    return std::nullopt;
}

std::string_view enum_name(Framework framework) {
    return framework == Framework::automatic ? "automatic" : framework_profile(framework).name;
}

std::string_view framework_names() {
    return "megatron-lm, megatron-core, megatron-deepspeed, deepspeed, pytorch-fsdp, nemo, "
           "neuronx-distributed";
}

AcceleratorGeneration accelerator_generation(const AcceleratorSpec& a) {
    if (a.is_hopper()) return AcceleratorGeneration::hopper;
    if (a.id.starts_with("L4")) return AcceleratorGeneration::ada; // L4, L40, L40S (AD10x)
    if (a.is_a100() || a.id.starts_with("A10") || a.id.starts_with("A40"))
        return AcceleratorGeneration::ampere;
    if (a.id.starts_with("V100")) return AcceleratorGeneration::volta;
    if (a.id.starts_with("B200") || a.id.starts_with("B100") || a.id.starts_with("GB200"))
        return AcceleratorGeneration::blackwell;
    // Each Trainium chip is its own generation; a later one shares no bucket with these.
    if (a.id.starts_with("Trainium2")) return AcceleratorGeneration::trainium2;
    if (a.id == "Trainium" || a.id.starts_with("Trainium1")) return AcceleratorGeneration::trainium;
    if (a.id.starts_with("Gaudi")) return AcceleratorGeneration::gaudi;
    return AcceleratorGeneration::other;
}

std::string_view enum_name(AcceleratorGeneration g) {
    switch (g) {
    case AcceleratorGeneration::volta:
        return "volta";
    case AcceleratorGeneration::ampere:
        return "ampere";
    case AcceleratorGeneration::hopper:
        return "hopper";
    case AcceleratorGeneration::blackwell:
        return "blackwell";
    case AcceleratorGeneration::trainium:
        return "trainium";
    case AcceleratorGeneration::gaudi:
        return "gaudi";
    case AcceleratorGeneration::ada:
        return "ada";
    case AcceleratorGeneration::trainium2:
        return "trainium2";
    case AcceleratorGeneration::other:
        return "other";
    }
    return "other";
}

Framework default_framework(const AcceleratorSpec& a) {
    if (a.id.starts_with("Trainium")) return Framework::neuronx_distributed;
    if (a.vendor == "NVIDIA") return Framework::megatron_core;
    return Framework::deepspeed;
}

bool framework_runs_on(Framework framework, const AcceleratorSpec& a) {
    const FrameworkProfile& p = framework_profile(framework);
    const bool trainium = a.id.starts_with("Trainium");
    if (trainium) return p.neuron;
    if (a.vendor == "NVIDIA") return p.gpu;
    return framework == Framework::deepspeed || framework == Framework::pytorch_fsdp;
}

} // namespace cp::sim

namespace cp::sim {

Framework factor_group(Framework framework) {
    return framework == Framework::nemo ? Framework::megatron_core : framework;
}

Framework resolve_framework(Framework framework, const AcceleratorSpec& accelerator, int zero) {
    if (framework != Framework::automatic) return framework;
    const Framework fallback = default_framework(accelerator);
    // Sharded weights and gradients on NVIDIA GPUs are planned as PyTorch FSDP, the stack most
    // such runs use; Megatron-FSDP is there when the scenario names megatron-core or nemo.
    if (zero > 1 && accelerator.vendor == "NVIDIA") return Framework::pytorch_fsdp;
    return fallback;
}

bool resolve_fp32_grad_reduce(std::optional<bool> stated, Framework framework, Precision precision,
                              int zero) {
    if (stated) return *stated;
    if (precision != Precision::bf16 && precision != Precision::fp8) return false;
    const FrameworkProfile& p = framework_profile(framework);
    return p.bf16_grad_reduce_fp32 || (p.bf16_unsharded_grad_reduce_fp32 && zero == 0);
}

} // namespace cp::sim
