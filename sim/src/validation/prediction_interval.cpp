// Prediction intervals from leave-one-source-out validation residuals (prediction_interval.h).
#include "clusterplan/sim/prediction_interval.h"

#include "clusterplan/sim/validation_runs.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace cp::sim {
namespace {

// "Type 7" quantile (linear between order statistics) of sorted values.
double quantile(const std::vector<double>& sorted, double q) {
    const double pos = q * static_cast<double>(sorted.size() - 1);
    const auto lo = static_cast<std::size_t>(std::floor(pos));
    const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
    return sorted[lo] + (pos - static_cast<double>(lo)) * (sorted[hi] - sorted[lo]);
}

// measured / predicted step time from a row's signed error in its own metric.
double time_ratio(RunMetric metric, double error) {
    return metric == RunMetric::step_time_s ? 1.0 / (1.0 + error) : 1.0 + error;
}

std::string bucket_name(std::string_view family, AcceleratorGeneration generation) {
    return std::string(family) + " / " + std::string(enum_name(generation));
}

} // namespace

std::string_view enum_name(IntervalBasis basis) {
    switch (basis) {
    case IntervalBasis::published_runs:
        return "published_runs";
    case IntervalBasis::job_log:
        return "job_log";
    case IntervalBasis::unvalidated:
        return "unvalidated";
    }
    return "unvalidated";
}

PredictionInterval interval_from_buckets(const std::vector<ResidualBucket>& buckets,
                                         std::string_view family,
                                         AcceleratorGeneration generation) {
    PredictionInterval out;
    out.bucket = bucket_name(family, generation);
    double worst_low = 1.0, worst_high = 1.0;
    const ResidualBucket* match = nullptr;
    for (const ResidualBucket& b : buckets) {
        worst_low = std::min(worst_low, b.ratio_min);
        worst_high = std::max(worst_high, b.ratio_max);
        if (b.family == family && b.generation == generation) match = &b;
    }
    if (match) {
        out.runs = match->runs;
        out.sources = match->sources;
    }
    out.validated =
        match && match->runs >= kMinValidatingRuns && match->sources >= kMinValidatingSources;
    out.basis = out.validated ? IntervalBasis::published_runs : IntervalBasis::unvalidated;
    out.low_factor = out.validated ? match->ratio_p10 : worst_low;
    out.high_factor = out.validated ? match->ratio_p90 : worst_high;
    return out;
}

PredictionInterval prediction_interval(Framework framework, AcceleratorGeneration generation) {
    return interval_from_buckets(residual_buckets(), framework_profile(framework).family,
                                 generation);
}

ResidualBucket make_residual_bucket(std::string_view family, AcceleratorGeneration generation,
                                    std::vector<double> ratios, int sources) {
    std::sort(ratios.begin(), ratios.end());
    ResidualBucket b;
    b.family = family;
    b.generation = generation;
    b.runs = static_cast<int>(ratios.size());
    b.sources = sources;
    if (ratios.empty()) return b;
    b.ratio_p10 = quantile(ratios, 0.1);
    b.ratio_p90 = quantile(ratios, 0.9);
    b.ratio_min = ratios.front();
    b.ratio_max = ratios.back();
    return b;
}

std::vector<ResidualBucket> compute_residual_buckets(const std::vector<ValidationRun>& runs) {
    std::set<std::string> sources;
    for (const ValidationRun& r : runs)
        sources.insert(r.source);
    struct Acc {
        std::vector<double> ratios;
        std::set<std::string> sources;
    };
    std::map<std::pair<std::string_view, AcceleratorGeneration>, Acc> acc;
    for (const std::string& source : sources) {
        std::vector<ValidationRun> others;
        for (const ValidationRun& r : runs)
            if (r.source != source) others.push_back(r);
        const FactorTable without = fit_framework_factors(others);
        for (const ValidationRun& r : runs) {
            if (r.source != source) continue;
            const RunPrediction p = predict_run(r, &without);
            if (!p.valid) continue;
            const auto key = std::make_pair(framework_profile(r.framework).family,
                                            accelerator_generation(r.cluster.node.accelerator));
            acc[key].ratios.push_back(time_ratio(r.metric, p.error));
            acc[key].sources.insert(r.source);
        }
    }
    std::vector<ResidualBucket> out;
    for (auto& [key, a] : acc)
        out.push_back(make_residual_bucket(key.first, key.second, std::move(a.ratios),
                                           static_cast<int>(a.sources.size())));
    return out;
}

} // namespace cp::sim
