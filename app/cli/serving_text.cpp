#include "serving_text.h"

#include "clusterplan/sim/format.h"
#include "clusterplan/sim/plan_interval.h"
#include "clusterplan/sim/serving_json.h"
#include "clusterplan/sim/serving_wording.h"
#include "range_text.h"
#include "text_columns.h"

#include <algorithm>
#include <ostream>
#include <string>

namespace cp::cli {

namespace {

using sim::fmt::number;
using sim::fmt::usd;

std::string join(const std::vector<std::string>& items) {
    std::string s;
    for (const auto& i : items)
        s += (s.empty() ? "" : ", ") + i;
    return s;
}

// "1 device", "8 devices".
std::string counted(int n, const std::string& noun) {
    return std::to_string(n) + " " + noun + (n == 1 ? "" : "s");
}

bool is_known_slo(const sim::ServingPlan& p) {
    return sim::is_known(p.slo.ttft_ms) || sim::is_known(p.slo.tpot_ms);
}

// "614–796 output tokens/s (80 % of comparable runs within ...)" for one figure.
template <typename Unit>
std::string ranged(double value, const sim::PredictionInterval& iv, bool rate, Unit unit) {
    return unit(value) + range_note(iv,
                                    rate ? sim::rate_range(value, iv) : sim::time_range(value, iv),
                                    unit, value);
}

// Every figure with the range its own residuals give (serving_interval.h).
void print_serving_ranges(std::ostream& out, const sim::ServingPlan& p) {
    const sim::ServingIntervals& iv = p.intervals;
    const auto per_s = [](const char* what) {
        return [what](double v) { return number(v, 0) + " " + what; };
    };
    const auto ms = [](int decimals) {
        return [decimals](double v) { return number(v, decimals) + " ms"; };
    };
    const auto dollars = [](double v) { return usd(v, 3); };
    out << "Ranges (" << iv.throughput.bucket << "):\n";
    if (p.generation) {
        out << "  output throughput "
            << ranged(p.output_tokens_per_s, iv.throughput, true, per_s("tokens/s")) << "\n";
        out << "  TTFT " << ranged(p.ttft_ms, iv.ttft, false, ms(1)) << "\n";
        out << "  TPOT " << ranged(p.tpot_ms, iv.step, false, ms(2)) << "\n";
    } else {
        out << "  throughput " << ranged(p.samples_per_s, iv.throughput, true, per_s("samples/s"))
            << "\n";
        out << "  latency " << ranged(p.latency_ms, iv.step, false, ms(2)) << "\n";
    }
    out << "  cost per 1M " << (p.generation ? "output tokens " : "samples ")
        << ranged(p.usd_per_million_output_tokens, iv.throughput, false, dollars) << "\n";
    if (!iv.throughput.validated) out << "  " << sim::kUnvalidatedLine << "\n";
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
    out << "  " << counted(p.replicas, "replica") << " on " << counted(p.nodes, "instance") << ", "
        << counted(p.devices, "device") << "\n";
    if (p.generation) {
        out << "  TTFT " << number(p.ttft_ms, 1) << " ms, TPOT " << number(p.tpot_ms, 2)
            << " ms, end to end " << number(p.e2e_latency_ms, 0) << " ms (p"
            << number(100 * p.slo.p, 0) << ")\n";
        out << "  capacity per replica: " << number(p.output_tokens_per_s, 0)
            << " output tokens/s (" << number(p.output_tokens_per_s_per_device, 0)
            << " per device), " << number(p.requests_per_s, 2) << " requests/s; running batch "
            << number(p.running_batch, 1) << ", utilisation " << sim::fmt::percent(p.utilization, 0)
            << "\n";
        if (const std::string range = sim::serving_load_range_text(p); !range.empty())
            out << "  over the capacity's range: " << range << "\n";
    } else {
        out << "  latency " << number(p.latency_ms, 2) << " ms per batch, "
            << number(p.samples_per_s, 0) << " samples/s per replica\n";
    }
    out << "  step: compute " << number(1e3 * p.step.compute_s, 2) << " ms, weights "
        << number(1e3 * p.step.weights_s, 2) << " ms, KV cache "
        << number(1e3 * p.step.kv_cache_s, 2) << " ms, TP comm "
        << number(1e3 * p.step.tp_comm_s, 2) << " ms, overhead "
        << number(1e3 * p.step.overhead_s, 2) << " ms\n";
    const auto& m = p.memory;
    // A CNN's weights (ResNet-50: 0.05 GiB) would read "0.0" at one decimal.
    const auto gib = [](double v) { return number(v, v > 0 && v < 0.95 ? 2 : 1) + " GiB"; };
    out << "  memory per device: weights " << gib(m.weights) << ", KV cache " << gib(m.kv_cache)
        << ", activations " << gib(m.activations) << ", reserve " << gib(m.reserve) << " of "
        << gib(m.capacity) << "\n";
    out << "  cost: " << usd(p.usd_per_hour, 2) << "/h on demand, "
        << usd(p.usd_per_million_output_tokens, 3)
        << (p.generation ? " per 1M output tokens" : " per 1M samples") << "; spot "
        << usd(p.spot.usd_per_hour, 2) << "/h with "
        << counted(p.spot.headroom_replicas, "spare replica") << " ("
        << usd(p.spot.usd_per_million_output_tokens, 3) << " per 1M; a reclaim takes out "
        << counted(p.spot.replicas_lost_per_reclaim, "replica") << ")\n";
    if (is_known_slo(p)) out << "  SLO " << (p.meets_slo ? "met" : "missed") << "\n";
    out << "  limits: " << join(sim::serving_limit_names(p.limits)) << "\n";
    out << "  " << p.validation << "\n";
    print_serving_ranges(out, p);
    out << "Assumptions:\n";
    for (const auto& a : p.assumptions)
        out << "  - " << a << "\n";
}

void print_serving_ranking(std::ostream& out, const std::vector<sim::ServingPlan>& ranked, int top,
                           bool spot_prices) {
    // The price columns are the purchase option the ranking compares.
    const bool generation = std::any_of(ranked.begin(), ranked.end(),
                                        [](const sim::ServingPlan& p) { return p.generation; });
    if (spot_prices)
        out << "Ranked on spot prices (cluster.pricing spot): $/h and $/1M include the spare "
               "replicas one reclaim needs; the best choice below gives on-demand figures too.\n";
    out << "rank  instance            engine        weights tp  replicas  TTFT ms  TPOT ms  "
           "latency ms  "
        << left(spot_prices ? "spot $/h" : "$/h", 10)
        << left(generation ? "$/1M out" : "$/1M smp", 10) << "SLO\n";
    bool unpriced = false;
    int shown = 0;
    for (const auto& p : ranked) {
        if (!p.valid || shown >= top) continue;
        ++shown;
        // Encoders and CNNs have one batch latency, no first token or token rate.
        const double ttft_ms = p.generation ? p.ttft_ms : sim::kUnknown;
        const double tpot_ms = p.generation ? p.tpot_ms : sim::kUnknown;
        const double per_hour = p.ranked_usd_per_hour(spot_prices);
        const double per_million =
            spot_prices ? p.spot.usd_per_million_output_tokens : p.usd_per_million_output_tokens;
        unpriced = unpriced || !sim::is_known(per_hour);
        out << left(std::to_string(shown), 6) << left(p.instance, 20)
            << left(sim::enum_name(p.engine), 14) << left(sim::enum_name(p.weights), 8)
            << left(std::to_string(p.tp), 4) << left(std::to_string(p.replicas), 10)
            << left(number(ttft_ms, 1), 9) << left(number(tpot_ms, 2), 9)
            << left(number(p.latency_ms, 2), 12) << left(number(per_hour, 2), 10)
            << left(number(per_million, 3), 10) << (p.meets_slo ? "met" : "missed") << "\n";
    }
    if (unpriced)
        out << "— in a price column: the catalog has no " << (spot_prices ? "spot" : "on-demand")
            << " price for that instance in the region (ranked after the priced ones)\n";
    int invalid = 0;
    for (const auto& p : ranked)
        invalid += p.valid ? 0 : 1;
    if (invalid) {
        out << "\n"
            << (invalid == 1 ? "1 instance type cannot"
                             : std::to_string(invalid) + " instance types cannot")
            << " serve this model:\n";
        for (const auto& p : ranked)
            if (!p.valid) out << "  " << p.instance << ": " << p.limits.reason << "\n";
    }
    if (!ranked.empty() && ranked.front().valid) {
        out << "\nBest choice:\n";
        print_serving_plan(out, ranked.front());
    }
}

nlohmann::ordered_json serving_ranking_json(const std::vector<sim::ServingPlan>& ranked, int top,
                                            bool spot_prices) {
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
    j["ranked_on"] = spot_prices ? "spot" : "on_demand";
    j["candidates"] = ranked.size();
    j["ranking"] = list;
    j["cannot_serve"] = refused;
    return j;
}

} // namespace cp::cli
