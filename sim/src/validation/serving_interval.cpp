// Serving prediction intervals (serving_interval.h) on the shared interval rule.
#include "clusterplan/sim/serving_interval.h"

#include <array>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <tuple>

namespace cp::sim {

const char* enum_name(ServingFigure figure) {
    switch (figure) {
    case ServingFigure::throughput:
        return "throughput";
    case ServingFigure::ttft:
        return "ttft";
    case ServingFigure::step:
        return "step";
    }
    return "throughput";
}

ServingFigure serving_figure(ServingMetric metric) {
    switch (metric) {
    case ServingMetric::output_tokens_per_s:
    case ServingMetric::samples_per_s:
        return ServingFigure::throughput;
    case ServingMetric::ttft_ms:
        return ServingFigure::ttft;
    case ServingMetric::tpot_ms:
    case ServingMetric::latency_ms:
        return ServingFigure::step;
    }
    return ServingFigure::throughput;
}

std::string_view serving_bucket_family(ServingEngine engine, bool moe) {
    static const std::array<std::string, kServingEngineCount> moe_names = [] {
        std::array<std::string, kServingEngineCount> names;
        for (int i = 0; i < kServingEngineCount; ++i)
            names[static_cast<std::size_t>(i)] =
                std::string(enum_name(static_cast<ServingEngine>(i))) + " moe";
        return names;
    }();
    if (!moe) return enum_name(engine);
    return moe_names[static_cast<std::size_t>(engine)];
}

bool routes_experts(const Workload& w) {
    return w.kind == WorkloadKind::transformer && w.shape.moe.enabled();
}

ServingIntervals serving_intervals(ServingEngine engine, AcceleratorGeneration generation,
                                   bool moe) {
    const std::string_view family = serving_bucket_family(engine, moe);
    return {
        interval_from_buckets(serving_residual_buckets(ServingFigure::throughput), family,
                              generation),
        interval_from_buckets(serving_residual_buckets(ServingFigure::ttft), family, generation),
        interval_from_buckets(serving_residual_buckets(ServingFigure::step), family, generation)};
}

std::vector<ResidualBucket>
compute_serving_residual_buckets(const std::vector<ServingRunCheck>& checks,
                                 const NodeResolver& resolve, ServingFigure figure) {
    struct Acc {
        std::vector<double> ratios;
        std::set<std::string> sources;
    };
    std::map<std::tuple<ServingEngine, bool, AcceleratorGeneration>, Acc> acc;
    for (const ServingRunCheck& c : checks) {
        const ServingRun& run = *c.run;
        if (serving_figure(run.metric) != figure || run.range_only) continue;
        if (!is_known(c.predicted_left_out) || !(c.predicted_left_out > 0)) continue;
        const auto node = resolve(run.instance);
        if (!node) continue;
        const double ratio = figure == ServingFigure::throughput ? c.predicted_left_out / run.value
                                                                 : run.value / c.predicted_left_out;
        Acc& a = acc[{run.engine, routes_experts(run.workload),
                      accelerator_generation(node->accelerator)}];
        a.ratios.push_back(ratio);
        a.sources.insert(run.source);
    }
    std::vector<ResidualBucket> out;
    for (auto& [key, a] : acc)
        out.push_back(make_residual_bucket(
            serving_bucket_family(std::get<0>(key), std::get<1>(key)), std::get<2>(key),
            std::move(a.ratios), static_cast<int>(a.sources.size())));
    return out;
}

} // namespace cp::sim
