// What a recommendation report shows, gathered once from the planner and the catalog (Qt-free;
// app/report lays it out and renders it). Every per-plan number lives in `plans[i]`, which is
// exactly the document `clusterplan simulate --json` prints for that plan (same planner, same
// serialiser), so the report can never disagree with the CLI.
#pragma once

#include "clusterplan/catalog/catalog.h"
#include "clusterplan/sim/scenario.h"
#include "clusterplan/sim/search.h"
#include "clusterplan/sim/serving_plan.h"

#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

// The report's data model: in namespace report (it is what a report shows), defined here so that
// gathering it needs no Qt.
namespace cp::report {

struct PriceSource {
    std::string instance_type;
    std::string region;
    std::string kind;        // "on_demand" | "spot"
    double usd_per_hour = 0; // NaN = unknown
    std::string as_of;       // ISO 8601
    double age_days = 0;     // NaN = unknown
    std::string source;
    std::string note;
    bool used = false; // the hourly price the ranked plans of this instance are costed at
};

// Best plan found for one parallel strategy at one device count (scaling charts).
struct ScalingPoint {
    std::string strategy; // "Data parallel", "Model parallel (TP/PP)", "3D (best)"
    int devices = 0;
    double throughput = 0; // tokens/s (samples/s for generic models)
    double efficiency = 0; // scaling efficiency 0..1, DESIGN.md definition
};

struct CostTimePoint {
    double time_to_train_h = 0;
    double cost_usd = 0;
    bool on_front = false; // on the time-vs-cost Pareto front
    int rank = 0;          // 1-based rank when the option is one of `plans`, else 0
    std::string label{};   // front points: "16× p4d.24xlarge spot", drawn beside the point
};

// Page 1 shows how old the prices behind the plans are: in amber past kPriceAgeCautionDays (the
// spot statistic and the Spot Advisor data describe the last 30 days, so an older spot price is
// outside the window it claims), in red past kPriceAgeAlertDays (AWS revises on-demand, Savings
// Plan and Capacity Block rates several times a year; a quarter-old rate may be superseded).
inline constexpr double kPriceAgeCautionDays = 30;
inline constexpr double kPriceAgeAlertDays = 90;

// The oldest price the ranked plans are costed at (NaN days: no catalog price was used).
struct PriceAge {
    double days = std::numeric_limits<double>::quiet_NaN();
    std::string as_of;
    std::string instance_type;
    std::string kind; // "on_demand" | "spot"
};

// A serving scenario's report: the ranked deployments (as `serve` ranks them) and how many
// instance types were tried. Their reasons for not serving are in ReportData::excluded.
struct ServingReport {
    std::vector<sim::ServingPlan> ranked; // deployments that run, best first (top N)
    int candidates = 0;                   // instance types planned
    int meeting_slo = 0;                  // of all candidates, not only the top N
    bool spot = false;                    // ranked on spot prices
};

struct ReportData {
    std::string title;            // usually the scenario name
    std::string generated_at_utc; // ISO 8601, e.g. "2026-11-22T03:10:00Z"
    sim::Scenario scenario;       // the resolved scenario the plans answer
    std::vector<nlohmann::ordered_json>
        plans; // ranked best first; each a `simulate --json` document
    // The planner's words for plans[i]: why it wins / how it compares, and what limits it.
    std::vector<std::vector<std::string>> reasons;
    std::vector<std::vector<std::string>> limits;
    std::vector<CostTimePoint>
        cost_time; // options (wall time incl. tuning, spot expected), thinned
    std::vector<ScalingPoint> scaling;
    std::string throughput_unit = "tokens/s";
    std::vector<PriceSource> prices; // prices of the instance types in `plans`
    PriceAge price_age;              // of the oldest price in `prices` that is used
    std::vector<std::pair<std::string, std::string>> calibration; // provenance rows
    std::vector<std::string> assumptions;
    std::vector<std::string> caveats;
    // The planner's own summary lines (deadline, budget, unpriced options); also in caveats.
    std::vector<std::string> planner_summary;
    // Instance types that produced no plan, grouped by the planner's reason.
    std::vector<std::pair<std::string, std::vector<std::string>>> excluded;
    std::uint64_t evaluated = 0; // plans the search evaluated
    double search_s = 0;         // its wall time
    // Set for a serving scenario (then `plans`, `cost_time` and `scaling` stay empty).
    std::optional<ServingReport> serving;
};

} // namespace cp::report

namespace cp::service {

// Runs the same search as `clusterplan recommend` (a serving scenario: the same ranking as
// `clusterplan serve`) and collects the top `top_n` plans (each
// as its simulate --json document), the Pareto front, scaling curves, catalog prices with
// dates and sources, calibration provenance, assumptions and caveats. `options` carries
// threads, cancel flag and progress callback for the sweep. Throws sim::ScenarioError or
// InputError (unknown instance, calibration profile ...) with one sentence.
report::ReportData build_report_data(const sim::Scenario& scenario, catalog::Catalog& catalog,
                                     int top_n, const sim::SweepOptions& options = {});

} // namespace cp::service
