// The analytical step model: per-GEMM compute, memory-bound kernels, TP/PP/DP communication,
// pipeline bubble and optimizer step for one training iteration (DESIGN.md "The simulator model").
#include "clusterplan/sim/step_model.h"

#include "clusterplan/sim/framework_factors.h"
#include "engine/collectives.h"
#include "engine/compute_rates.h"
#include "engine/context_parallel.h"
#include "engine/data_parallel_sync.h"
#include "engine/framework_rates.h"
#include "engine/gaudi_rates.h"
#include "engine/layer_training.h"
#include "engine/layout_check.h"
#include "engine/memory_model.h"
#include "engine/model_constants.h"
#include "engine/model_state.h"
#include "engine/offload.h"
#include "engine/optimizer_state.h"
#include "engine/pipeline_stages.h"
#include "engine/training_constants.h"
#include "engine/transformer_stage.h"
#include "engine/transformer_work.h"

#include <algorithm>

namespace cp::sim {

namespace {

constexpr double kTera = 1e12;

void finish_throughput(PlanResult& r, const Workload& workload, const Cluster& cluster,
                       const Layout& layout, double peak_flops) {
    const double devices = cluster.devices();
    r.samples_per_s = layout.global_batch / r.step_time_s;
    r.tokens_per_s = r.samples_per_s * workload.tokens_per_sample();
    r.model_tflops_per_device = r.model_flops_per_step / r.step_time_s / devices / kTera;
    r.hardware_tflops_per_device = r.hardware_flops_per_step / r.step_time_s / devices / kTera;
    r.mfu = r.model_tflops_per_device * kTera / peak_flops;
    r.fits_in_memory = r.memory_gib.total <= r.memory_gib.capacity;
    if (!r.fits_in_memory) r.limit = Limit::out_of_memory;
}

// Offloaded state must fit the instance's host memory (its usable share, split over the node's
// devices); an unknown host memory is not checked.
void check_host_memory(PlanResult& r, const NodeSpec& node) {
    if (r.memory_gib.offloaded_host <= 0 || !is_known(node.host_memory_gib)) return;
    r.memory_gib.host_capacity = node.host_memory_gib * model::kHostMemoryUsableFraction /
                                 std::max(1, node.accelerators_per_node);
    if (r.memory_gib.offloaded_host > r.memory_gib.host_capacity) {
        r.fits_in_memory = false;
        if (r.limit == Limit::none) r.limit = Limit::out_of_memory;
    }
}

// Whole-step fraction of the peak a CNN-like model reaches, where it was measured: on NVIDIA GPUs
// (model_constants.h, ResNet-50) and on Gaudi1 (engine/gaudi_rates.h); other accelerators'
// compilers and kernels differ, and no measurement of theirs is known (NaN).
double generic_compute_fraction(const AcceleratorSpec& accelerator, Precision precision) {
    if (accelerator.vendor != "NVIDIA")
        return gaudi_generic_compute_fraction(accelerator, precision);
    switch (precision) {
    case Precision::fp32:
        return model::kGenericComputeFractionFp32;
    case Precision::tf32:
        return model::kGenericComputeFractionTf32;
    case Precision::fp16:
    case Precision::bf16:
    case Precision::fp8:
        return model::kGenericComputeFractionHalf;
    }
    return model::kGenericComputeFractionHalf;
}

PlanResult evaluate_generic(const Workload& workload, const Cluster& cluster, const Layout& layout,
                            Precision precision, const Network& net, const ComputeRates& rates,
                            double fraction) {
    PlanResult r;
    const double m = layout.micro_batches();
    r.micro_batches = layout.micro_batches();
    // The fraction holds at the measured boards' clocks; power limit or headroom moves the clock.
    const double per_mb_s = workload.flops_per_sample * layout.micro_batch /
                            (rates.peak_flops * rates.power_clock_fraction * fraction);
    r.breakdown_s.compute_s = m * per_mb_s;
    const int g = net.devices_per_node;
    const int dp_local = std::min(layout.dp, g);
    const DpSync sync =
        dp_sync(net, layout, dp_local,
                workload.params * weight_bytes_per_param(precision) * layout.grad_compression);
    r.dp_comm_total_s = sync.time_s;
    r.dp_bytes_per_device = sync.bytes_sent;
    const double window =
        layout.dp_comm == DpComm::parameter_server && layout.ps_sync == PsSync::async
            ? r.breakdown_s.compute_s
            : (2.0 / 3.0) * per_mb_s; // backward of the last micro-batch
    r.breakdown_s.dp_comm_exposed_s = layout.overlap_dp || layout.ps_sync == PsSync::async
                                          ? std::max(0.0, sync.time_s - window)
                                          : sync.time_s;
    const double opt_params = workload.params / (layout.zero >= 1 ? layout.dp : 1);
    r.breakdown_s.optimizer_s = memory_time_s(
        rates, opt_params * optimizer_traffic_bytes_per_param(layout.optimizer, precision), 1);
    r.step_time_s =
        r.breakdown_s.compute_s + r.breakdown_s.dp_comm_exposed_s + r.breakdown_s.optimizer_s;
    r.model_flops_per_step = workload.flops_per_sample * layout.global_batch;
    r.hardware_flops_per_step = r.model_flops_per_step;
    r.memory_gib = generic_memory(workload, layout, precision, cluster.node.accelerator.memory_gib);
    r.trainable_params = workload.params;
    finish_throughput(r, workload, cluster, layout, rates.peak_flops);
    return r;
}

// Point-to-point time per micro-batch on the critical path (forward activation + backward grad,
// v times with interleaving).
double pipeline_p2p_s(const TransformerShape& shape, const Layout& layout, const Network& net,
                      double e) {
    if (layout.pp <= 1) return 0;
    // Each context-parallel rank sends its own s/cp tokens.
    const double msg =
        double(layout.micro_batch) * shape.seq_len / std::max(1, layout.cp) * shape.hidden * e;
    const int g = net.devices_per_node;
    // Rank distance between adjacent stages (rank order tp, cp, dp, pp).
    const int stride = layout.tp * layout.cp * layout.dp;
    const bool crosses_nodes = stride * layout.pp > g;
    double one = 0;
    if (!crosses_nodes) {
        one = p2p_s(net.intra, msg);
    } else {
        // Each of the boundary's devices sends through the node NICs at the same time. With tp > 1
        // Megatron sends 1/tp of the tensor per rank and all-gathers it inside the node.
        const int senders = std::min(g, stride);
        LinkTier tier = net.inter;
        tier.bus_bytes_per_s = net.inter.bus_bytes_per_s / senders;
        const bool scatter_gather = layout.tp > 1 && layout.tp <= g;
        one = scatter_gather
                  ? p2p_s(tier, msg / layout.tp) + reduce_scatter_s(net.intra, layout.tp, msg)
                  : p2p_s(tier, msg);
    }
    return 2.0 * std::max(1, layout.virtual_stages) * one;
}

PlanResult evaluate_transformer(const Workload& workload, const Cluster& cluster,
                                const Layout& layout, Precision precision, const Network& net,
                                const ComputeRates& rates, const FrameworkProfile& fw) {
    PlanResult r;
    // Tensor parallelism wider than the KV heads replicates them (Megatron, NeuronX): each rank
    // computes and stores one KV head, as if the model had tp of them.
    TransformerShape shape = workload.shape;
    // Heads padded to a multiple of tp (FrameworkProfile::pads_attention_heads) keep their width
    // and are computed and stored like the model's own; model FLOPs count the model's heads.
    if (fw.pads_attention_heads && shape.heads % layout.tp != 0) {
        shape.head_dim = static_cast<int>(shape.attention_head_dim());
        shape.heads = (shape.heads + layout.tp - 1) / layout.tp * layout.tp;
    }
    if (layout.tp > shape.kv_heads) shape.kv_heads = layout.tp;
    Workload computed = workload;
    computed.shape = shape;
    const double e = weight_bytes_per_param(precision);
    StageOptions options;
    options.bytes_per_element = e;
    // Layers replayed from CUDA graphs issue no kernels one by one (Layout::cuda_graphs).
    options.host_pass_s = cluster.node.accelerator.eager_kernel_issue && !layout.cuda_graphs
                              ? cluster.node.accelerator.host_issue.per_layer_pass_s
                              : 0.0;
    options.host_overlap_exponent = cluster.node.accelerator.host_issue.overlap_exponent;
    options.expert_issue_pass_s =
        cluster.node.accelerator.eager_kernel_issue && fw.per_expert_gemm_launch
            ? model::kMoeExpertIssuePerPassS
            : 0.0;
    options.expert_issue_combined_pass_s =
        options.expert_issue_pass_s > 0 ? model::kMoeCombinedScheduleIssuePerPassS : 0.0;
    options.expert_gemm_streams = fw.per_expert_gemm_launch ? model::kExpertGemmStreams : 0;
    const bool fw_overlap = fw.tp_comm_overlap && !layout.no_tp_comm_overlap;
    options.tp_comm_overlap = fw_overlap || (layout.async_tp && fw.async_tp_option);
    options.tp_overlap_forward_only = !fw_overlap && options.tp_comm_overlap;
    options.tp_async_backward = fw.tp_comm_overlap && layout.no_tp_comm_overlap;
    options.fp8 = precision == Precision::fp8;
    options.selective_op_policy = fw.selective_op_policy;
    options.tp_regather = fw.tp_regather;
    options.fp8_tp_gather = fw.fp8_tp_gather;
    options.cp_all_gather = fw.cp_all_gather;
    options.ulysses_cp = fw.ulysses_cp;
    options.finetune = workload.finetune;
    options.fused_projection_adapters = fw.fused_projection_adapters;
    const StageTimes st = slowest_stage(shape, layout, net, rates, options);
    const double p2p = pipeline_p2p_s(cp_local_shape(shape, layout.cp), layout, net, e);
    const double m = layout.micro_batches();
    const double v = std::max(1, layout.virtual_stages);
    r.micro_batches = layout.micro_batches();

    StepBreakdown& b = r.breakdown_s;
    b.compute_s = m * st.compute_s;
    b.host_overhead_s = m * st.host_s;
    b.recompute_s = m * st.recompute_s;
    b.tp_comm_s = m * st.tp_comm_s;
    b.cp_comm_s = m * st.cp_comm_s;
    b.pp_comm_s = m * p2p;
    b.ep_comm_s = m * st.ep_comm_s;
    const double per_mb = st.compute_s + st.host_s + st.recompute_s + st.tp_comm_s + st.cp_comm_s +
                          st.ep_comm_s + p2p;
    // 1F1B fill and drain: the first micro-batch passes every stage forward and backward, then
    // the slowest stage paces the other m - 1, so the bubble is the other stages' time, (p - 1)
    // stage times when the stages are even (Narayanan et al. SC'21 sec. 2.2), less when end
    // stages hold fewer layers or the logits (interleaving divides it by v).
    const double stages_s = layout.pp * (st.mean_stage_s + p2p);
    b.pp_bubble_s = std::max(0.0, stages_s - per_mb) / v;
    // Fewer micro-batches than stages under interleaving (PyTorch's one round, M < pp): a rank
    // finishes a virtual chunk's m micro-batches before the first returns from the last stage and
    // waits p - m chunk times per chunk after the first, (p - m)(1 - 1/v) stage times in all.
    if (layout.schedule == Schedule::interleaved && v > 1 && m < layout.pp)
        b.pp_bubble_s += (layout.pp - m) * (1.0 - 1.0 / v) * (st.mean_stage_s + p2p);
    const double pipeline_s = b.compute_s + b.host_overhead_s + b.recompute_s + b.tp_comm_s +
                              b.cp_comm_s + b.ep_comm_s + b.pp_comm_s + b.pp_bubble_s;

    // Gradients are reduced over every rank that holds the same weights: dp x cp.
    Layout sync = layout;
    sync.dp = dense_data_parallel(layout);
    const DeviceParams dev = device_params(computed, layout);
    const double params_device = dev.total();
    const int g = net.devices_per_node;
    const int dp_local = layout.tp >= g ? 1 : std::min(sync.dp, g / layout.tp);
    // Gradients leave as fp32 when the run reduces in fp32; FP8 runs may gather their sharded
    // linear weights as FP8 (embeddings and norms stay 16-bit), as do runs that store them as
    // FP8 (Layout::fp8_weights) when those weights are trained.
    const double grad_scale = layout.fp32_grad_reduce.value_or(false) ? 4.0 / e : 1.0;
    const bool fp8_gather =
        precision == Precision::fp8 && (layout.fp8_param_gather || layout.fp8_weights);
    const double fp8_saved = fp8_gather ? fp8_gathered_params(computed, layout) * (e - 1.0) : 0.0;
    const double gather_bytes = params_device * e - fp8_saved;
    if (const Zero3Traffic z3 =
            zero3_traffic(sync, net, dp_local, st, gather_bytes,
                          params_device * e * layout.grad_compression * grad_scale);
        z3.applies) {
        r.dp_comm_total_s = z3.total_s;
        r.dp_bytes_per_device = z3.bytes_sent;
        b.dp_comm_exposed_s =
            z3.exposed_s + fsdp_copy_s(sync, rates, st, gather_bytes, params_device * e,
                                       params_device * e * grad_scale);
    } else {
        const bool full_reduce = fw.fp32_grad_full_all_reduce &&
                                 (precision == Precision::bf16 || precision == Precision::fp8) &&
                                 layout.fp32_grad_reduce.value_or(false);
        const int reduce_calls = dp_reduce_calls(layout, st.layers, dev.trainable_dense() * e);
        DpSync dps = dp_sync(
            net, sync, dp_local, dev.trainable_dense() * e * layout.grad_compression * grad_scale,
            dev.trainable_dense() * e - (dev.frozen ? 0.0 : fp8_saved), full_reduce, reduce_calls);
        // Expert gradients sync over the expert data-parallel group (stride ep*etp in rank order).
        if (const int edp = expert_data_parallel(layout); edp > 1 && dev.trainable_expert() > 0) {
            Layout expert_group = layout;
            expert_group.dp = edp;
            const int local =
                std::max(1, std::min(edp, g / std::max(layout.tp, layout.ep * layout.etp)));
            const DpSync es = dp_sync(net, expert_group, local,
                                      dev.trainable_expert() * e * layout.grad_compression);
            dps.time_s += es.time_s;
            dps.gather_s += es.gather_s;
            dps.bytes_sent += es.bytes_sent;
        }
        r.dp_comm_total_s = dps.time_s;
        r.dp_bytes_per_device = dps.bytes_sent;
        if (layout.dp_comm == DpComm::parameter_server && layout.ps_sync == PsSync::async)
            b.dp_comm_exposed_s = overlapped_comm_s(dps.time_s, pipeline_s); // beside the next step
        else if (layout.overlap_dp && fw.param_gather_overlap && dps.gather_s > 0)
            // The reduce-scatter runs behind the last backward; the updated weights' all-gather
            // behind the next step's first forward, bucket by bucket as its layers need them.
            b.dp_comm_exposed_s =
                overlapped_comm_s(dps.time_s - dps.gather_s, st.backward_s) +
                overlapped_comm_s(dps.gather_s, st.compute_s + st.recompute_s - st.backward_s);
        else if (layout.overlap_dp)
            b.dp_comm_exposed_s = overlapped_comm_s(dps.time_s, st.backward_s);
        else
            b.dp_comm_exposed_s = dps.time_s;
    }
    const double opt_params =
        dev.trainable_dense() / (layout.zero >= 1 ? sync.dp : 1) +
        dev.trainable_expert() / (layout.zero >= 1 ? expert_data_parallel(layout) : 1);
    if (layout.offload.optimizer == OffloadTarget::none)
        b.optimizer_s = memory_time_s(
            rates, opt_params * optimizer_traffic_bytes_per_param(layout.optimizer, precision), 1);
    OffloadTimes off;
    const OffloadWindows windows{st.compute_s + st.recompute_s - st.backward_s, st.backward_s,
                                 r.micro_batches};
    if (!offload_times(computed, layout, cluster.node, precision, windows, off)) {
        r.limit = Limit::unknown_hardware;
        return r;
    }
    b.offload_s = off.exposed_s;

    r.step_time_s = pipeline_s + b.dp_comm_exposed_s + b.optimizer_s + b.offload_s;
    r.pp_bubble_fraction = b.pp_bubble_s / r.step_time_s;
    const FlopsAdjust fa = flops_adjust_per_sample(workload, layout.recompute);
    r.model_flops_per_step =
        layout.global_batch * (transformer_model_flops_per_sample(workload.shape) + fa.model);
    r.hardware_flops_per_step =
        layout.global_batch *
        (transformer_flops_per_sample(shape, layout.recompute, fw.selective_op_policy) +
         fa.hardware);
    r.trainable_params = trainable_params(workload);
    r.memory_gib =
        transformer_memory(computed, layout, precision, cluster.node.accelerator.memory_gib);
    finish_throughput(r, workload, cluster, layout, rates.peak_flops);
    check_host_memory(r, cluster.node);
    return r;
}

PlanResult evaluate_resolved(const Workload& workload, const Cluster& cluster, const Layout& in,
                             Precision precision, const CalibrationProfile* calibration,
                             double efficiency) {
    PlanResult r;
    const AcceleratorSpec& acc = cluster.node.accelerator;
    const int p = static_cast<int>(precision);
    if (!acc.can_train || acc.precision_unsupported[static_cast<std::size_t>(p)]) {
        r.limit = Limit::cannot_train;
        return r;
    }
    Layout layout = in;
    layout.framework = resolve_framework(in.framework, acc, in.zero);
    const FrameworkProfile& fw = framework_profile(layout.framework);
    if (precision == Precision::fp8 && !fw.fp8) {
        r.limit = Limit::cannot_train; // the framework has no FP8 GEMMs
        return r;
    }
    r.limit = check_layout(workload, cluster, layout);
    if (r.limit != Limit::none) return r;
    // A framework without gradient-reduce overlap reduces after the backward pass.
    layout.overlap_dp = in.overlap_dp && fw.dp_overlap;
    layout.fp32_grad_reduce =
        resolve_fp32_grad_reduce(in.fp32_grad_reduce, layout.framework, precision, in.zero);
    const double peak = acc.peak(precision);
    if (!is_known(peak) || peak <= 0 || !is_known(acc.hbm_gbytes_per_s) ||
        acc.hbm_gbytes_per_s <= 0 || !is_known(acc.memory_gib)) {
        r.limit = Limit::unknown_hardware;
        return r;
    }
    Network net;
    // Parameter servers sit behind the network even on one node, so they need its figures.
    const bool needs_network = layout.dp_comm == DpComm::parameter_server && layout.dp > 1;
    if (!make_network(cluster.node, cluster.nodes, calibration, net) ||
        (needs_network &&
         !(is_known(net.inter.bus_bytes_per_s) && net.inter.bus_bytes_per_s > 0))) {
        r.limit = Limit::unknown_hardware;
        return r;
    }
    ComputeRates rates = make_compute_rates(acc, precision, calibration);
    apply_framework(rates, fw, acc, precision, efficiency);
    if (workload.kind == WorkloadKind::generic) {
        const double fraction = generic_compute_fraction(acc, precision);
        if (!is_known(fraction)) {
            r.limit = Limit::unknown_hardware;
            return r;
        }
        r = evaluate_generic(workload, cluster, layout, precision, net, rates, fraction);
    } else {
        r = evaluate_transformer(workload, cluster, layout, precision, net, rates, fw);
    }
    r.calibration_used.gemm = rates.measured_gemm != nullptr;
    r.calibration_used.hbm = rates.measured_hbm;
    r.calibration_used.intra_node = net.intra_calibrated;
    r.calibration_used.inter_node = net.inter_calibrated && cluster.nodes > 1;
    if (calibration) apply_job_calibration(r, calibration->job);
    return r;
}

PlanResult evaluate_one_length(const Workload& workload, const Cluster& cluster,
                               const Layout& layout, Precision precision,
                               const CalibrationProfile* calibration, const double* efficiency) {
    // Neuron runs layouts over NeuronCores (several per chip): such a layout is evaluated on the
    // cores it names.
    Cluster cores;
    const Cluster& on = neuron_core_view(cluster, layout, cores) ? cores : cluster;
    const Framework fw = resolve_framework(layout.framework, on.node.accelerator, layout.zero);
    // The CNN whole-step fraction already is a framework's measured rate (model_constants.h),
    // as is a measured-derived accelerator rate (engine/gaudi_rates.h); the factors fitted on
    // transformer runs on other hardware do not apply to them.
    const double eff =
        efficiency ? *efficiency
        : workload.kind == WorkloadKind::generic || rate_measured_derived(on.node.accelerator)
            ? 1.0
            : fitted_factor_table()
                  .lookup(fw, accelerator_generation(on.node.accelerator), precision)
                  .efficiency;
    if (workload.kind == WorkloadKind::transformer && workload.shape.flash_attention &&
        !has_fused_attention_kernel(on.node.accelerator)) {
        // Without a fused kernel the attention materialises its scores (engine/gaudi_rates.h).
        Workload unfused = workload;
        unfused.shape.flash_attention = false;
        unfused.shape.flash_attention_v1 = false;
        return evaluate_resolved(unfused, on, layout, precision, calibration, eff);
    }
    return evaluate_resolved(workload, on, layout, precision, calibration, eff);
}

// Training in phases of sequence length: each phase evaluated at its length; times, traffic and
// FLOPs weighted by its share of steps; memory and fit those of the most demanding phase.
PlanResult evaluate_seq_phases(const Workload& workload, const Cluster& cluster,
                               const Layout& layout, Precision precision,
                               const CalibrationProfile* calibration, const double* efficiency) {
    Workload phase = workload;
    phase.seq_phase_count = 0;
    PlanResult out;
    double peak_tflops = 0; // the MFU reference (model TFLOP/s per device / MFU) of any phase
    for (int i = 0; i < workload.seq_phase_count; ++i) {
        const SeqPhase& p = workload.seq_phases[static_cast<std::size_t>(i)];
        phase.shape.seq_len = p.seq_len;
        const PlanResult r =
            evaluate_one_length(phase, cluster, layout, precision, calibration, efficiency);
        if (r.limit != Limit::none && r.limit != Limit::out_of_memory) return r;
        const double f = p.step_fraction;
        out.step_time_s += f * r.step_time_s;
        StepBreakdown& b = out.breakdown_s;
        b.compute_s += f * r.breakdown_s.compute_s;
        b.recompute_s += f * r.breakdown_s.recompute_s;
        b.tp_comm_s += f * r.breakdown_s.tp_comm_s;
        b.pp_bubble_s += f * r.breakdown_s.pp_bubble_s;
        b.pp_comm_s += f * r.breakdown_s.pp_comm_s;
        b.dp_comm_exposed_s += f * r.breakdown_s.dp_comm_exposed_s;
        b.optimizer_s += f * r.breakdown_s.optimizer_s;
        b.host_overhead_s += f * r.breakdown_s.host_overhead_s;
        out.dp_comm_total_s += f * r.dp_comm_total_s;
        out.dp_bytes_per_device += f * r.dp_bytes_per_device;
        out.model_flops_per_step += f * r.model_flops_per_step;
        out.hardware_flops_per_step += f * r.hardware_flops_per_step;
        if (i == 0 || r.memory_gib.total > out.memory_gib.total) out.memory_gib = r.memory_gib;
        out.micro_batches = r.micro_batches;
        if (r.mfu > 0) peak_tflops = r.model_tflops_per_device / r.mfu;
        out.calibration_used.gemm = out.calibration_used.gemm || r.calibration_used.gemm;
        out.calibration_used.hbm = out.calibration_used.hbm || r.calibration_used.hbm;
        out.calibration_used.intra_node =
            out.calibration_used.intra_node || r.calibration_used.intra_node;
        out.calibration_used.inter_node =
            out.calibration_used.inter_node || r.calibration_used.inter_node;
        out.calibration_used.job = out.calibration_used.job || r.calibration_used.job;
    }
    const double devices = cluster.devices();
    out.pp_bubble_fraction = out.breakdown_s.pp_bubble_s / out.step_time_s;
    out.samples_per_s = layout.global_batch / out.step_time_s;
    out.tokens_per_s = out.samples_per_s * workload.tokens_per_sample();
    out.model_tflops_per_device = out.model_flops_per_step / out.step_time_s / devices / kTera;
    out.hardware_tflops_per_device =
        out.hardware_flops_per_step / out.step_time_s / devices / kTera;
    out.mfu = peak_tflops > 0 ? out.model_tflops_per_device / peak_tflops : 0;
    out.fits_in_memory = out.memory_gib.total <= out.memory_gib.capacity;
    out.limit = out.fits_in_memory ? Limit::none : Limit::out_of_memory;
    return out;
}

PlanResult evaluate_core(const Workload& workload, const Cluster& cluster, const Layout& layout,
                         Precision precision, const CalibrationProfile* calibration,
                         const double* efficiency) {
    if (workload.kind == WorkloadKind::transformer && workload.seq_phase_count > 0)
        return evaluate_seq_phases(workload, cluster, layout, precision, calibration, efficiency);
    return evaluate_one_length(workload, cluster, layout, precision, calibration, efficiency);
}

} // namespace

PlanResult evaluate(const Workload& workload, const Cluster& cluster, const Layout& layout,
                    Precision precision, const CalibrationProfile* calibration) {
    return evaluate_core(workload, cluster, layout, precision, calibration, nullptr);
}

PlanResult evaluate_with_efficiency(const Workload& workload, const Cluster& cluster,
                                    const Layout& layout, Precision precision,
                                    const CalibrationProfile* calibration, double efficiency) {
    return evaluate_core(workload, cluster, layout, precision, calibration, &efficiency);
}

} // namespace cp::sim
