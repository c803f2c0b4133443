#include "clusterplan/sim/serving_plan.h"

#include "clusterplan/sim/format.h"
#include "clusterplan/sim/serving_wording.h"
#include "serving/serving_eval.h"
#include "serving/serving_model.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>

namespace cp::sim {

namespace {

struct Candidate {
    ServingEngine engine = ServingEngine::tensorrt_llm;
    StorageType weights = StorageType::bf16, kv_cache = StorageType::bf16;
    int tp = 1, pp = 1;
    std::optional<int> batch;
};

// What does not fit and what would: the weights (and how many such devices per replica hold
// them), or the KV cache of the batch asked for (how many sequences it holds).
std::string memory_refusal(const ServingSetup& st, const BatchPlan& bp, const std::string& instance,
                           std::optional<int> batch) {
    const ServingMemoryGib& m = bp.memory;
    const double usable_gib = m.capacity - m.reserve;
    const int devices = st.tp * st.pp;
    const auto gib = [](double v) { return fmt::number(v, 1); };
    std::ostringstream why;
    why << "does not fit in memory: ";
    if (!bp.weights_fit) {
        const double total_gib = m.weights * devices;
        const int needed = usable_gib > 0 ? int(std::ceil(total_gib / usable_gib)) : 0;
        why << "the " << enum_name(st.weights) << " weights need " << gib(m.weights)
            << " GiB per device at tp " << st.tp << ", pp " << st.pp << " (" << gib(total_gib)
            << " GiB in all), over the " << gib(m.capacity) << " GiB of one " << st.hw.device.id
            << (st.hw.device.is_gpu ? "" : " NeuronCore");
        if (m.reserve > 0) why << " less its " << gib(m.reserve) << " GiB runtime reserve";
        if (needed > devices)
            why << "; they need at least " << needed << " such devices per replica (" << instance
                << " has " << st.hw.devices_per_node << ")";
        if (st.weights != StorageType::int4)
            why << ", or weights smaller than " << enum_name(st.weights);
        return why.str();
    }
    const Workload& w = *st.workload;
    if (w.kind == WorkloadKind::generic || w.shape.encoder_only) {
        why << "the weights fit (" << gib(m.weights) << " GiB per device) but the activations of a "
            << "batch of " << bp.batch << " need " << gib(m.activations)
            << " GiB more; a smaller serving.batch would fit";
        return why.str();
    }
    why << "the weights fit (" << gib(m.weights) << " GiB per device) but the KV cache left beside "
        << "them holds " << std::max(0, bp.memory_batch)
        << (bp.memory_batch == 1 ? " sequence" : " sequences");
    if (batch) why << ", not the " << *batch << " asked for (serving.batch)";
    why << "; more devices per replica (tp), a smaller KV-cache type or shorter requests would "
           "fit more";
    return why.str();
}

bool generation(const ServingRequest& r) {
    return r.workload.kind == WorkloadKind::transformer && !r.workload.shape.encoder_only &&
           r.spec.output_tokens > 0;
}

// Neuron devices serve through the Neuron SDK: its own static-batch runtime, or TGI's and vLLM's
// Neuron backends where asked for; GPUs through the engine asked for (default: TensorRT-LLM for
// LLMs, TensorRT for encoders and CNNs).
ServingEngine engine_for(const ServingRequest& r, const AcceleratorSpec& a,
                         std::vector<std::string>& notes) {
    if (!a.is_gpu) {
        const bool server = r.spec.engine && (*r.spec.engine == ServingEngine::tgi ||
                                              *r.spec.engine == ServingEngine::vllm);
        if (server && generation(r)) return *r.spec.engine;
        if (r.spec.engine && *r.spec.engine != ServingEngine::neuron)
            notes.push_back(a.id + " serves through the AWS Neuron SDK: engine " +
                            enum_name(*r.spec.engine) + " replaced by neuron");
        return ServingEngine::neuron;
    }
    if (r.spec.engine) return *r.spec.engine;
    return generation(r) ? ServingEngine::tensorrt_llm : ServingEngine::tensorrt;
}

StorageType sixteen_bit(const AcceleratorSpec& a) {
    return is_known(a.peak(Precision::bf16)) ? StorageType::bf16 : StorageType::fp16;
}

std::vector<StorageType> weight_options(const ServingRequest& r, const AcceleratorSpec& a,
                                        ServingEngine e) {
    if (r.spec.weights) return {*r.spec.weights};
    std::vector<StorageType> out{sixteen_bit(a)};
    if (!a.is_gpu) {
        // transformers-neuronx stores weights as int8 (Neuron LLM benchmark tables); Inferentia1
        // (NeuronCore-v1) runs fp16/bf16 graphs of small models only.
        if (!a.id.starts_with("Inferentia1")) out.push_back(StorageType::int8);
        return out;
    }
    const bool llm_engine =
        e == ServingEngine::tensorrt_llm || e == ServingEngine::vllm || e == ServingEngine::tgi;
    if (is_known(a.peak(Precision::fp8)) && (llm_engine || e == ServingEngine::tensorrt))
        out.push_back(StorageType::fp8);
    if (llm_engine || e == ServingEngine::tensorrt) out.push_back(StorageType::int8);
    if (llm_engine) out.push_back(StorageType::int4);
    return out;
}

// KV cache default: the weights' type, at least 8 bit (int4 weights keep an int8 cache); Neuron
// keeps its cache in bf16 whatever the weight storage (Neuron LLM benchmark tables).
StorageType kv_for(const ServingRequest& r, StorageType weights, const AcceleratorSpec& a) {
    if (r.spec.kv_cache) return *r.spec.kv_cache;
    if (!a.is_gpu) return sixteen_bit(a);
    return weights == StorageType::int4 ? StorageType::int8 : weights;
}

std::vector<int> tp_options(const ServingRequest& r, const ServingHardware& hw) {
    if (r.spec.tp) return {*r.spec.tp};
    if (!generation(r)) return {1};
    const TransformerShape& s = r.workload.shape;
    std::vector<int> out;
    const std::vector<int> gpu{1, 2, 4, 8}, neuron{1, 2, 4, 8, 16, 24, 32};
    for (int t : hw.device.is_gpu ? gpu : neuron) {
        if (t > hw.devices_per_node) break;
        // Neuron pads heads to the core count; GPU engines need tp to divide the heads.
        if (hw.device.is_gpu && (s.heads % t != 0 || (s.kv_heads % t != 0 && t % s.kv_heads != 0)))
            continue;
        out.push_back(t);
    }
    return out;
}

std::vector<std::optional<int>> batch_options(const ServingRequest& r, const EnginePolicy& p) {
    if (r.spec.batch) return {r.spec.batch};
    if (p.continuous_batching) return {std::nullopt};
    std::vector<std::optional<int>> out;
    for (int b = 1; b <= std::max(1, p.max_batch); b *= 2)
        out.push_back(b);
    return out;
}

bool slo_met(const ServingRequest& r, const ServingLoad& l, bool gen, ServingLimits& limits) {
    if (l.overloaded) return false;
    const ServingSlo& slo = r.spec.slo;
    const double first = gen ? l.ttft_ms : l.latency_ms;
    limits.slo_ttft_missed = is_known(slo.ttft_ms) && first > slo.ttft_ms;
    limits.slo_tpot_missed = gen && is_known(slo.tpot_ms) && l.tpot_ms > slo.tpot_ms;
    return !limits.slo_ttft_missed && !limits.slo_tpot_missed;
}

// Prices and replica packing of `replicas` replicas on `hw`.
void price(ServingPlan& plan, const ServingHardware& hw, double served_per_hour) {
    const int per_node = hw.devices_per_node;
    const int dpr = plan.devices_per_replica;
    const bool multi_node = dpr > per_node;
    const int replicas_per_node = multi_node ? 1 : per_node / dpr;
    const int nodes_per_replica = multi_node ? (dpr + per_node - 1) / per_node : 1;
    auto nodes_for = [&](int replicas) {
        return multi_node ? replicas * nodes_per_replica
                          : (replicas + replicas_per_node - 1) / replicas_per_node;
    };
    plan.nodes = nodes_for(plan.replicas);
    plan.devices = plan.replicas * dpr;
    plan.usd_per_hour = plan.nodes * hw.node.usd_per_node_hour_on_demand;
    plan.usd_per_million_output_tokens = plan.usd_per_hour / served_per_hour * 1e6;
    ServingSpot& s = plan.spot;
    s.replicas_per_node = replicas_per_node;
    // A reclaim removes one instance: every replica on it, or the whole replica it is part of.
    s.replicas_lost_per_reclaim = multi_node ? 1 : std::min(replicas_per_node, plan.replicas);
    s.headroom_replicas = s.replicas_lost_per_reclaim;
    s.nodes_with_headroom = nodes_for(plan.replicas + s.headroom_replicas);
    s.interruption_bucket = hw.node.spot_interruption_bucket;
    s.usd_per_hour = s.nodes_with_headroom * hw.node.usd_per_node_hour_spot;
    s.usd_per_million_output_tokens = s.usd_per_hour / served_per_hour * 1e6;
}

// A replica whose device times are all k times the model's serves the rate r as the model's
// replica serves k r, with every time k times longer: a queue sees only rate x time. So the ends
// of the throughput range (measured / predicted time factors of comparable runs) are the model's
// replica at the rate scaled by them. An end past capacity has no steady state.
ServingLoadRange load_range(const ServingSetup& st, const EnginePolicy& policy,
                            const EngineFactors& f, const BatchPlan& bp, const ServingCapacity& cap,
                            const ServingPlan& plan, double rate_per_replica,
                            const PredictionInterval& throughput) {
    ServingLoadRange out;
    out.known = true;
    const double inf = std::numeric_limits<double>::infinity();
    auto at = [&](double k, double& util, double& ttft, double& tpot) {
        const ServingLoad l = serving_load(st, policy, f, bp, cap, plan.input_tokens,
                                           plan.output_tokens, k * rate_per_replica, plan.slo.p);
        util = l.utilization;
        ttft = l.overloaded ? inf : k * l.ttft_ms;
        tpot = l.overloaded ? inf : k * l.tpot_ms;
        return l.overloaded;
    };
    at(std::min(1.0, throughput.low_factor), out.utilization_low, out.ttft_ms_low, out.tpot_ms_low);
    out.may_overload = at(std::max(1.0, throughput.high_factor), out.utilization_high,
                          out.ttft_ms_high, out.tpot_ms_high);
    return out;
}

ServingPlan evaluate(const ServingRequest& r, const NodeSpec& node, const Candidate& c,
                     const ServingFactors& factors, const CalibrationProfile* calibration,
                     bool with_curve) {
    ServingPlan plan;
    plan.scenario_name = r.name;
    plan.instance = node.instance_type;
    plan.accelerator = node.accelerator.id;
    plan.engine = c.engine;
    plan.weights = c.weights;
    plan.kv_cache = c.kv_cache;
    plan.tp = c.tp;
    plan.pp = c.pp;
    plan.devices_per_replica = c.tp * c.pp;
    plan.generation = generation(r);
    plan.input_tokens = r.spec.input_tokens;
    plan.output_tokens = plan.generation ? r.spec.output_tokens : 0;
    plan.request_rate_per_s = r.spec.request_rate_per_s;
    plan.slo = r.spec.slo;
    ServingSetup st = make_serving_setup(r.workload, node, c.engine, c.weights, c.kv_cache, c.tp,
                                         c.pp, calibration);
    st.gqa_shared_kv_reads = r.spec.gqa_shared_kv_reads;
    st.async_host_loop = r.spec.async_scheduling;
    st.host_sampling = !r.spec.on_device_sampling;
    plan.neuron = st.hw.cores_per_chip > 1 || !st.hw.device.is_gpu;
    plan.compute = st.compute;
    plan.price_as_of = node.price_as_of;
    EnginePolicy policy = st.policy();
    // An engine planned on another's profile keeps its own running cap (SGLang on vLLM's).
    if (const int cap = engine_max_running(r.spec.engine_as_given); cap > 0) policy.max_batch = cap;
    policy.overlap_schedule = engine_overlap_schedule(r.spec.engine_as_given);
    if (r.spec.engine_max_batch)
        policy.max_batch = policy.build_max_batch = *r.spec.engine_max_batch;
    if ((plan.generation && !policy.decoders) || (!plan.generation && !policy.encoders)) {
        plan.limits.unsupported = true;
        plan.limits.reason = std::string(enum_name(c.engine)) + " does not serve " +
                             (plan.generation ? "text generation" : "encoder or CNN models");
        return plan;
    }
    if (st.hw.device.id.starts_with("Inferentia1") && plan.generation) {
        plan.limits.unsupported = true;
        plan.limits.reason = "Inferentia1 serves small encoder and CNN models only, not LLM "
                             "generation (AWS Neuron docs)";
        return plan;
    }
    // GPU engines run TP across instances (SGLang's Llama 3.1 405B and DeepSeek-V3 on two 8-GPU
    // nodes at tp 16, sgl-project/sglang docs/references/multi_node.md); a Neuron replica's TP
    // group stays on one instance's NeuronLink.
    if (neuron_devices(st.hw) && plan.devices_per_replica > st.hw.devices_per_node &&
        c.tp > st.hw.devices_per_node) {
        plan.limits.unsupported = true;
        plan.limits.reason = "tp " + std::to_string(c.tp) + " exceeds the " +
                             std::to_string(st.hw.devices_per_node) + " devices of " +
                             node.instance_type + " (tensor parallelism stays inside an instance)";
        return plan;
    }
    if (const std::string gap = serving_hardware_gap(st); !gap.empty()) {
        plan.limits.unsupported = true;
        plan.limits.reason = gap;
        return plan;
    }
    const EngineFactors& f = factors.of(factor_engine(c.engine, neuron_devices(st.hw)),
                                        serves_generation(st, plan.output_tokens));
    const BatchPlan bp = plan_batch(st, policy, plan.input_tokens, plan.output_tokens, c.batch);
    // A server on Neuron compiles its decode graph for the batch it holds.
    if (neuron_devices(st.hw) && policy.continuous_batching) st.compiled_decode_batch = bp.batch;
    plan.memory = bp.memory;
    plan.fits_in_memory = bp.fits;
    plan.limits.weights_do_not_fit = !bp.weights_fit;
    plan.limits.kv_bound = bp.kv_bound;
    plan.limits.batch_cap = bp.batch_cap;
    if (!bp.fits) plan.limits.reason = memory_refusal(st, bp, node.instance_type, c.batch);
    plan.batch = bp.batch;
    const ServingCapacity cap =
        serving_capacity(st, policy, f, bp, plan.input_tokens, plan.output_tokens);
    plan.step = cap.step;
    plan.limits.compute_bound =
        cap.step.compute_s >=
        std::max({cap.step.weights_s + cap.step.kv_cache_s, cap.step.tp_comm_s});
    plan.limits.memory_bound = !plan.limits.compute_bound &&
                               cap.step.weights_s + cap.step.kv_cache_s >= cap.step.tp_comm_s;
    plan.limits.comm_bound = !plan.limits.compute_bound && !plan.limits.memory_bound;
    const double units = plan.generation ? plan.output_tokens : 1.0;
    plan.requests_per_s = cap.requests_per_s;
    if (plan.generation) {
        plan.output_tokens_per_s = cap.output_tokens_per_s;
        plan.output_tokens_per_s_per_device = cap.output_tokens_per_s / plan.devices_per_replica;
    } else {
        plan.samples_per_s = cap.requests_per_s;
    }
    const double rate = r.spec.request_rate_per_s;
    const double q = r.spec.slo.p;
    ServingLoad load;
    if (!is_known(rate)) {
        plan.replicas = r.spec.replicas.value_or(1);
        load = serving_load(st, policy, f, bp, cap, plan.input_tokens, plan.output_tokens, kUnknown,
                            q);
        plan.meets_slo = slo_met(r, load, plan.generation, plan.limits);
        price(plan, st.hw, plan.replicas * cap.requests_per_s * units * 3600.0);
    } else {
        const int least = std::max(1, int(std::ceil(rate / cap.requests_per_s * (1.0 + 1e-9))));
        const int first = r.spec.replicas.value_or(least);
        const int last = r.spec.replicas ? first : least * 4 + 16;
        for (int n = first; n <= last; ++n) {
            plan.replicas = n;
            load = serving_load(st, policy, f, bp, cap, plan.input_tokens, plan.output_tokens,
                                rate / n, q);
            plan.meets_slo = slo_met(r, load, plan.generation, plan.limits);
            if (plan.meets_slo) break;
        }
        plan.limits.overloaded = load.overloaded;
        price(plan, st.hw, rate * units * 3600.0);
        if (plan.generation)
            plan.load_range =
                load_range(st, policy, f, bp, cap, plan, rate / plan.replicas,
                           serving_intervals(c.engine, accelerator_generation(node.accelerator),
                                             routes_experts(r.workload))
                               .throughput);
    }
    plan.ttft_ms = load.ttft_ms;
    plan.tpot_ms = load.tpot_ms;
    plan.e2e_latency_ms = load.e2e_latency_ms;
    plan.latency_ms = plan.generation ? kUnknown : load.latency_ms;
    plan.running_batch = load.running_batch;
    plan.utilization = load.utilization;
    plan.valid = bp.fits;
    if (with_curve) {
        for (int i = 1; i <= 10; ++i) {
            const double per_replica = cap.requests_per_s * 0.095 * i;
            const ServingLoad pt = serving_load(st, policy, f, bp, cap, plan.input_tokens,
                                                plan.output_tokens, per_replica, q);
            plan.curve.push_back(
                {per_replica, per_replica * units, pt.ttft_ms, pt.tpot_ms, pt.latency_ms});
        }
    }
    return plan;
}

// Better: runs, meets the SLO, cheaper for the purchase option asked for, then faster.
bool better(const ServingPlan& a, const ServingPlan& b, bool spot) {
    if (a.valid != b.valid) return a.valid;
    if (a.meets_slo != b.meets_slo) return a.meets_slo;
    const double ca = spot ? a.spot.usd_per_million_output_tokens : a.usd_per_million_output_tokens;
    const double cb = spot ? b.spot.usd_per_million_output_tokens : b.usd_per_million_output_tokens;
    if (std::isfinite(ca) != std::isfinite(cb)) return std::isfinite(ca);
    if (std::isfinite(ca) && std::abs(ca - cb) > 1e-9 * std::max(ca, cb)) return ca < cb;
    return (a.generation ? a.ttft_ms : a.latency_ms) < (b.generation ? b.ttft_ms : b.latency_ms);
}

} // namespace

ServingPlan plan_serving(const ServingRequest& r, const NodeSpec& node,
                         const ServingFactors& factors, const CalibrationProfile* calibration) {
    std::vector<std::string> notes;
    const ServingHardware hw = serving_hardware(node);
    const ServingEngine engine = engine_for(r, node.accelerator, notes);
    const EnginePolicy& policy = engine_policy(engine, neuron_devices(hw));
    ServingPlan best;
    bool have = false;
    Candidate best_c;
    for (StorageType w : weight_options(r, hw.device, engine))
        for (int tp : tp_options(r, hw))
            for (const auto& b : batch_options(r, policy)) {
                Candidate c{engine, w, kv_for(r, w, hw.device), tp, r.spec.pp.value_or(1), b};
                ServingPlan p = evaluate(r, node, c, factors, calibration, false);
                if (!have || better(p, best, r.spot)) {
                    best = std::move(p);
                    best_c = c;
                    have = true;
                }
            }
    if (!have) {
        best.instance = node.instance_type;
        best.accelerator = node.accelerator.id;
        best.limits.unsupported = true;
        best.limits.reason =
            "no tensor-parallel degree divides the model's heads on " + node.instance_type;
        return best;
    }
    if (best.valid) best = evaluate(r, node, best_c, factors, calibration, true);
    best.assumptions = notes;
    add_serving_assumptions(
        best, factors.of(factor_engine(best.engine, neuron_devices(node)), best.generation));
    if (!r.spec.engine_as_given.empty())
        best.assumptions.push_back("serving.engine " + r.spec.engine_as_given +
                                   " is planned with the " + enum_name(best.engine) +
                                   " profile, the engine it runs like (no measurements of its own "
                                   "fitted)");
    best.intervals = serving_intervals(best.engine, accelerator_generation(node.accelerator),
                                       routes_experts(r.workload));
    for (const char* field : {"engine", "weights", "kv_cache", "tp", "batch", "replicas"}) {
        const std::string f = field;
        const bool given = (f == "engine" && r.spec.engine) || (f == "weights" && r.spec.weights) ||
                           (f == "kv_cache" && r.spec.kv_cache) || (f == "tp" && r.spec.tp) ||
                           (f == "batch" && r.spec.batch) || (f == "replicas" && r.spec.replicas);
        if (!given) best.searched.push_back(f);
    }
    return best;
}

std::vector<ServingPlan> rank_serving(const ServingRequest& r, const std::vector<NodeSpec>& nodes,
                                      const ServingFactors& factors) {
    std::vector<ServingPlan> out;
    for (const NodeSpec& node : nodes)
        out.push_back(plan_serving(r, node, factors, nullptr));
    std::stable_sort(out.begin(), out.end(), [&](const ServingPlan& a, const ServingPlan& b) {
        return better(a, b, r.spot);
    });
    return out;
}

} // namespace cp::sim
