#include "clusterplan/sim/planner.h"

#include "clusterplan/sim/calibration_lookup.h"
#include "clusterplan/sim/plan_interval.h"
#include "clusterplan/sim/purchase_costs.h"
#include "clusterplan/sim/scaling.h"
#include "engine/framework_rates.h"
#include "engine/layout_check.h"
#include "engine/model_constants.h"
#include "engine/optimizer_state.h"
#include "engine/pipeline_stages.h"
#include "engine/training_constants.h"
#include "planning/framework_notes.h"
#include "planning/memory_margin.h"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

namespace cp::sim {
namespace {

std::string join(const std::vector<std::string>& items, const char* sep = ", ") {
    std::string out;
    for (const auto& item : items)
        out += (out.empty() ? "" : sep) + item;
    return out;
}

// Keeps the best plan seen: fastest that fits, else the one closest to fitting.
struct BestPlan {
    bool any = false;
    bool fits = false;
    Layout layout;
    PlanResult result;
    std::uint64_t invalid = 0;
    PlanResult first_problem; // first invalid/unknown result and its layout, for the error message
    Layout problem_layout;
    bool has_problem = false;

    void offer(const Layout& layout_in, const PlanResult& r) {
        if (r.limit == Limit::none) {
            if (!fits || better_plan(layout_in, r, layout, result)) take(layout_in, r, true);
        } else if (r.limit == Limit::out_of_memory) {
            if (!fits && (!any || r.memory_gib.total < result.memory_gib.total))
                take(layout_in, r, false);
        } else {
            ++invalid;
            if (!has_problem) {
                first_problem = r;
                problem_layout = layout_in;
                has_problem = true;
            }
        }
    }
    void take(const Layout& l, const PlanResult& r, bool f) {
        any = true;
        fits = f;
        layout = l;
        result = r;
    }
};

} // namespace

std::vector<int> context_parallel_candidates(const Scenario& sc, int devices) {
    const ParallelSpec& p = sc.parallel;
    if (p.cp) return {*p.cp};
    std::vector<int> out{1};
    if (sc.workload.kind != WorkloadKind::transformer) return out;
    const int s = sc.workload.shape.seq_len;
    if (s < kContextParallelMinSeqLen) return out;
    for (int cp = 2; devices % cp == 0 && s % (2 * cp) == 0 && s / cp >= kContextParallelMinChunk;
         cp *= 2)
        out.push_back(cp);
    return out;
}

Layout base_layout(const Scenario& sc) {
    const ParallelSpec& p = sc.parallel;
    Layout l;
    l.tp = p.tp.value_or(1);
    l.pp = p.pp.value_or(1);
    l.dp = p.dp.value_or(1);
    l.micro_batch = p.micro_batch.value_or(1);
    l.global_batch = p.global_batch;
    l.virtual_stages = p.virtual_stages.value_or(1);
    l.schedule = p.schedule;
    l.sequence_parallel = p.sequence_parallel;
    l.zero = p.zero.value_or(0);
    l.recompute = p.recompute.value_or(Recompute::none);
    l.dp_comm = p.dp_comm;
    l.parameter_servers = p.parameter_servers;
    l.ps_sync = p.ps_sync;
    l.overlap_dp = p.overlap_dp;
    l.grad_compression = p.grad_compression;
    l.ep = p.ep.value_or(1);
    l.etp = p.etp.value_or(1);
    l.ep_dispatcher = p.ep_dispatcher;
    l.moe_a2a_overlap = p.moe_a2a_overlap;
    l.optimizer = sc.training.optimizer;
    l.offload = p.offload;
    l.cp = p.cp.value_or(1);
    l.distribute_saved_activations = p.distribute_saved_activations;
    l.fp8_weights = sc.training.fp8_weights;
    l.fp32_grad_reduce = sc.training.fp32_grad_reduce;
    l.framework = sc.training.framework;
    if (!p.stage_layers.empty() && sc.workload.kind == WorkloadKind::transformer)
        set_stage_layers(p.stage_layers, sc.workload.shape.layers, l); // checked when parsed
    return l;
}

void build_layout_space(const Scenario& sc, int devices, int per_node, LayoutSpace& space) {
    space.bases.clear();
    space.recomputes.clear();
    const ParallelSpec& p = sc.parallel;
    const bool generic = sc.workload.kind == WorkloadKind::generic;
    const TransformerShape& shape = sc.workload.shape;
    const Layout base = base_layout(sc);
    space.micro_batch_fixed = p.micro_batch.has_value();

    if (p.recompute) {
        space.recomputes.push_back(*p.recompute);
    } else if (generic) {
        space.recomputes.push_back(Recompute::none); // no layer structure to recompute
    } else {
        space.recomputes = {Recompute::none, Recompute::selective, Recompute::full};
    }

    // Expert parallelism: every ep dividing the experts whose groups (ep x etp ranks) tile a
    // stage's tp x dp ranks; one base per ep.
    auto push_with_ep = [&](Layout l) {
        const MoeShape& moe = shape.moe;
        const int ep_hi = p.ep ? *p.ep : (moe.enabled() && !generic ? moe.experts : 1);
        for (int ep = p.ep.value_or(1); ep <= ep_hi; ++ep) {
            if (ep > 1 && (moe.experts % ep != 0 || (l.tp * l.dp) % (ep * l.etp) != 0)) continue;
            l.ep = ep;
            space.bases.push_back(l);
        }
    };
    auto try_tp = [&](int tp) {
        if (devices % tp != 0) return;
        for (int cp : context_parallel_candidates(sc, devices / tp)) {
            const int rest = devices / tp / cp;
            const int pp_max = generic ? 1 : std::min(rest, shape.layers);
            // Stages may hold unequal numbers of layers (pipeline_stages.h), so any pp is tried.
            for (int pp = p.pp.value_or(1); pp <= (p.pp ? *p.pp : pp_max); ++pp) {
                if (rest % pp != 0) continue;
                const int dp = rest / pp;
                if (p.dp && *p.dp != dp) continue;
                if (p.global_batch % dp != 0) continue;
                const int per_replica = p.global_batch / dp;
                if (p.micro_batch && per_replica % *p.micro_batch != 0) continue;
                Layout l = base;
                l.tp = tp;
                l.pp = pp;
                l.dp = dp;
                l.cp = cp;
                if (p.stage_layers.empty()) {
                    l.stage_layers_first = l.stage_layers_last = 0;
                    l.stage_layers_middle = l.stage_layers_middle_fewest = 0;
                }
                // Interleaving needs a layer in every chunk; without it, one chunk per stage.
                int v_lo = 1, v_hi = 1;
                if (p.virtual_stages) {
                    v_lo = v_hi = *p.virtual_stages;
                } else if (p.schedule == Schedule::interleaved && pp > 1) {
                    v_lo = 2;
                    v_hi = 8;
                }
                const StageSplit split = generic ? StageSplit{} : stage_split(shape.layers, l);
                const int fewest = split.most_chunks(pp);
                for (int v = v_lo; v <= v_hi; ++v) {
                    if (!p.virtual_stages && v > 1 && fewest < v) continue;
                    l.virtual_stages = v;
                    // Offloaded parameters need ZeRO-3 (fetched shard by shard), even on one
                    // device.
                    const bool params_offload = p.offload.params != OffloadTarget::none;
                    const int z_hi = p.zero ? *p.zero : (dp * cp > 1 || params_offload ? 3 : 0);
                    const int z_lo = p.zero ? *p.zero : (params_offload ? 3 : 0);
                    for (int z = z_lo; z <= z_hi; ++z) {
                        l.zero = z;
                        // Sequence parallelism is searched whenever tp > 1 unless the scenario
                        // sets it: it trades an extra all-gather for tp-fold smaller activations.
                        if (tp > 1 && !p.sequence_parallel_given && !generic) {
                            for (bool sp : {false, true}) {
                                l.sequence_parallel = sp;
                                push_with_ep(l);
                            }
                        } else {
                            l.sequence_parallel = tp > 1 && p.sequence_parallel;
                            push_with_ep(l);
                        }
                    }
                }
            }
        }
    };
    if (p.tp) {
        try_tp(*p.tp);
    } else if (generic) {
        try_tp(1);
    } else {
        // Tensor parallelism stays inside a node (its all-reduces are on the critical path).
        // Each rank needs whole attention heads and MLP columns; KV heads are split or, when tp
        // is a multiple of them, replicated.
        for (int tp = 1; tp <= per_node; ++tp)
            if (per_node % tp == 0 && shape.heads % tp == 0 && shape.ffn_hidden % tp == 0 &&
                (shape.kv_heads % tp == 0 || tp % shape.kv_heads == 0))
                try_tp(tp);
    }
}

std::vector<std::string> searched_fields(const Scenario& sc) {
    const ParallelSpec& p = sc.parallel;
    std::vector<std::string> out;
    const bool generic = sc.workload.kind == WorkloadKind::generic;
    if (!p.tp && !generic) out.push_back("tp");
    if (!p.pp && !generic) out.push_back("pp");
    if (!p.dp) out.push_back("dp");
    if (!p.micro_batch) out.push_back("micro_batch");
    if (!p.virtual_stages && p.schedule == Schedule::interleaved) out.push_back("virtual_stages");
    if (!p.zero) out.push_back("zero");
    if (!p.recompute && !generic) out.push_back("recompute");
    if (!p.ep && sc.workload.shape.moe.enabled() && !generic) out.push_back("ep");
    if (!p.sequence_parallel_given && !generic) out.push_back("sequence_parallel");
    if (!p.cp && !generic && sc.workload.shape.seq_len >= kContextParallelMinSeqLen)
        out.push_back("cp");
    return out;
}

bool inter_node_over_tcp(const PlanReport& report) {
    return report.nodes > 1 && report.node.efa == false &&
           !report.result.calibration_used.inter_node;
}

PlanReport make_plan_report(const Scenario& sc, const NodeSpec& node, int nodes,
                            const Layout& layout, const CalibrationProfile* cal,
                            const ScalingBaseline* baseline) {
    PlanReport rep;
    cal = calibration_for(cal, node); // a profile of another accelerator is not used (nor claimed)
    rep.scenario_name = sc.name;
    rep.instance = node.instance_type;
    rep.accelerator = node.accelerator.id;
    rep.node = node;
    rep.nodes = nodes;
    rep.devices = nodes * node.accelerators_per_node;
    rep.layout = layout;
    rep.precision = plan_precision(sc, node.accelerator);
    rep.workload_kind = sc.workload.kind;
    rep.usd_per_node_hour = node.usd_per_node_hour_on_demand;
    rep.usd_per_node_hour_spot = node.usd_per_node_hour_spot;
    rep.price_as_of = node.price_as_of;
    const Cluster cluster{node, nodes};
    std::string superlinear; // why efficiency exceeds 100 %, for the assumptions
    rep.result = evaluate(sc.workload, cluster, layout, rep.precision, cal);
    // Only simulate reaches this with a plan over capacity (recommend's candidates fit).
    const bool memory_uncertain = keep_within_memory_error(rep.result);
    rep.layout.framework = resolve_framework(layout.framework, node.accelerator, layout.zero);
    rep.layout.fp32_grad_reduce = resolve_fp32_grad_reduce(
        layout.fp32_grad_reduce, rep.layout.framework, rep.precision, layout.zero);
    rep.interval = plan_interval(rep.result, rep.layout, node.accelerator, cal);
    rep.limit_reason = describe_limit(rep.result);
    if (rep.result.valid()) {
        rep.job = job_economics(sc, node, nodes, rep.result.step_time_s);
        rep.hpo = hpo_estimate(sc.training, nodes, rep.job);
        const ScalingBaseline b = baseline ? *baseline : scaling_baseline(sc, node, cal);
        rep.scaling_efficiency = scaling_efficiency(b, rep.result.samples_per_s, rep.devices);
        if (is_known(rep.scaling_efficiency)) {
            rep.scaling_reference_devices = b.devices;
            superlinear = superlinear_scaling_note(b, layout, rep.devices, rep.scaling_efficiency);
        }
    } else {
        // Not valid or not fitting: not priced (DESIGN.md), time unknown.
        rep.job.samples_total = training_samples(sc);
        rep.job.time_to_train_h = kUnknown;
        rep.hpo.trials = sc.training.trials;
        rep.hpo.wall_time_h = kUnknown;
    }
    if (cal) {
        rep.calibration_source = cal->source + (cal->name.empty() ? "" : " (" + cal->name + ")");
        rep.calibration_date = cal->measured_at;
    }
    rep.assumptions = sc.notes;
    rep.assumptions.push_back("precision " + std::string(enum_name(rep.precision)) + ", " +
                              optimizer_description(sc.training.optimizer));
    if (sc.workload.shape.moe.enabled() && sc.workload.kind == WorkloadKind::transformer)
        rep.assumptions.emplace_back(model::kMoeAssumption);
    if (sc.workload.finetune.adapters()) rep.assumptions.emplace_back(model::kLoraAssumption);
    if (sc.workload.finetune.method == TrainingMethod::qlora)
        rep.assumptions.emplace_back(model::kQloraAssumption);
    if (layout.offload.any()) {
        rep.assumptions.emplace_back(model::kOffloadAssumption);
        if (!is_known(node.host_memory_gib))
            rep.assumptions.push_back("host memory of " + node.instance_type +
                                      " unknown: offloaded state not checked against it");
    }
    if (std::string fallback = precision_fallback_note(sc, node.accelerator); !fallback.empty())
        rep.assumptions.push_back(std::move(fallback));
    for (auto& line : figure_provenance_notes(sc, node.accelerator, rep.precision, cal))
        rep.assumptions.push_back(std::move(line));
    // The step model's own statement of its constants (model_constants.h), verbatim.
    for (std::string_view a : model::kAssumptions)
        rep.assumptions.emplace_back(a);
    for (auto& a : framework_assumptions(sc, node.accelerator, layout))
        rep.assumptions.push_back(std::move(a));
    if (sc.workload.kind == WorkloadKind::transformer)
        rep.assumptions.emplace_back(sc.workload.shape.flash_attention
                                         ? model::kAttentionFused
                                         : model::kAttentionMaterialised);
    if (cal)
        rep.assumptions.push_back("hardware figures from calibration profile '" + cal->name +
                                  "' (" + cal->source +
                                  (cal->measured_at.empty() ? "" : ", " + cal->measured_at) +
                                  ") where measured, datasheet elsewhere");
    else
        rep.assumptions.push_back(
            "hardware figures: datasheet peaks with size-dependent efficiency (no calibration)");
    if (rep.result.calibration_used.job)
        for (const std::string& line : describe_job_calibration(cal->job))
            rep.assumptions.push_back("job calibration: " + line);
    if (rep.scaling_reference_devices > 1)
        rep.assumptions.push_back("scaling efficiency is relative to " +
                                  std::to_string(rep.scaling_reference_devices) +
                                  " devices, the smallest configuration of " + node.accelerator.id +
                                  " that fits the model (powers of two searched)");
    if (!superlinear.empty()) rep.assumptions.push_back(std::move(superlinear));
    if (inter_node_over_tcp(rep)) rep.assumptions.push_back(std::string(model::kNoEfaAssumption));
    const double memory_share = rep.result.memory_gib.total / rep.result.memory_gib.capacity;
    if (memory_uncertain)
        rep.assumptions.push_back(memory_error_note(rep.result));
    else if (rep.result.limit == Limit::none && memory_share > sc.constraints.max_memory_fraction)
        rep.assumptions.push_back(
            "the layout fills " +
            std::to_string(static_cast<int>(std::lround(100 * memory_share))) +
            " % of each device's memory, above the " +
            std::to_string(
                static_cast<int>(std::lround(100 * sc.constraints.max_memory_fraction))) +
            " % headroom (constraints.max_memory_fraction): the CUDA context, allocator "
            "fragmentation and NCCL buffers may not fit; kept because the scenario fixes the "
            "layout");
    for (auto& a : cost_assumptions(sc, node))
        rep.assumptions.push_back(std::move(a));
    for (auto& a : purchase_assumptions(sc, node, nodes))
        rep.assumptions.push_back(std::move(a));
    if (rep.job.storage.priced) rep.assumptions.push_back(rep.job.storage.text);
    if (!is_known(node.usd_per_node_hour_on_demand))
        rep.assumptions.push_back("no on-demand price known for " + node.instance_type +
                                  ": cost not computed");
    return rep;
}

PlanReport simulate_plan(const Scenario& sc, const NodeSpec& node, const CalibrationProfile* cal) {
    const std::string& origin = sc.origin;
    if (cal && !calibration_matches(*cal, node))
        throw ScenarioError(origin, "cluster.calibration",
                            "profile '" + cal->name + "' was measured on " +
                                (cal->accelerator.empty() ? cal->instance_type : cal->accelerator) +
                                ", not on " + node.instance_type + "'s " + node.accelerator.id +
                                " (its figures would be wrong there; use \"datasheet\" or a "
                                "profile of this hardware)");
    if (!sc.nodes)
        throw ScenarioError(origin, "cluster.nodes",
                            "required by simulate (sweep and recommend search node counts)");
    if (const std::string why = training_refusal(sc, node); !why.empty())
        throw ScenarioError(
            origin, sc.instance.empty() ? "cluster.custom.accelerator" : "cluster.instance", why);
    const int nodes = *sc.nodes;
    const ParallelSpec& p = sc.parallel;
    // Heads tp does not divide are padded only by a framework that pads them (the parser lets an
    // automatic framework through: it follows the hardware).
    if (p.tp && sc.workload.kind == WorkloadKind::transformer &&
        sc.workload.shape.heads % *p.tp != 0 &&
        !framework_profile(
             resolve_framework(sc.training.framework, node.accelerator, p.zero.value_or(0)))
             .pads_attention_heads)
        throw ScenarioError(origin, "parallel.tp",
                            "must divide model.heads (" + std::to_string(sc.workload.shape.heads) +
                                "), got " + std::to_string(*p.tp));

    // Neuron counts its parallel degrees in NeuronCores: a layout naming every core of the
    // cluster is planned over cores (the step model evaluates it per core).
    const long long cores = neuron_cores_per_device(node.accelerator);
    const long long named =
        1LL * p.tp.value_or(1) * p.pp.value_or(1) * p.dp.value_or(1) * p.cp.value_or(1);
    const bool over_cores =
        cores > 1 && p.tp && p.dp && named == 1LL * nodes * node.accelerators_per_node * cores;
    const int per_node = node.accelerators_per_node * (over_cores ? static_cast<int>(cores) : 1);
    const int devices = nodes * per_node;
    const std::string cluster_text =
        std::to_string(devices) + (over_cores ? " NeuronCores (" : " devices (") +
        std::to_string(nodes) + " nodes × " + std::to_string(per_node) + ")";
    if (p.tp && p.pp && p.dp && named != devices)
        throw ScenarioError(origin, "parallel.dp",
                            std::string(p.cp ? "tp × pp × dp × cp = " : "tp × pp × dp = ") +
                                std::to_string(named) + " does not equal the cluster's " +
                                cluster_text);
    for (auto [name, value] : {std::pair{"parallel.tp", p.tp},
                               {"parallel.pp", p.pp},
                               {"parallel.dp", p.dp},
                               {"parallel.cp", p.cp}})
        if (value && devices % *value != 0)
            throw ScenarioError(origin, name,
                                "must divide the cluster's " + cluster_text + ", got " +
                                    std::to_string(*value));

    // The parser checks a file's split; an editor's split reaches here unparsed.
    if (!p.stage_layers.empty() && sc.workload.kind == WorkloadKind::transformer)
        if (const std::string why =
                stage_layers_problem(p.stage_layers, p.pp.value_or(int(p.stage_layers.size())),
                                     sc.workload.shape.layers);
            !why.empty())
            throw ScenarioError(origin, "parallel.stage_layers", why);
    if (p.zero && *p.zero > node.accelerator.max_zero_stage)
        throw ScenarioError(origin, "parallel.zero",
                            "the training software of " + node.accelerator.id +
                                " offers ZeRO up to stage " +
                                std::to_string(node.accelerator.max_zero_stage) + ", got " +
                                std::to_string(*p.zero));

    LayoutSpace space;
    build_layout_space(sc, devices, per_node, space);
    if (space.bases.empty())
        throw ScenarioError(origin, "parallel.global_batch",
                            "no layout of the cluster's " + cluster_text +
                                " splits the global batch of " + std::to_string(p.global_batch) +
                                " into whole micro-batches per replica");
    BestPlan best;
    const Cluster cluster{node, nodes};
    const std::uint64_t evaluated = evaluate_layouts(
        sc, cluster, space, cal, [&](const Layout& l, const PlanResult& r) { best.offer(l, r); });
    if (!best.any && best.has_problem &&
        !is_known(node.accelerator.peak(plan_precision(sc, node.accelerator))) &&
        (best.first_problem.limit == Limit::unknown_hardware ||
         best.first_problem.limit == Limit::cannot_train)) {
        // The precision, not the layout, is what the user has to change: say so and offer the
        // others.
        std::string known;
        for (Precision q :
             {Precision::fp32, Precision::tf32, Precision::fp16, Precision::bf16, Precision::fp8})
            if (precision_usable(node.accelerator, q))
                known += (known.empty() ? "" : ", ") + std::string(enum_name(q));
        throw ScenarioError(
            origin, "precision",
            node.accelerator.id + " has no published " + enum_name(sc.precision) + " peak, so " +
                node.instance_type + " cannot be planned at this precision (" +
                (known.empty() ? std::string("no precision is known")
                               : "known: " + known + "; precision \"auto\" falls back by itself") +
                ")");
    }
    if (!best.any) {
        std::string reason =
            best.has_problem ? describe_limit(best.first_problem) : "no layout evaluated";
        // The rule the layout breaks, rather than every rule a layout can break.
        if (best.has_problem && best.first_problem.limit == Limit::invalid_layout)
            reason = (evaluated > 1
                          ? "none of " + std::to_string(evaluated) + " layouts runs; the first: "
                          : std::string()) +
                     layout_problem(sc.workload, cluster, best.problem_layout);
        throw ScenarioError(origin, "parallel",
                            "no valid layout on " + node.instance_type + ": " + reason);
    }
    PlanReport rep = make_plan_report(sc, node, nodes, best.layout, cal);
    rep.spot = sc.pricing == Pricing::spot;
    rep.purchase = headline_purchase(sc.pricing);
    rep.searched = searched_fields(sc);
    if (!rep.searched.empty()) {
        rep.note = "searched " + join(rep.searched) + ": " +
                   (best.fits ? "the fastest"
                              : "no layout fits in memory; shown is the one closest to fitting") +
                   " of " + std::to_string(evaluated) + " layouts evaluated";
    }
    return rep;
}

} // namespace cp::sim
