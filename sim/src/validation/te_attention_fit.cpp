// Fits Transformer Engine's fused-attention rate on Hopper (te_attention.h) over validation runs.
#include "clusterplan/sim/validation_runs.h"

#include <cmath>
#include <limits>
#include <map>

namespace cp::sim {

std::vector<ValidationRun> with_te_attention(std::vector<ValidationRun> runs, double fraction) {
    for (auto& run : runs)
        run.cluster.node.accelerator.te_attention.hopper_fraction = fraction;
    return runs;
}

double te_attention_mean_error(const std::vector<ValidationRun>& runs, double fraction) {
    return fitted_mean_error(with_te_attention(runs, fraction));
}

double fitted_mean_error(const std::vector<ValidationRun>& at) {
    const FactorTable factors = fit_framework_factors(at);
    // Each source weighs the same, as in the factor fit and the published accuracy table.
    std::map<std::string, std::pair<double, int>> per_source;
    for (const auto& run : at) {
        if (!run.in_fit) continue;
        const RunPrediction p = predict_run(run, &factors);
        if (!p.valid) continue;
        auto& [sum, n] = per_source[run.source];
        sum += std::abs(p.error);
        ++n;
    }
    double mean = 0;
    for (const auto& [source, e] : per_source)
        mean += e.first / e.second / static_cast<double>(per_source.size());
    return mean;
}

double fit_te_attention_fraction(const std::vector<ValidationRun>& runs) {
    // A grid over the published bracket in steps of 0.01 of the peak, each point with the
    // framework factors refitted at it: the rate and the factors are not separable in one
    // linear fit (the factors scale every kernel, the rate only attention).
    double best = TeAttention::kMaxHopperFraction,
           best_error = std::numeric_limits<double>::infinity();
    const int steps = static_cast<int>(
        std::lround((TeAttention::kMaxHopperFraction - TeAttention::kMinHopperFraction) / 0.01));
    for (int i = 0; i <= steps; ++i) {
        const double f = TeAttention::kMinHopperFraction + 0.01 * i;
        const double e = te_attention_mean_error(runs, f);
        if (e < best_error) {
            best_error = e;
            best = f;
        }
    }
    return best;
}

} // namespace cp::sim
