// Ranking against the prediction intervals (recommend_noise.h).
#include "planning/recommend_noise.h"

#include "clusterplan/sim/format.h"
#include "clusterplan/sim/plan_interval.h"
#include "clusterplan/sim/wording.h"

#include <cmath>
#include <string>

namespace cp::sim {
namespace {

struct Ranged {
    FigureRange range;
    const PredictionInterval* interval = nullptr;
};

// The objective's figure of a ranked option (whole job: cost or wall time) with its range.
Ranged ranged(const Scenario& sc, const SweepResult& sw, const PlanOption& o) {
    const PredictionInterval& iv = sw.configs[static_cast<std::size_t>(o.config)].interval;
    const bool cost = sc.constraints.objective == Objective::cost ||
                      sc.constraints.objective == Objective::cost_under_deadline;
    return {time_range(cost ? o.cost_usd : o.wall_time_h, iv), &iv};
}

std::string span(const Scenario& sc, const FigureRange& r) {
    const bool cost = sc.constraints.objective == Objective::cost ||
                      sc.constraints.objective == Objective::cost_under_deadline;
    if (cost) return fmt::usd_short(r.low) + "–" + fmt::usd_short(r.high);
    return format_duration_s(r.low * 3600.0) + "–" + format_duration_s(r.high * 3600.0);
}

// Plans of one bucket share the model's error there (the same framework's efficiency on the same
// hardware generation), so their order holds even where their ranges overlap; across buckets the
// errors are independent and overlapping ranges leave the order open.
bool shared_error(const PredictionInterval& a, const PredictionInterval& b) {
    return a.validated && b.validated && a.basis == b.basis && a.bucket == b.bucket;
}

} // namespace

void add_interval_notes(const Scenario& sc, RecommendResult& res) {
    const Ranking& rk = res.ranking;
    for (Recommendation& rec : res.recommendations)
        if (!rec.report.interval.validated) rec.limits.emplace_back(kUnvalidatedLine);
    if (rk.ranked.size() < 2 || res.recommendations.size() < 2) return;
    const Ranged top = ranged(sc, res.sweep, rk.ranked[0]);
    const std::string share = std::to_string(std::lround(top.interval->confidence * 100)) + " %";
    for (std::size_t i = 1; i < rk.ranked.size() && i < res.recommendations.size(); ++i) {
        const Ranged other = ranged(sc, res.sweep, rk.ranked[i]);
        if (!is_known(top.range.low) || !is_known(other.range.low)) continue;
        const std::string ranges = "#1 " + span(sc, top.range) + " against #" +
                                   std::to_string(i + 1) + " " + span(sc, other.range) + " (" +
                                   share + " ranges)";
        const bool apart = !ranges_overlap(top.range, other.range);
        const bool together = !apart && shared_error(*top.interval, *other.interval);
        const std::string line =
            apart ? "#1 stays ahead of #" + std::to_string(i + 1) +
                        " beyond the model's noise: " + ranges
            : together
                ? "ranges overlap (" + ranges + "), but both plans are " + top.interval->bucket +
                      ", whose model error moves them together: the order holds"
                : "the ranking of #1 over #" + std::to_string(i + 1) +
                      " is within the noise: " + ranges + " overlap";
        res.recommendations[i].reasons.push_back(line);
        if (i != 1) continue;
        res.recommendations[0].reasons.push_back(line);
        if (!apart && !together) res.summary.push_back(line);
    }
}

} // namespace cp::sim
