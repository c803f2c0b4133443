// A parallel layout and training options: everything about *how* a workload runs on a cluster.
#pragma once

#include "clusterplan/sim/framework.h"
#include "clusterplan/sim/hardware.h"
#include "clusterplan/sim/training_options.h"

#include <cstdint>
#include <optional>

namespace cp::sim {

enum class Recompute { none, selective, full };
enum class Schedule { gpipe, one_f_one_b, interleaved };
enum class DpComm { ring, tree, hierarchical, parameter_server };
enum class PsSync { sync, async };
// How MoE tokens reach the ranks of their experts: one all-to-all over the expert-parallel group
// (each routed copy sent to its rank), or a hierarchical dispatch (DeepEP / HybridEP) that sends
// each token once per destination node over the network and fans it out over NVLink there.
enum class EpDispatcher { alltoall, hybrid };

struct Layout {
    int tp = 1;
    int pp = 1;
    int dp = 1;
    int micro_batch = 1;
    int global_batch = 1;   // samples per optimizer step
    int virtual_stages = 1; // interleaved schedule chunks per device
    Schedule schedule = Schedule::one_f_one_b;
    bool sequence_parallel = false;
    int zero = 0; // ZeRO stage 0..3
    Recompute recompute = Recompute::none;
    DpComm dp_comm = DpComm::ring;
    int parameter_servers = 0; // server shards when dp_comm == parameter_server
    PsSync ps_sync = PsSync::sync;
    bool overlap_dp = true;
    double grad_compression = 1.0; // bytes sent / bytes of gradients (1 = none)
    // Expert parallelism: MoE experts split over `ep` ranks (each expert's matrices over `etp`),
    // carved out of the tp x dp ranks of a pipeline stage (Megatron-Core MoE parallel folding).
    int ep = 1;
    int etp = 1;
    EpDispatcher ep_dispatcher = EpDispatcher::alltoall;
    // Expert all-to-all overlapped with another micro-batch's compute (Megatron-Core
    // --overlap-moe-expert-parallel-comm, DeepSeek-V3 DualPipe): the steady 1F1B state runs one
    // micro-batch's forward beside another's backward, each hiding the other's dispatch/combine.
    bool moe_a2a_overlap = false;
    Optimizer optimizer = Optimizer::adamw;
    Offload offload;
    // Context parallelism: ranks sharing one sequence (ring attention); gradients are reduced
    // over dp * cp ranks.
    int cp = 1;
    // Pipeline stages as listed (pipeline_stages.h): layers on the first, the last, the fullest
    // and the emptiest middle stage; 0 = the default split.
    int stage_layers_first = 0;
    int stage_layers_last = 0;
    int stage_layers_middle = 0;
    int stage_layers_middle_fewest = 0;
    Framework framework = Framework::automatic;
    // Options a framework offers per run (framework.h says which): tensor-parallel collectives
    // split and pipelined with their GEMMs (torch async TP, torchtitan
    // enable_async_tensor_parallel); gradients reduced as fp32 (FSDP reduce_dtype float32, as
    // torchtitan always does); sharded parameters all-gathered in FP8 (torchao
    // enable_fsdp_float8_all_gather, FP8 runs).
    bool async_tp = false;
    // A Megatron-Core run without --tp-comm-overlap (Megatron-LM's default, arguments.py at
    // core_r0.6.0): Transformer Engine's userbuffer GEMM overlap is off, so the forward's
    // all-gathers and reduce-scatters and the backward's gathers of the row-parallel output
    // gradients wait; TE's column-parallel Linear still runs its backward input re-gather beside
    // the dgrad GEMM and the dgrad reduce-scatter beside the wgrad GEMM (async_op).
    bool no_tp_comm_overlap = false;
    // The data-parallel gradient reduce is issued as one collective per parameter tensor, not
    // per bucket: nanotron's fp32-accumulation DDP hook hands each bucket's fp32 gradient
    // tensors to all_reduce_coalesced (huggingface/nanotron@c2528430
    // src/nanotron/optim/gradient_accumulator.py get_fp32_accum_hook), which PyTorch's NCCL
    // group runs as one ncclAllReduce per tensor (pytorch/pytorch@cf1380df
    // torch/csrc/distributed/c10d/ProcessGroupNCCL.cpp allreduce_coalesced). Each op pays the
    // ring's 2(n - 1) step latencies of its own.
    bool dp_reduce_per_tensor = false;
    // Otherwise a run that states its bucket size (PyTorch DDP bucket_cap_mb, 25 MiB of 16-bit
    // gradients by default; nanotron ddp_bucket_cap_mb) issues one collective per bucket, each
    // paying the ring's step latencies; 0 = one collective for the whole reduce.
    double dp_bucket_bytes = 0;
    // Unset: the framework's default for the precision and ZeRO stage
    // (resolve_fp32_grad_reduce); a plan reports the resolved value.
    std::optional<bool> fp32_grad_reduce;
    bool fp8_param_gather = false;
    // FP8 runs that keep their linear-layer weights as FP8 tensors, with no 16-bit copy on the
    // device (Transformer Engine fp8_model_init; NeMo fp8_params, Megatron-Core
    // --fp8-param-gather): 1 byte per linear weight instead of 2, an fp32 master (if trained)
    // staying with the optimizer, and a distributed optimizer gathering the weights as FP8.
    bool fp8_weights = false;
    // FP8 runs that keep the MLP activation function's input (the up projection's output) for
    // backward as its FP8 cast, one byte instead of two, and cast it back before the backward
    // (Megatron-Core activation_func_fp8_input_store, --activation-func-fp8-input-store).
    bool fp8_activation_input = false;
    // Each column-parallel projection gathers its sequence-parallel input itself (PyTorch
    // ColwiseParallel(input_layouts=Shard(1)) on q, k, v, gate and up, with no PrepareModuleInput
    // gathering once per sublayer, as torchtitan does): a block's forward runs one all-gather per
    // projection instead of one per sublayer, and its backward one reduce-scatter per projection.
    bool tp_gather_per_projection = false;
    // Full recompute without sequence parallelism keeps each layer's checkpointed input split
    // over the tensor-parallel ranks instead of replicated, and all-gathers it before the layer is
    // recomputed (Megatron-LM --distribute-saved-activations, formerly
    // --distribute-checkpointed-activations; metaseq's OPT runs).
    bool distribute_saved_activations = false;
    // Sharded data parallelism with one tensor per parameter (PyTorch FSDP2 fully_shard): each
    // all-gather is copied out of its flat buffer into the parameters, and each reduce-scatter's
    // gradients copied (cast to the reduce dtype) into one, on the compute stream's path; FSDP1's
    // flat parameter gathers into the parameters' own storage and copies neither.
    bool fsdp_per_param_copies = false;
    // Each transformer layer's forward and backward replayed from captured CUDA graphs
    // (Megatron-Core TransformerConfig.enable_cuda_graph, NeMo LAYER_CUDA_GRAPH; Transformer
    // Engine make_graphed_callables): the host launches one graph per layer pass instead of its
    // kernels, so the layers carry no host-issue floor.
    bool cuda_graphs = false;

    int devices() const { return tp * pp * dp * cp; }
    // 64-bit product: micro_batch × dp may exceed int before check_layout rejects the layout.
    int micro_batches() const {
        const std::int64_t per_step = std::int64_t{micro_batch} * dp;
        return per_step > 0 ? static_cast<int>(global_batch / per_step) : 0;
    }
};

} // namespace cp::sim
