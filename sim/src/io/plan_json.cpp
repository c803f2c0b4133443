#include "clusterplan/sim/plan_json.h"

#include "clusterplan/sim/plan_interval.h"
#include "io/json_figures.h"
#include "io/scenario_reader.h"
#include "io/scenario_training_options.h"

#include <algorithm>

namespace cp::sim {
namespace {

using ojson = nlohmann::ordered_json;
using io::json_number;
using io::range_json;

ojson layout_json(const Layout& l) {
    ojson j;
    j["tp"] = l.tp;
    j["pp"] = l.pp;
    j["dp"] = l.dp;
    j["micro_batch"] = l.micro_batch;
    j["global_batch"] = l.global_batch;
    j["micro_batches"] = l.micro_batch * l.dp > 0 ? l.micro_batches() : 0;
    j["virtual_stages"] = l.virtual_stages;
    j["schedule"] = enum_name(l.schedule);
    j["sequence_parallel"] = l.sequence_parallel;
    j["zero"] = l.zero;
    j["recompute"] = enum_name(l.recompute);
    j["dp_comm"] = enum_name(l.dp_comm);
    j["parameter_servers"] = l.parameter_servers;
    j["ps_sync"] = enum_name(l.ps_sync);
    j["overlap_dp"] = l.overlap_dp;
    j["grad_compression"] = l.grad_compression;
    j["ep"] = l.ep;
    j["etp"] = l.etp;
    j["ep_dispatcher"] = scenario_io::name_of(scenario_io::kEpDispatchers, l.ep_dispatcher);
    j["moe_a2a_overlap"] = l.moe_a2a_overlap;
    j["distribute_saved_activations"] = l.distribute_saved_activations;
    j["fp8_weights"] = l.fp8_weights;
    j["fp32_grad_reduce"] = l.fp32_grad_reduce.value_or(false); // resolved by the planner
    j["optimizer"] = enum_name(l.optimizer);
    j["offload"] = ojson{{"optimizer", enum_name(l.offload.optimizer)},
                         {"params", enum_name(l.offload.params)}};
    j["cp"] = l.cp;
    j["framework"] = enum_name(l.framework);
    return j;
}

// DESIGN.md lists tokens_per_s among the fields simulate --json always returns, so the key stays;
// a generic model (ResNet-50 ...) has no tokens, and null is this document's "no value" (as for
// unknown figures), where 0 would read as a measured zero throughput. samples_per_s is its rate.
ojson tokens_per_s(WorkloadKind kind, double value) {
    return kind == WorkloadKind::generic ? ojson(nullptr) : json_number(value);
}

ojson compact_layout(const Layout& l) {
    return ojson{{"tp", l.tp},
                 {"pp", l.pp},
                 {"dp", l.dp},
                 {"micro_batch", l.micro_batch},
                 {"virtual_stages", l.virtual_stages},
                 {"zero", l.zero},
                 {"recompute", enum_name(l.recompute)},
                 {"ep", l.ep}};
}

// The share of comparable runs the ranges cover and what they rest on (DESIGN.md "Prediction
// intervals").
void add_validation(ojson& j, const PredictionInterval& iv) {
    j["confidence"] = iv.confidence;
    j["validated"] = iv.validated;
    j["validation"] = io::validation_json(iv);
}

} // namespace

ojson plan_report_json(const PlanReport& r) {
    const PlanResult& p = r.result;
    ojson j;
    j["scenario"] = r.scenario_name;
    j["instance"] = r.instance;
    j["accelerator"] = r.accelerator;
    j["nodes"] = r.nodes;
    j["devices"] = r.devices;
    j["precision"] = enum_name(r.precision);
    j["purchase"] = purchase_name(r.spot, r.purchase);
    j["valid"] = p.valid();
    j["limit"] = scenario_io::name_of(scenario_io::kLimits, p.limit);
    if (!r.limit_reason.empty()) j["limit_reason"] = r.limit_reason;
    j["step_time_s"] = json_number(p.step_time_s);
    j["breakdown_s"] = ojson{{"compute", json_number(p.breakdown_s.compute_s)},
                             {"recompute", json_number(p.breakdown_s.recompute_s)},
                             {"tp_comm", json_number(p.breakdown_s.tp_comm_s)},
                             {"pp_bubble", json_number(p.breakdown_s.pp_bubble_s)},
                             {"pp_comm", json_number(p.breakdown_s.pp_comm_s)},
                             {"dp_comm_exposed", json_number(p.breakdown_s.dp_comm_exposed_s)},
                             {"optimizer", json_number(p.breakdown_s.optimizer_s)},
                             {"host_overhead", json_number(p.breakdown_s.host_overhead_s)},
                             {"ep_comm", json_number(p.breakdown_s.ep_comm_s)},
                             {"offload", json_number(p.breakdown_s.offload_s)},
                             {"cp_comm", json_number(p.breakdown_s.cp_comm_s)}};
    j["dp_comm_total_s"] = json_number(p.dp_comm_total_s);
    j["dp_bytes_per_device"] = json_number(p.dp_bytes_per_device);
    j["tokens_per_s"] = tokens_per_s(r.workload_kind, p.tokens_per_s);
    j["samples_per_s"] = json_number(p.samples_per_s);
    j["model_tflops_per_device"] = json_number(p.model_tflops_per_device);
    j["hardware_tflops_per_device"] = json_number(p.hardware_tflops_per_device);
    j["mfu"] = json_number(p.mfu);
    j["memory_gib"] = ojson{{"weights", json_number(p.memory_gib.weights)},
                            {"gradients", json_number(p.memory_gib.gradients)},
                            {"optimizer", json_number(p.memory_gib.optimizer)},
                            {"activations", json_number(p.memory_gib.activations)},
                            {"total", json_number(p.memory_gib.total)},
                            {"capacity", json_number(p.memory_gib.capacity)},
                            {"weights_frozen", json_number(p.memory_gib.weights_frozen)},
                            {"offloaded_host", json_number(p.memory_gib.offloaded_host)},
                            {"host_capacity", p.memory_gib.host_capacity > 0
                                                  ? json_number(p.memory_gib.host_capacity)
                                                  : ojson(nullptr)}};
    j["trainable_params"] = json_number(p.trainable_params);
    j["fits_in_memory"] = p.fits_in_memory && p.limit != Limit::out_of_memory;
    j["scaling_efficiency"] = json_number(r.scaling_efficiency);
    j["scaling_reference_devices"] = r.scaling_reference_devices;
    j["training_samples"] = json_number(r.job.samples_total);
    j["steps"] = json_number(r.job.steps);
    j["time_to_train_h"] = json_number(r.job.time_to_train_h);
    j["cost_usd"] = json_number(r.job.cost_usd);
    j["cost_spot_usd"] = json_number(r.job.spot.cost_usd);
    j["spot_expected_interruptions"] = json_number(r.job.spot.expected_interruptions);
    const PredictionInterval& iv = r.interval;
    const bool ranged = p.valid();
    const auto time = [&](double v) {
        return ranged ? range_json(time_range(v, iv)) : ojson(nullptr);
    };
    const auto rate = [&](double v) {
        return ranged ? range_json(rate_range(v, iv)) : ojson(nullptr);
    };
    j["step_time_s_interval"] = time(p.step_time_s);
    j["tokens_per_s_interval"] =
        r.workload_kind == WorkloadKind::generic ? ojson(nullptr) : rate(p.tokens_per_s);
    j["samples_per_s_interval"] = rate(p.samples_per_s);
    j["time_to_train_h_interval"] = time(r.job.time_to_train_h);
    j["cost_usd_interval"] = time(r.job.cost_usd);
    j["cost_spot_usd_interval"] = time(r.job.spot.cost_usd);
    add_validation(j, iv);
    const SpotEstimate& s = r.job.spot;
    j["spot"] = ojson{{"priced", s.priced},
                      {"feasible", s.feasible},
                      {"interruption_bucket", spot_bucket_label(r.node.spot_interruption_bucket)},
                      {"cluster_interruptions_per_hour", json_number(s.cluster_rate_per_hour)},
                      {"mtbf_h", json_number(s.mtbf_h)},
                      {"checkpoint_interval_s", json_number(s.checkpoint_interval_s)},
                      {"overhead_h", json_number(s.overhead_h)},
                      {"wall_time_h", json_number(s.wall_time_h)},
                      {"notice_s", kSpotNoticeS}};
    j["prices"] = ojson{{"usd_per_node_hour", json_number(r.usd_per_node_hour)},
                        {"usd_per_node_hour_spot", json_number(r.usd_per_node_hour_spot)},
                        {"as_of", r.price_as_of.empty() ? ojson(nullptr) : ojson(r.price_as_of)}};
    j["purchase_options"] = purchase_options_json(r.node, r.job);
    j["estimated_figures"] = estimated_figures_json(r.node.accelerator);
    const HpoEstimate& h = r.hpo;
    j["tuning"] = ojson{{"trials", h.trials},
                        {"max_parallel_trials", h.max_parallel_trials},
                        {"waves", h.waves},
                        {"peak_nodes", h.peak_nodes},
                        {"wall_time_h", json_number(h.wall_time_h)},
                        {"cost_usd", json_number(h.cost_usd)},
                        {"spot_wall_time_h", json_number(h.spot_wall_time_h)},
                        {"spot_cost_usd", json_number(h.spot_cost_usd)}};
    j["layout"] = layout_json(r.layout);
    j["searched"] = r.searched;
    if (!r.note.empty()) j["note"] = r.note;
    j["assumptions"] = r.assumptions;
    j["calibration"] =
        ojson{{"source", r.calibration_source},
              {"date", r.calibration_date.empty() ? ojson(nullptr) : ojson(r.calibration_date)}};
    return j;
}

ojson option_json(const Scenario& scenario, const SweepResult& sw, const PlanOption& o) {
    const ConfigBest& c = sw.configs[o.config];
    const NodeSpec& node = sw.candidates[c.candidate];
    ojson j;
    j["instance"] = node.instance_type;
    j["accelerator"] = node.accelerator.id;
    j["nodes"] = c.nodes;
    j["devices"] = c.nodes * node.accelerators_per_node;
    j["purchase"] = purchase_name(o.spot, o.kind);
    j["layout"] = compact_layout(c.layout);
    j["step_time_s"] = json_number(c.step_time_s);
    j["tokens_per_s"] = tokens_per_s(scenario.workload.kind, c.tokens_per_s);
    j["samples_per_s"] = json_number(c.samples_per_s);
    j["mfu"] = json_number(c.mfu);
    j["memory_gib"] = json_number(c.memory_gib);
    j["time_to_train_h"] = json_number(c.job.time_to_train_h);
    j["cost_usd"] = json_number(c.job.cost_usd);
    j["cost_spot_usd"] = json_number(c.job.spot.cost_usd);
    j["spot_expected_interruptions"] = json_number(c.job.spot.expected_interruptions);
    // The option's totals (tuning trials included; spot: expected).
    j["wall_time_h"] = json_number(o.wall_time_h);
    j["total_cost_usd"] = json_number(o.cost_usd);
    const PredictionInterval& iv = c.interval;
    j["step_time_s_interval"] = range_json(time_range(c.step_time_s, iv));
    j["tokens_per_s_interval"] = scenario.workload.kind == WorkloadKind::generic
                                     ? ojson(nullptr)
                                     : range_json(rate_range(c.tokens_per_s, iv));
    j["samples_per_s_interval"] = range_json(rate_range(c.samples_per_s, iv));
    j["time_to_train_h_interval"] = range_json(time_range(c.job.time_to_train_h, iv));
    j["cost_usd_interval"] = range_json(time_range(c.job.cost_usd, iv));
    j["wall_time_h_interval"] = range_json(time_range(o.wall_time_h, iv));
    j["total_cost_usd_interval"] = range_json(time_range(o.cost_usd, iv));
    add_validation(j, iv);
    j["cost_capacity_block_usd"] = json_number(c.job.committed.capacity_block.cost_usd);
    return j;
}

ojson sweep_json(const Scenario& sc, const SweepResult& sw, const Ranking& rk, int top_n) {
    ojson j;
    j["scenario"] = sc.name;
    j["evaluated"] = sw.evaluated;
    j["valid"] = sw.valid;
    j["out_of_memory"] = sw.out_of_memory;
    j["node_counts_pruned"] = sw.node_counts_pruned;
    j["elapsed_s"] = sw.elapsed_s;
    j["plans_per_s"] = sw.elapsed_s > 0 ? ojson(sw.evaluated / sw.elapsed_s) : ojson(nullptr);
    j["threads"] = sw.threads;
    j["cancelled"] = sw.cancelled;
    j["objective"] = enum_name(sc.constraints.objective);
    ojson instances = ojson::array();
    for (const auto& s : sw.summaries) {
        ojson e{{"instance", s.instance},
                {"evaluated", s.evaluated},
                {"node_counts_fitting", s.configs_fitting},
                {"out_of_memory", s.out_of_memory},
                {"invalid_layout", s.invalid_layout},
                {"unknown_hardware", s.unknown_hardware},
                {"node_counts_pruned", s.node_counts_pruned},
                {"min_nodes_fitting",
                 s.min_nodes_fitting > 0 ? ojson(s.min_nodes_fitting) : ojson(nullptr)}};
        if (!s.skipped.empty()) e["skipped"] = s.skipped;
        instances.push_back(e);
    }
    j["instances"] = instances;
    j["plans_total"] = rk.sorted.size();
    // Options left out of `plans` by the constraints (deadline, budget, a cost objective without a
    // price).
    j["excluded"] = ojson{{"deadline", rk.excluded_deadline},
                          {"budget", rk.excluded_budget},
                          {"no_price", rk.excluded_no_price}};
    ojson plans = ojson::array();
    const std::size_t n =
        std::min<std::size_t>(rk.sorted.size(), static_cast<std::size_t>(std::max(top_n, 0)));
    for (std::size_t i = 0; i < n; ++i)
        plans.push_back(option_json(sc, sw, rk.sorted[i]));
    j["plans"] = plans;
    ojson pareto = ojson::array();
    for (const auto& o : rk.pareto)
        pareto.push_back(option_json(sc, sw, o));
    j["pareto"] = pareto;
    return j;
}

ojson recommend_json(const Scenario& sc, const RecommendResult& res) {
    ojson j;
    j["scenario"] = sc.name;
    j["objective"] = enum_name(sc.constraints.objective);
    j["objective_text"] = res.ranking.objective_text;
    j["evaluated"] = res.sweep.evaluated;
    j["elapsed_s"] = res.sweep.elapsed_s;
    j["options_considered"] = res.ranking.options_considered;
    ojson recs = ojson::array();
    for (const auto& r : res.recommendations) {
        recs.push_back(ojson{{"rank", r.rank},
                             {"reasons", r.reasons},
                             {"limits", r.limits},
                             {"plan", plan_report_json(r.report)}});
    }
    j["recommendations"] = recs;
    ojson pareto = ojson::array();
    for (const auto& p : res.pareto)
        pareto.push_back(plan_report_json(p));
    j["pareto"] = pareto;
    j["summary"] = res.summary;
    // Every instance with a fitting layout and the fewest of its nodes that hold the job.
    ojson fits = ojson::array();
    for (const CandidateSummary& s : res.sweep.summaries)
        if (s.configs_fitting > 0)
            fits.push_back(ojson{{"instance", s.instance}, {"min_nodes", s.min_nodes_fitting}});
    j["fits"] = fits;
    return j;
}

} // namespace cp::sim
