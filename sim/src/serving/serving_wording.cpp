// The assumptions and validation note every serving plan carries (stated once here so the CLI,
// GUI and report say the same).
#include "clusterplan/sim/serving_wording.h"

#include "clusterplan/sim/format.h"
#include "engine/model_constants.h"

#include <algorithm>
#include <cstdio>
#include <string>

namespace cp::sim {

namespace {

std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string join(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& s : items)
        out += (out.empty() ? "" : ", ") + s;
    return out;
}

} // namespace

std::string serving_factors_sentence(ServingEngine engine, const EngineFactors& f) {
    std::string s =
        std::string("engine ") + enum_name(engine) + " factors on the datasheet times: compute " +
        fixed(f.k_of(ServingTerm::compute), 2) + ", MoE expert compute " +
        fixed(f.k_of(ServingTerm::expert_compute), 2) + ", weight streaming " +
        fixed(f.k_of(ServingTerm::weights), 2) + ", KV-cache reads " +
        fixed(f.k_of(ServingTerm::kv_cache), 2) + ", TP all-reduce " +
        fixed(f.k_of(ServingTerm::tp_comm), 2) + ", CNN compute " +
        fixed(f.k_of(ServingTerm::cnn_compute), 2) + " (Neuron), CNN feature maps beyond L2 " +
        fixed(f.k_of(ServingTerm::feature_maps), 2) + ", overhead " +
        fixed(1e6 * f.k_of(ServingTerm::overhead), 1) + " us per layer and step; prefill compute " +
        fixed(f.k_of(ServingTerm::prefill_compute), 2) + ", prefill overhead " +
        fixed(1e6 * f.k_of(ServingTerm::prefill_overhead), 1) + " us per layer; forward pass " +
        fixed(1e6 * f.k_of(ServingTerm::pass_overhead), 1) + " us per call; server host loop " +
        fixed(1e3 * f.k_of(ServingTerm::host_step_overhead), 2) + " ms per step, " +
        fixed(1e6 * f.k_of(ServingTerm::host_seq_overhead), 1) +
        " us per sequence and step; request overhead " + fixed(1e3 * f.request_overhead_s, 2) +
        " ms (in TTFT, or per LoadGen query); ";
    if (f.host_sampling_s > 0)
        s += "host sampling " + fixed(1e3 * f.host_sampling_s, 2) +
             " ms per step where the graphs return logits; ";
    if (!f.scaled_from.empty())
        s += "too few published runs for factors of its own: the factors of " + f.scaled_from +
             " with matrix and fixed-cost terms times " + fixed(f.scale, 2) +
             " (least squares on " + std::to_string(f.runs.size()) + " runs: " + join(f.sources) +
             ")";
    else if (!f.borrowed_from.empty())
        s += "no published runs of its own: the factors of " + f.borrowed_from + " (fitted on " +
             std::to_string(f.runs.size()) + " runs) stand in";
    else if (f.runs.empty())
        s += "not fitted (no published runs): datasheet rates";
    else
        s += "least-squares fit (relative error, non-negative; decode weight and KV streaming no "
             "faster than peak bandwidth) on " +
             std::to_string(f.runs.size()) + " published runs: " + join(f.sources);
    return s;
}

std::string serving_quantization_note(const ServingPlan& p) {
    const bool quantized = p.weights == StorageType::int8 || p.weights == StorageType::int4;
    const bool searched =
        std::find(p.searched.begin(), p.searched.end(), "weights") != p.searched.end();
    if (!quantized || !searched) return {};
    return std::string("Weights quantized to ") + enum_name(p.weights) +
           " (chosen because serving.weights is left open; quantization can cost answer "
           "quality): set serving.weights to bf16 or fp16 to plan the model's native precision.";
}

