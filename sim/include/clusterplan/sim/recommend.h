// Ranking of sweep results by the scenario's objective (cost, time, cost under a deadline, time
// under a budget), the Pareto front of wall time vs cost, and a plain-words explanation of each
// choice: why it wins and what limits it (memory, pipeline bubble, network, spot risk).
#pragma once

#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/search.h"

#include <string>
#include <vector>

namespace cp::sim {

// One way to buy a configuration: its fastest layout on demand or on spot.
struct PlanOption {
    int config = 0; // index into SweepResult::configs
    bool spot = false;
    double wall_time_h = 0;                      // whole job incl. tuning trials (spot: expected)
    double cost_usd = kUnknown;                  // whole job incl. tuning trials (spot: expected)
    PurchaseKind kind = PurchaseKind::on_demand; // spot == (kind == spot)
};

struct Ranking {
    std::vector<PlanOption> sorted; // every option meeting the constraints, best first
    // Best first, at most top_n, one per (instance type, on demand / spot) so the choices differ.
    std::vector<PlanOption> ranked;
    std::vector<PlanOption> pareto; // fastest first; each faster option costs more
    int options_considered = 0;
    int excluded_deadline = 0;
    int excluded_budget = 0;
    int excluded_no_price = 0;
    std::string objective_text; // "lowest cost" ...
    // When no option meets the constraints (sorted is empty): the one that came closest, or why
    // there was none, in one sentence (the CLI's exit code 3 message).
    std::string nearest_miss;
};

// Options of every configuration (on demand unless pricing is spot; spot when allowed and priced),
// filtered by deadline and budget, sorted by the objective with deterministic tie-breaks.
Ranking rank_options(const Scenario& scenario, const SweepResult& sweep, int top_n);

struct Recommendation {
    int rank = 0; // 1-based
    PlanReport report;
    std::vector<std::string> reasons; // why it wins / how it compares
    std::vector<std::string> limits;  // what limits it
};

struct RecommendResult {
    SweepResult sweep;
    Ranking ranking;
    std::vector<Recommendation> recommendations;
    std::vector<PlanReport> pareto;   // full reports of the Pareto front
    std::vector<std::string> summary; // sentences about what was excluded and why
};

// Full recommendation: sweep, rank, and explain the top `top_n`.
RecommendResult recommend(const Scenario& scenario, std::vector<NodeSpec> candidates,
                          const CalibrationProfile* calibration, int top_n,
                          const SweepOptions& options);

// Report for one ranked option (used by recommend and by the GUI for a selected point).
PlanReport option_report(const Scenario& scenario, const SweepResult& sweep,
                         const PlanOption& option, const CalibrationProfile* calibration,
                         const ScalingBaseline* baseline = nullptr);

// Why no plan of an instance made it (memory, unknown figures ...), one sentence.
std::string why_nothing_fits(const CandidateSummary& summary, const NodeSpec& node,
                             const Scenario& scenario);

// "N options have no known price", with what to set when the scenario's own hardware has none.
std::string no_price_sentence(const Scenario& scenario, int options);

// "what limits it" sentences for one plan.
std::vector<std::string> explain_limits(const PlanReport& report);

} // namespace cp::sim
