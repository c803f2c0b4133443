// Fits Transformer Engine's fused-attention rate on Hopper (te_attention.h) over validation runs.
#include "clusterplan/sim/validation_runs.h"
#include "validation/grid_search.h"

#include <cmath>
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
    // Steps of 0.01 of the peak over the published bracket, the factors refitted at each: the
    // factors scale every kernel, the rate only attention.
    return grid_argmin(TeAttention::kMinHopperFraction, TeAttention::kMaxHopperFraction, 0.01,
                       [&](double f) { return te_attention_mean_error(runs, f); });
}

} // namespace cp::sim
