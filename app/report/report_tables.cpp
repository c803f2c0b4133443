// The ranked plans as data: CSV (spreadsheets) and JSON (scripts). Values are copied from
// each plan's simulate --json document, never recomputed.
#include "clusterplan/sim/io/csv_cell.h"
#include "clusterplan/sim/serving_json.h"
#include "plan_fields.h"
#include "report_data.h"
#include "report_format.h"

#include <cmath>
#include <string_view>

namespace cp::report {
namespace {

using sim::io::csv_cell; // RFC 4180 quoting, formulas neutralised

// The value at a dotted path of a plan document ("memory_gib.total"); null when missing.
const nlohmann::ordered_json* at_path(const nlohmann::ordered_json& doc,
                                      std::string_view dotted_path) {
    const nlohmann::ordered_json* node = &doc;
    while (!dotted_path.empty()) {
        const size_t dot = dotted_path.find('.');
        const std::string key(dotted_path.substr(0, dot));
        if (!node->is_object()) return nullptr;
        auto it = node->find(key);
        if (it == node->end()) return nullptr;
        node = &*it;
        dotted_path =
            dot == std::string_view::npos ? std::string_view() : dotted_path.substr(dot + 1);
    }
    return node;
}

// A JSON scalar as it appears in the JSON output (shortest round-trip number), empty when
// missing or null: CSV readers then get exactly the simulate --json value.
std::string scalar(const nlohmann::ordered_json& plan, std::string_view path) {
    const nlohmann::ordered_json* v = at_path(plan, path);
    if (v == nullptr || v->is_null() || v->is_structured()) return {};
    if (v->is_string()) return v->get<std::string>();
    return v->dump();
}

constexpr std::string_view kColumns[] = {
    "step_time_s",
    "tokens_per_s",
    "samples_per_s",
    "mfu",
    "model_tflops_per_device",
    "hardware_tflops_per_device",
    "scaling_efficiency",
    "time_to_train_h",
    "cost_usd",
    "cost_spot_usd",
    "spot_expected_interruptions",
    "memory_gib.total",
    "memory_gib.capacity",
    "fits_in_memory",
    "layout.tp",
    "layout.pp",
    "layout.dp",
    "layout.micro_batch",
    "layout.zero",
    "layout.recompute",
    "layout.virtual_stages",
    // Appended later (columns are only ever added at the end): which purchase option the
    // row is ranked on, the spot wall time, whole tuning-job figures and the hourly prices.
    "purchase",
    "spot.wall_time_h",
    "tuning.trials",
    "tuning.wall_time_h",
    "tuning.cost_usd",
    "tuning.spot_wall_time_h",
    "tuning.spot_cost_usd",
    "prices.usd_per_node_hour",
    "prices.usd_per_node_hour_spot",
};

// A serving report's columns: the `serve --json` fields a spreadsheet compares deployments on.
constexpr std::string_view kServingColumns[] = {
    "engine",
    "weights",
    "kv_cache",
    "tp",
    "pp",
    "batch",
    "replicas",
    "ttft_ms",
    "tpot_ms",
    "e2e_latency_ms",
    "latency_ms",
    "output_tokens_per_s",
    "samples_per_s",
    "requests_per_s",
    "utilization",
    "meets_slo",
    "usd_per_hour",
    "usd_per_million_output_tokens",
    "spot.usd_per_hour",
    "spot.usd_per_million_output_tokens",
    "spot.headroom_replicas",
    "memory_gib.weights",
    "memory_gib.kv_cache",
    "memory_gib.capacity",
};

std::vector<nlohmann::ordered_json> serving_documents(const ReportData& data) {
    std::vector<nlohmann::ordered_json> out;
    for (const auto& p : data.serving->ranked)
        out.push_back(sim::serving_plan_json(p));
    return out;
}

std::string serving_csv(const ReportData& data) {
    std::string out = "rank,instance,nodes,devices";
    for (auto column : kServingColumns) {
        out += ',';
        out += column;
    }
    out += "\r\n";
    const auto docs = serving_documents(data);
    for (size_t i = 0; i < docs.size(); ++i) {
        const auto& p = data.serving->ranked[i];
        out += std::to_string(i + 1) + ',' + csv_cell(p.instance) + ',' + std::to_string(p.nodes) +
               ',' + std::to_string(p.devices);
        for (auto column : kServingColumns) {
            out += ',';
            out += csv_cell(scalar(docs[i], column));
        }
        out += "\r\n";
    }
    return out;
}

} // namespace

std::string plans_csv(const ReportData& data) {
    if (data.serving) return serving_csv(data);
    std::string out = "rank,instance,nodes,devices";
    for (auto column : kColumns) {
        out += ',';
        out += column;
    }
    out += "\r\n";
    const std::vector<sim::PlanReport> plans = report_plans(data);
    for (size_t i = 0; i < plans.size(); ++i) {
        out += std::to_string(i + 1) + ',' + csv_cell(plans[i].instance) + ',' +
               std::to_string(plans[i].nodes) + ',' + std::to_string(plans[i].devices);
        for (auto column : kColumns) {
            out += ',';
            out += csv_cell(scalar(data.plans[i], column));
        }
        out += "\r\n";
    }
    return out;
}

nlohmann::ordered_json plans_json(const ReportData& data) {
    nlohmann::ordered_json out;
    out["schema"] = "clusterplan.report/1";
    out["title"] = data.title;
    out["generated_at"] = data.generated_at_utc;
    out["scenario"] = nlohmann::ordered_json::parse(sim::scenario_to_json(data.scenario));
    out["evaluated"] = data.evaluated;
    out["plans"] = nlohmann::ordered_json::array();
    // A serving report lists its deployments as `serve --json` documents.
    const std::vector<nlohmann::ordered_json> plans =
        data.serving ? serving_documents(data) : data.plans;
    for (size_t i = 0; i < plans.size(); ++i) {
        nlohmann::ordered_json plan = plans[i];
        plan["rank"] = i + 1;
        out["plans"].push_back(std::move(plan));
    }
    nlohmann::ordered_json prices = nlohmann::ordered_json::array();
    for (const auto& p : data.prices) {
        prices.push_back(
            {{"instance", p.instance_type},
             {"region", p.region},
             {"kind", p.kind},
             {"usd_per_hour", std::isfinite(p.usd_per_hour) ? nlohmann::ordered_json(p.usd_per_hour)
                                                            : nlohmann::ordered_json()},
             {"as_of", p.as_of},
             {"source", p.source}});
    }
    out["prices"] = prices;
    nlohmann::ordered_json calibration = nlohmann::ordered_json::object();
    for (const auto& [k, v] : data.calibration)
        calibration[k] = v;
    out["calibration"] = calibration;
    out["assumptions"] = data.assumptions;
    out["caveats"] = data.caveats;
    return out;
}

} // namespace cp::report
