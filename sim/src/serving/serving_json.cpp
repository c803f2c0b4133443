#include "clusterplan/sim/serving_json.h"

#include "clusterplan/sim/plan_interval.h"
#include "clusterplan/sim/scenario.h"
#include "io/json_figures.h"

#include <cmath>

namespace cp::sim {

namespace {

using ojson = nlohmann::ordered_json;
using io::json_number;
using io::range_json;

ojson memory_json(const ServingMemoryGib& m) {
    return ojson{{"weights", json_number(m.weights)},
                 {"kv_cache", json_number(m.kv_cache)},
                 {"activations", json_number(m.activations)},
                 {"reserve", json_number(m.reserve)},
                 {"total", json_number(m.total)},
                 {"capacity", json_number(m.capacity)}};
}

ojson spot_json(const ServingSpot& s) {
    return ojson{{"replicas_per_node", s.replicas_per_node},
                 {"replicas_lost_per_reclaim", s.replicas_lost_per_reclaim},
                 {"headroom_replicas", s.headroom_replicas},
                 {"nodes_with_headroom", s.nodes_with_headroom},
                 {"interruption_bucket", s.interruption_bucket},
                 {"usd_per_hour", json_number(s.usd_per_hour)},
                 {"usd_per_million_output_tokens", json_number(s.usd_per_million_output_tokens)}};
}

ojson factors_json(const PredictionInterval& iv) {
    return ojson{{"validated", iv.validated},   {"runs", iv.runs},
                 {"sources", iv.sources},       {"basis", enum_name(iv.basis)},
                 {"low_factor", iv.low_factor}, {"high_factor", iv.high_factor}};
}

// Each figure's range (DESIGN.md "Serving prediction intervals"): throughput and the cost per
// token it sets from the throughput residuals, TTFT from the TTFT residuals, TPOT and a batch's
// latency from the step-time residuals.
void add_ranges(ojson& j, const ServingPlan& p, bool full) {
    const ServingIntervals& iv = p.intervals;
    j["output_tokens_per_s_interval"] =
        range_json(rate_range(p.output_tokens_per_s, iv.throughput));
    if (full) j["samples_per_s_interval"] = range_json(rate_range(p.samples_per_s, iv.throughput));
    j["ttft_ms_interval"] = range_json(time_range(p.ttft_ms, iv.ttft));
    j["tpot_ms_interval"] = range_json(time_range(p.tpot_ms, iv.step));
    j["latency_ms_interval"] = range_json(time_range(p.latency_ms, iv.step));
    j["usd_per_million_output_tokens_interval"] =
        range_json(time_range(p.usd_per_million_output_tokens, iv.throughput));
    // At the planned rate, the capacity at either end of its range: [low, high], high null where
    // that end is past capacity (DESIGN.md "Serving near saturation").
    if (p.load_range.known) {
        const ServingLoadRange& lr = p.load_range;
        auto ends = [](double low, double high) {
            return ojson::array({json_number(low), json_number(high)});
        };
        j["load_range"] = ojson{{"utilization", ends(lr.utilization_low, lr.utilization_high)},
                                {"ttft_ms", ends(lr.ttft_ms_low, lr.ttft_ms_high)},
                                {"tpot_ms", ends(lr.tpot_ms_low, lr.tpot_ms_high)},
                                {"may_overload", lr.may_overload}};
    }
}

// The headline (throughput, and the cost it sets) decides `validated`; every figure's own
// bucket is listed under `figures`.
void add_validation(ojson& j, const ServingPlan& p) {
    const PredictionInterval& head = p.intervals.throughput;
    j["confidence"] = head.confidence;
    j["validated"] = head.validated;
    ojson validation = io::validation_json(head);
    validation["note"] = p.validation;
    validation["figures"] = ojson{{"throughput", factors_json(head)},
                                  {"ttft", factors_json(p.intervals.ttft)},
                                  {"step", factors_json(p.intervals.step)}};
    j["validation"] = std::move(validation);
}

} // namespace

std::vector<std::string> serving_limit_names(const ServingLimits& l) {
    std::vector<std::string> out;
    auto add = [&](bool on, const char* name) {
        if (on) out.emplace_back(name);
    };
    add(l.unsupported, "unsupported");
    add(l.weights_do_not_fit, "weights_do_not_fit");
    add(l.kv_bound, "kv_bound");
    add(l.batch_cap, "batch_cap");
    add(l.compute_bound, "compute_bound");
    add(l.memory_bound, "memory_bound");
    add(l.comm_bound, "comm_bound");
    add(l.overloaded, "overloaded");
    add(l.slo_ttft_missed, "slo_ttft_missed");
    add(l.slo_tpot_missed, "slo_tpot_missed");
    return out;
}

ojson serving_choice_json(const ServingPlan& p, int rank) {
    ojson j;
    if (rank > 0) j["rank"] = rank;
    j["instance"] = p.instance;
    j["accelerator"] = p.accelerator;
    j["engine"] = enum_name(p.engine);
    j["weights"] = enum_name(p.weights);
    j["kv_cache"] = enum_name(p.kv_cache);
    j["tp"] = p.tp;
    j["pp"] = p.pp;
    j["batch"] = p.batch;
    j["replicas"] = p.replicas;
    j["nodes"] = p.nodes;
    j["devices"] = p.devices;
    j["valid"] = p.valid;
    j["meets_slo"] = p.meets_slo;
    j["ttft_ms"] = json_number(p.ttft_ms);
    j["tpot_ms"] = json_number(p.tpot_ms);
    j["latency_ms"] = json_number(p.latency_ms);
    j["output_tokens_per_s"] = json_number(p.output_tokens_per_s);
    j["samples_per_s"] = json_number(p.samples_per_s);
    j["usd_per_hour"] = json_number(p.usd_per_hour);
    j["usd_per_million_output_tokens"] = json_number(p.usd_per_million_output_tokens);
    j["usd_per_hour_spot"] = json_number(p.spot.usd_per_hour);
    j["usd_per_million_output_tokens_spot"] = json_number(p.spot.usd_per_million_output_tokens);
    add_ranges(j, p, false);
    j["validated"] = p.intervals.throughput.validated;
    j["limits"] = serving_limit_names(p.limits);
    if (!p.limits.reason.empty()) j["limit_reason"] = p.limits.reason;
    return j;
}

ojson serving_plan_json(const ServingPlan& p) {
    ojson j;
    j["scenario"] = p.scenario_name;
    j["instance"] = p.instance;
    j["accelerator"] = p.accelerator;
    j["device"] = p.neuron ? "neuron_core" : "gpu";
    j["engine"] = enum_name(p.engine);
    j["weights"] = enum_name(p.weights);
    j["kv_cache"] = enum_name(p.kv_cache);
    j["compute_precision"] = enum_name(p.compute);
    j["tp"] = p.tp;
    j["pp"] = p.pp;
    j["valid"] = p.valid;
    j["meets_slo"] = p.meets_slo;
    j["input_tokens"] = p.input_tokens;
    j["output_tokens"] = p.output_tokens;
    j["request_rate_per_s"] = json_number(p.request_rate_per_s);
    j["slo"] = ojson{{"ttft_ms", json_number(p.slo.ttft_ms)},
                     {"tpot_ms", json_number(p.slo.tpot_ms)},
                     {"p", p.slo.p}};
    j["ttft_ms"] = json_number(p.ttft_ms);
    j["tpot_ms"] = json_number(p.tpot_ms);
    j["e2e_latency_ms"] = json_number(p.e2e_latency_ms);
    j["batch"] = p.batch;
    j["running_batch"] = json_number(p.running_batch);
    j["utilization"] = json_number(p.utilization);
    j["output_tokens_per_s"] = json_number(p.output_tokens_per_s);
    j["output_tokens_per_s_per_device"] = json_number(p.output_tokens_per_s_per_device);
    j["requests_per_s"] = json_number(p.requests_per_s);
    j["samples_per_s"] = json_number(p.samples_per_s);
    j["latency_ms"] = json_number(p.latency_ms);
    j["replicas"] = p.replicas;
    j["devices"] = p.devices;
    j["devices_per_replica"] = p.devices_per_replica;
    j["nodes"] = p.nodes;
    j["step_ms"] = ojson{{"compute", json_number(1e3 * p.step.compute_s)},
                         {"weights", json_number(1e3 * p.step.weights_s)},
                         {"kv_cache", json_number(1e3 * p.step.kv_cache_s)},
                         {"tp_comm", json_number(1e3 * p.step.tp_comm_s)},
                         {"overhead", json_number(1e3 * p.step.overhead_s)}};
    j["memory_gib"] = memory_json(p.memory);
    j["fits_in_memory"] = p.fits_in_memory;
    j["usd_per_hour"] = json_number(p.usd_per_hour);
    j["usd_per_million_output_tokens"] = json_number(p.usd_per_million_output_tokens);
    add_ranges(j, p, true);
    j["price_as_of"] = p.price_as_of;
    j["spot"] = spot_json(p.spot);
    j["limits"] = serving_limit_names(p.limits);
    if (!p.limits.reason.empty()) j["limit_reason"] = p.limits.reason;
    ojson curve = ojson::array();
    for (const auto& c : p.curve)
        curve.push_back(ojson{{"request_rate_per_s", json_number(c.request_rate_per_s)},
                              {"output_tokens_per_s", json_number(c.output_tokens_per_s)},
                              {"ttft_ms", json_number(c.ttft_ms)},
                              {"tpot_ms", json_number(c.tpot_ms)},
                              {"latency_ms", json_number(c.latency_ms)}});
    j["curve"] = curve;
    j["searched"] = p.searched;
    add_validation(j, p);
    j["assumptions"] = p.assumptions;
    return j;
}

} // namespace cp::sim
