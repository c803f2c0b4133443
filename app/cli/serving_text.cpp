#include "serving_text.h"

#include "clusterplan/sim/serving_json.h"
#include "clusterplan/sim/serving_wording.h"

#include <cmath>
#include <cstdio>
#include <ostream>
#include <string>

namespace cp::cli {

namespace {

std::string fmt(const char* f, double v) {
    if (!std::isfinite(v)) return "-";
    char buf[64];
    std::snprintf(buf, sizeof buf, f, v);
    return buf;
}

std::string join(const std::vector<std::string>& items) {
    std::string s;
    for (const auto& i : items)
        s += (s.empty() ? "" : ", ") + i;
    return s;
}

bool is_known_slo(const sim::ServingPlan& p) {
    return sim::is_known(p.slo.ttft_ms) || sim::is_known(p.slo.tpot_ms);
}

} // namespace

void print_serving_plan(std::ostream& out, const sim::ServingPlan& p) {
    out << "Serving " << (p.scenario_name.empty() ? std::string("scenario") : p.scenario_name)
        << " on " << p.instance << " (" << p.accelerator << ")\n";
    if (!p.valid) {
        out << "  cannot serve: " << p.limits.reason << "\n";
        return;
    }
    out << "  engine " << sim::enum_name(p.engine) << ", weights " << sim::enum_name(p.weights);
    if (p.generation) out << ", KV cache " << sim::enum_name(p.kv_cache);
    out << ", tp " << p.tp << (p.neuron ? " NeuronCores" : "") << ", pp " << p.pp << ", batch "
        << p.batch << "\n";
    if (const std::string note = sim::serving_quantization_note(p); !note.empty())
        out << "  " << note << "\n";
    out << "  replicas " << p.replicas << " on " << p.nodes << " instance(s), " << p.devices
        << " devices\n";
    if (p.generation) {
        out << "  TTFT " << fmt("%.1f", p.ttft_ms) << " ms, TPOT " << fmt("%.2f", p.tpot_ms)
            << " ms, end to end " << fmt("%.0f", p.e2e_latency_ms) << " ms (p"
            << fmt("%.0f", 100 * p.slo.p) << ")\n";
        out << "  capacity per replica: " << fmt("%.0f", p.output_tokens_per_s)
            << " output tokens/s (" << fmt("%.0f", p.output_tokens_per_s_per_device)
            << " per device), " << fmt("%.2f", p.requests_per_s) << " requests/s; running batch "
            << fmt("%.1f", p.running_batch) << ", utilisation " << fmt("%.0f", 100 * p.utilization)
            << " %\n";
    } else {
        out << "  latency " << fmt("%.2f", p.latency_ms) << " ms per batch, "
            << fmt("%.0f", p.samples_per_s) << " samples/s per replica\n";
    }
    out << "  step: compute " << fmt("%.2f", 1e3 * p.step.compute_s) << " ms, weights "
        << fmt("%.2f", 1e3 * p.step.weights_s) << " ms, KV cache "
        << fmt("%.2f", 1e3 * p.step.kv_cache_s) << " ms, TP comm "
        << fmt("%.2f", 1e3 * p.step.tp_comm_s) << " ms, overhead "
        << fmt("%.2f", 1e3 * p.step.overhead_s) << " ms\n";
    const auto& m = p.memory;
    out << "  memory per device: weights " << fmt("%.1f", m.weights) << " GiB, KV cache "
        << fmt("%.1f", m.kv_cache) << " GiB, activations " << fmt("%.1f", m.activations)
        << " GiB, reserve " << fmt("%.1f", m.reserve) << " GiB of " << fmt("%.1f", m.capacity)
        << " GiB\n";
    out << "  cost: $" << fmt("%.2f", p.usd_per_hour) << "/h on demand, $"
        << fmt("%.3f", p.usd_per_million_output_tokens)
        << (p.generation ? " per 1M output tokens" : " per 1M samples") << "; spot $"
        << fmt("%.2f", p.spot.usd_per_hour) << "/h with " << p.spot.headroom_replicas
        << " spare replica(s) ($" << fmt("%.3f", p.spot.usd_per_million_output_tokens)
        << " per 1M; a reclaim takes out " << p.spot.replicas_lost_per_reclaim << " replica(s))\n";
    if (is_known_slo(p)) out << "  SLO " << (p.meets_slo ? "met" : "missed") << "\n";
    out << "  limits: " << join(sim::serving_limit_names(p.limits)) << "\n";
    out << "  " << p.validation << "\n";
    out << "Assumptions:\n";
    for (const auto& a : p.assumptions)
        out << "  - " << a << "\n";
}

void print_serving_ranking(std::ostream& out, const std::vector<sim::ServingPlan>& ranked,
                           int top) {
    int shown = 0;
    out << "rank  instance            engine        weights tp  replicas  TTFT ms  TPOT ms  "
           "latency ms  $/h       $/1M out  SLO\n";
    for (const auto& p : ranked) {
        if (!p.valid || shown >= top) continue;
        ++shown;
        char line[256];
        std::snprintf(
            line, sizeof line, "%-5d %-19s %-13s %-7s %-3d %-9d %-8s %-8s %-11s %-9s %-9s %s\n",
            shown, p.instance.c_str(), sim::enum_name(p.engine), sim::enum_name(p.weights), p.tp,
            // Encoders and CNNs have one batch latency, no first token or token rate.
            p.replicas, fmt("%.1f", p.generation ? p.ttft_ms : sim::kUnknown).c_str(),
            fmt("%.2f", p.generation ? p.tpot_ms : sim::kUnknown).c_str(),
            fmt("%.2f", p.latency_ms).c_str(), fmt("%.2f", p.usd_per_hour).c_str(),
            fmt("%.3f", p.usd_per_million_output_tokens).c_str(), p.meets_slo ? "met" : "missed");
        out << line;
    }
    int invalid = 0;
    for (const auto& p : ranked)
        invalid += p.valid ? 0 : 1;
    if (invalid)
        out << invalid
            << " instance type(s) cannot serve this model (see --json for each reason)\n";
    if (!ranked.empty() && ranked.front().valid) {
        out << "\nBest choice:\n";
        print_serving_plan(out, ranked.front());
    }
}

nlohmann::ordered_json serving_ranking_json(const std::vector<sim::ServingPlan>& ranked, int top) {
    nlohmann::ordered_json j =
        ranked.empty() ? nlohmann::ordered_json::object() : sim::serving_plan_json(ranked.front());
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    nlohmann::ordered_json refused = nlohmann::ordered_json::array();
    int rank = 0;
    for (const auto& p : ranked) {
        if (p.valid && rank < top) list.push_back(sim::serving_choice_json(p, ++rank));
        if (!p.valid)
            refused.push_back(
                nlohmann::ordered_json{{"instance", p.instance}, {"reason", p.limits.reason}});
    }
    j["candidates"] = ranked.size();
    j["ranking"] = list;
    j["cannot_serve"] = refused;
    return j;
}

} // namespace cp::cli