std::string serving_load_range_text(const ServingPlan& p) {
    const ServingLoadRange& lr = p.load_range;
    if (!lr.known) return {};
    // "183.9-240.2 ms", or "183.9 ms to unbounded" past capacity (no unit after "unbounded").
    const auto span = [&lr](double low, double high, int digits) {
        return fmt::number(low, digits) + (lr.may_overload
                                               ? std::string(" ms to unbounded")
                                               : "-" + fmt::number(high, digits) + " ms");
    };
    return "utilisation " + fmt::percent(lr.utilization_low, 0) + "-" +
           fmt::percent(lr.utilization_high, 0) + ", TTFT " +
           span(lr.ttft_ms_low, lr.ttft_ms_high, 1) + ", TPOT " +
           span(lr.tpot_ms_low, lr.tpot_ms_high, 2) +
           (lr.may_overload ? " (the slow end is past capacity)" : "");
}

std::string serving_validation_note(const ServingPlan& p, const EngineFactors& f) {
    const bool measured = std::find(f.accelerators.begin(), f.accelerators.end(), p.accelerator) !=
                          f.accelerators.end();
    if (!f.borrowed_from.empty() || f.runs.empty())
        return std::string("unvalidated: no published ") + enum_name(p.engine) +
               " runs; factors of " +
               (f.borrowed_from.empty() ? std::string("the datasheet") : f.borrowed_from);
    if (!measured)
        return std::string("unvalidated on ") + p.accelerator + ": the " + enum_name(p.engine) +
               " runs cover " + join(f.accelerators);
    return "validated: " + std::to_string(f.runs.size()) + " published " + enum_name(p.engine) +
           " runs incl. " + p.accelerator + " (" + join(f.sources) + ")";
}

void add_serving_assumptions(ServingPlan& p, const EngineFactors& f) {
    auto& a = p.assumptions;
    a.push_back("step model: roofline per kernel at datasheet rates (GEMM size curve and HBM curve "
                "of the training "
                "model), kernel times added; a decode step reads every weight once and every "
                "sequence's KV cache "
                "(Pope et al. 2022); prefill is compute-bound at the GEMM rate of its token count, "
                "with causal "
                "fused attention");
    a.push_back(serving_factors_sentence(p.engine, f));
    a.push_back(std::string("engine policy: ") +
                std::string(engine_policy(p.engine, p.neuron).source));
    if (p.generation) {
        a.push_back(
            "KV cache: 2 x layers x kv_heads x head_dim x " + std::string(enum_name(p.kv_cache)) +
            " per token; its capacity (memory - weights - activations - " +
            fixed(model::kFrameworkReserveGib, 1) + " GiB reserve per device) caps the batch");
        a.push_back(
            "queueing: Poisson arrivals split evenly over replicas; static batching: M/D/1 "
            "wait before prefill (Pollaczek-Khinchine mean rho/(2(1-rho)) x service time; "
            "exponential tail for quantiles); continuous batching: a request waits only for a "
            "free batch slot (M/D/c, c = batch slots held for a request's stay, Erlang C "
            "halved for deterministic stays), running batch by Little's law, each step also "
            "prefills its arrivals");
        if (!is_known(p.request_rate_per_s))
            a.push_back("no request rate: saturated throughput; TTFT is one prefill plus one step "
                        "at the full batch "
                        "(no queue)");
    } else {
        a.push_back("one forward pass per batch; latency SLO checked against slo.ttft_ms; M/D/1 "
                    "wait at the rate");
    }
    if (p.neuron)
        a.push_back("Neuron: devices are NeuronCores (a chip's compute, memory and bandwidth split "
                    "evenly over its "
                    "cores); TP is counted in cores; compiled static shapes");
    const auto replicas = [](int n) {
        return std::to_string(n) + (n == 1 ? " replica" : " replicas");
    };
    a.push_back("spot: one reclaim takes out one instance (" +
                replicas(p.spot.replicas_lost_per_reclaim) + "); " +
                std::to_string(p.spot.headroom_replicas) +
                (p.spot.headroom_replicas == 1 ? " spare replica keeps" : " spare replicas keep") +
                " the rate served through it (AWS gives a 2-minute notice)");
    if (!p.price_as_of.empty()) a.push_back("on-demand price as of " + p.price_as_of);
    p.validation = serving_validation_note(p, f);
}

} // namespace cp::sim
