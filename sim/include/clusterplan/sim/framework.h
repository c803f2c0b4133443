// Training software as part of the model. The same layout runs at different speeds in different
// frameworks: which attention kernel runs, whether TP collectives hide behind GEMMs, whether the
// gradient reduce overlaps the backward pass, which ZeRO stages combine with pipelining, whether
// FP8 GEMMs exist. Each framework switches those mechanisms on or off and carries a compute
// efficiency fitted (fit_framework_factors, validation_runs.h) over the published runs it ran.
#pragma once

#include "clusterplan/sim/hardware.h"

#include <optional>
#include <string_view>

namespace cp::sim {

enum class Framework {
    megatron_lm,         // NVIDIA Megatron-LM 2021-22 (SC'21, Korthikanti 2022): no TE, no overlap
    megatron_core,       // Megatron-Core + Transformer Engine (2023-)
    megatron_deepspeed,  // Megatron-DeepSpeed with DeepSpeed's pipeline engine (MT-NLG, BLOOM)
    deepspeed,           // DeepSpeed ZeRO with a PyTorch model (HF Trainer, ...)
    pytorch_fsdp,        // PyTorch FSDP1/FSDP2, torchtitan, llm-foundry/Composer, lit-gpt
    nemo,                // NVIDIA NeMo (Megatron-Core + TE underneath, tuned recipes)
    neuronx_distributed, // AWS NeuronX Distributed / neuronx-nemo-megatron on Trainium
    // Not named by the scenario: resolved per plan by resolve_framework (the plan names it).
    automatic
};
inline constexpr int kFrameworkCount = 7; // real frameworks (automatic excluded)

// Accelerator generation, the second axis of the fitted factors and of validation buckets.
// Ada Lovelace (L4, L40S) and Trainium2 are appended so the fitted tables' integer codes of the
// others hold. `trainium` is Trainium1 (trn1, trn1n): Trainium2 (trn2) is a different chip
// (NeuronCore-v3, 8 cores, 2.9 TB/s HBM; AWS Neuron docs trainium2.rst), so runs on one do not
// validate plans on the other.
enum class AcceleratorGeneration {
    volta,
    ampere,
    hopper,
    blackwell,
    trainium,
    gaudi,
    ada,
    trainium2,
    other
};

struct FrameworkProfile {
    // Mechanisms default to off; each profile names only what its framework turns on.
    Framework id;
    std::string_view name;        // as written in scenarios and JSON ("megatron-core")
    std::string_view family;      // validation bucket: "megatron", "deepspeed", "fsdp", "neuron"
    bool fused_attention = false; // attention kernel when model.flash_attention is not given
    bool te_attention = false; // cuDNN/Transformer Engine fused attention (fitted rate on Hopper)
    // TP all-gather/reduce-scatter split and hidden behind GEMMs (needs SP).
    bool tp_comm_overlap = false;
    bool dp_overlap = false; // gradient reduce can overlap the backward pass
    // The distributed optimizer's all-gather of updated weights runs behind the next step's
    // forward pass (Megatron-Core --overlap-param-gather, NeMo overlap_param_gather /
    // overlap_param_sync: forward pre-hooks wait for each bucket as its layers start) instead of
    // behind the backward with the gradient reduce-scatter.
    bool param_gather_overlap = false;
    bool fp8 = false;              // FP8 GEMMs offered (Transformer Engine, torchao float8)
    int max_zero = 0;              // highest ZeRO stage (FSDP FULL_SHARD = 3)
    int max_zero_with_pp = 0;      // highest ZeRO stage combined with pipeline parallelism
    bool context_parallel = false; // the sequence split over cp > 1 ranks (ring or Ulysses)
    bool gpu = false;              // runs on NVIDIA GPUs
    bool neuron = false;           // runs on Trainium
    // MoE experts' GEMMs launched one per local expert (Transformer Engine's grouped GEMM loops
    // cuBLAS calls over the experts; DeepSpeed-MoE loops its experts in Python) rather than as
    // one grouped kernel (grouped_gemm / torch._grouped_mm, as torchtitan and NeMo AutoModel).
    bool per_expert_gemm_launch = false;
    // Selective recompute is PyTorch's op-level policy (torchtitan "selective op" activation
    // checkpointing): every op's output is recomputed in backward except the attention kernel's
    // and every other matmul's, instead of Megatron's recompute of the attention core only.
    bool selective_op_policy = false;
    // FP8 GEMMs keep their activation inputs for backward as the 1-byte casts (Transformer
    // Engine's Linear/LayerNormLinear/LayerNormMLP save the FP8 tensor for the weight gradient);
    // torchao's Float8Linear saves the 16-bit input and casts again in backward.
    bool fp8_saves_casts = false;
    // TP collectives can be pipelined with their GEMMs as a per-run option (Layout::async_tp):
    // PyTorch's micro-pipelined async TP (torch.distributed._symmetric_memory, fused
    // all-gather-matmul and matmul-reduce-scatter under torch.compile), torchtitan
    // enable_async_tensor_parallel.
    bool async_tp_option = false;
    // Sequence-parallel inputs of the column-parallel GEMMs all-gathered again in backward for
    // the weight gradients (Megatron's and NeuronX's linear layers keep them sharded); DTensor
    // (PyTorch TP) saves the gathered tensor instead.
    bool tp_regather = false;
    // FP8 runs all-gather TP inputs (and the row-parallel outputs' gradients) as FP8: torchao's
    // Float8ColwiseParallel / Float8RowwiseParallel / PrepareFloat8ModuleInput cast first.
    bool fp8_tp_gather = false;
    // Context parallelism as PyTorch's context_parallel runs it (pytorch-fsdp, torchtitan): K/V
    // all-gathered once per pass, fp32 output merges and dK/dV sends (engine/context_parallel.h),
    // rather than Megatron-Core's per-step K/V ring through Transformer Engine's fused attention.
    bool cp_all_gather = false;
    // Context parallelism as DeepSpeed-Ulysses runs it (deepspeed, megatron-deepspeed: DeepSpeed
    // `DistributedAttention`, Megatron-DeepSpeed `--ds-sequence-parallel-size`): all-to-alls turn
    // the sequence-split Q/K/V into head-split ones over the whole sequence and the attention
    // output back (Jacobs et al. 2023, arXiv:2309.14509, sec. 3), in place of a K/V ring.
    bool ulysses_cp = false;
    // The interleaved schedule takes micro-batch counts that pp does not divide: Megatron-Core's
    // microbatch_group_size_per_vp_stage N (pp <= N <= M) runs groups of N micro-batches per
    // virtual stage, and M % N must be 0 or at least pp (Megatron-LM@4295be1a, 2024-11-01,
    // megatron/core/pipeline_parallel/schedules.py). Older Megatron requires pp to divide M.
    bool interleave_microbatch_groups = false;
    // PyTorch's ScheduleInterleaved1F1B (torchtitan): rounds = max(1, M / pp) and M must be a
    // multiple of them, each round running M / rounds micro-batches per virtual stage, fewer than
    // pp when M < pp (torch/distributed/pipelining/schedules.py, "Interleaved 1F1B requires the
    // number of microbatches to be a multiple of the number of rounds").
    bool interleave_rounds = false;
    // Gradient reduce precision when a run does not state it (Layout::fp32_grad_reduce unset),
    // for BF16 weights (bf16 and fp8 precisions): fp32 in Megatron-LM/Megatron-Core and NeMo,
    // whose trainers turn fp32 gradient accumulation and reduction on for BF16 (docs/DESIGN.md
    // "Gradient reduce precision" has the code at each version); fp32 only without ZeRO in
    // DeepSpeed (its BF16_Optimizer accumulates and reduces fp32 gradients at stage 0, its ZeRO
    // optimizers reduce in the weights' dtype); the weights' 16 bits otherwise (PyTorch FSDP's
    // reduce_dtype None). FP16 runs reduce in 16 bits by default in every framework.
    bool bf16_grad_reduce_fp32 = false;
    bool bf16_unsharded_grad_reduce_fp32 = false;
    // BF16 weights with fp32 gradients run DeepSpeed's BF16_Optimizer, whose pipeline engine
    // all-reduces the whole fp32 gradients over the data-parallel group (_exec_reduce_grads ->
    // _bf16_reduce_grads -> buffered_allreduce_fallback) before each rank updates its shard of
    // the fp32 master weights and all-gathers the 16-bit ones (step -> all_gather_dp_groups;
    // microsoft/DeepSpeed@735406e5 deepspeed/runtime/pipe/engine.py, runtime/bf16_optimizer.py):
    // a full all-reduce where a ZeRO-1 optimizer reduce-scatters.
    bool fp32_grad_full_all_reduce = false;
    // LoRA adapters sit on the fused QKV and gate/up projections, one adapter each (Megatron's
    // query_key_value / linear_qkv and linear_fc1: NeMo's lora targets linear_qkv, linear_proj,
    // linear_fc1, linear_fc2), instead of one per q, k, v (gate, up) projection as Hugging Face
    // PEFT places them on separate modules.
    bool fused_projection_adapters = false;
    // Attention heads that tp does not divide are padded up to the next multiple of tp, the extra
    // heads computed and masked (NeuronX Distributed pad_model / get_number_of_extra_heads,
    // aws-neuron/neuronx-distributed@fbac349b src/neuronx_distributed/parallel_layers/pad.py; its
    // DBRX example trains 48 heads at tp 32 as 64). Megatron and FSDP need tp to divide them.
    bool pads_attention_heads = false;
};

const FrameworkProfile& framework_profile(Framework framework);
std::optional<Framework> framework_from_name(std::string_view name);
std::string_view enum_name(Framework framework);
// The names, comma separated, for error messages.
std::string_view framework_names();

AcceleratorGeneration accelerator_generation(const AcceleratorSpec& accelerator);
std::string_view enum_name(AcceleratorGeneration generation);

// The framework a plan assumes when the scenario names none: Megatron-Core on NVIDIA GPUs (what
// NVIDIA's published recipes run), NeuronX Distributed on Trainium, DeepSpeed elsewhere (Habana's
// Gaudi stack is a DeepSpeed fork).
Framework default_framework(const AcceleratorSpec& accelerator);

// The framework whose fitted efficiency `framework` shares: NeMo runs Megatron-Core and
// Transformer Engine underneath, so their runs are one population; the others are their own.
Framework factor_group(Framework framework);

// Whether `framework` runs on `accelerator` at all (Neuron software only on Trainium, ...).
bool framework_runs_on(Framework framework, const AcceleratorSpec& accelerator);

// The framework a layout runs in: its own, or for `automatic` the default of the accelerator,
// except that sharded data parallelism beyond ZeRO-1 (ZeRO-2/3), which Megatron-Core does not
// offer, resolves to PyTorch FSDP on NVIDIA GPUs.
Framework resolve_framework(Framework framework, const AcceleratorSpec& accelerator, int zero);

// Whether data-parallel gradients reduce in fp32: `stated` when the run says, else the default of
// `framework` (resolved, not `automatic`) for `precision` at ZeRO stage `zero`.
bool resolve_fp32_grad_reduce(std::optional<bool> stated, Framework framework, Precision precision,
                              int zero);

} // namespace cp::sim
