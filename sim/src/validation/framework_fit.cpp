// Fits the frameworks' compute efficiencies over validation runs (validation_runs.h).
#include "clusterplan/sim/validation_runs.h"

#include <Eigen/Dense>
#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <tuple>

namespace cp::sim {
namespace {

// An efficiency outside this range would mean a framework runs at under 40 % or over 250 % of
// the rates the model derives from datasheets and kernel measurements: a wrong mechanism, not a
// framework property, so the fit stops there.
constexpr double kMinEfficiency = 0.4;
constexpr double kMaxEfficiency = 2.5;

// A row linearised around x0 = 1/efficiency: predicted step time ≈ a + b·x (compute-bound parts
// scale with x, communication and bubbles of communication do not).
struct Linear {
    double a = 0, b = 0, measured_s = 0, weight = 0;
};

Linear linearise(const ValidationRun& run, const Layout& layout, double efficiency) {
    Linear l;
    const double x0 = 1.0 / efficiency, x1 = 1.25 * x0;
    const PlanResult r0 = evaluate_with_efficiency(run.workload, run.cluster, layout, run.precision,
                                                   nullptr, 1.0 / x0);
    const PlanResult r1 = evaluate_with_efficiency(run.workload, run.cluster, layout, run.precision,
                                                   nullptr, 1.0 / x1);
    // A run the memory model refuses really trained (predict_run times it all the same): its
    // time still constrains the fit.
    const auto timed = [](const PlanResult& r) {
        return r.valid() || r.limit == Limit::out_of_memory;
    };
    if (!timed(r0) || !timed(r1)) return l;
    l.b = (r1.step_time_s - r0.step_time_s) / (x1 - x0);
    l.a = r0.step_time_s - l.b * x0;
    // Throughput metrics are inversely proportional to the step time at a fixed global batch.
    const double predicted = metric_value(run.metric, r0, run.cluster.devices());
    l.measured_s = run.metric == RunMetric::step_time_s ? run.measured
                                                        : r0.step_time_s * predicted / run.measured;
    return l;
}

// Weighted least squares of the relative step-time error over x (Eigen); returns efficiency.
double solve(const std::vector<Linear>& rows) {
    Eigen::VectorXd design(static_cast<Eigen::Index>(rows.size())),
        target(static_cast<Eigen::Index>(rows.size()));
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const double s = std::sqrt(rows[i].weight) / rows[i].measured_s;
        design(static_cast<Eigen::Index>(i)) = s * rows[i].b;
        target(static_cast<Eigen::Index>(i)) = s * (rows[i].measured_s - rows[i].a);
    }
    const Eigen::MatrixXd a = design;
    const double x = a.colPivHouseholderQr().solve(target)(0);
    return std::clamp(1.0 / x, kMinEfficiency, kMaxEfficiency);
}

struct Key {
    int framework, generation, precision_class;
    bool operator<(const Key& o) const {
        return std::tie(framework, generation, precision_class) <
               std::tie(o.framework, o.generation, o.precision_class);
    }
};

} // namespace

FactorTable fit_framework_factors(const std::vector<ValidationRun>& all_runs) {
    std::vector<ValidationRun> runs;
    std::copy_if(all_runs.begin(), all_runs.end(), std::back_inserter(runs),
                 [](const ValidationRun& run) { return run.in_fit; });
    // Each source weighs the same in every cell, however many rows it published.
    std::map<std::string, int> rows_per_source;
    for (const auto& run : runs)
        ++rows_per_source[run.source];
    // Unpublished fields (micro-batch, virtual stages) are chosen once, at efficiency 1.
    const FactorTable unit{{{kAny, kAny, kAny, 1.0, 0, 0}}};
    std::vector<Layout> layouts;
    layouts.reserve(runs.size());
    for (const auto& run : runs) {
        const RunPrediction p = predict_run(run, &unit);
        layouts.push_back(p.valid ? p.layout : run.layout);
    }
    const auto keys_of = [](const ValidationRun& run) {
        const int fw = static_cast<int>(factor_group(run.framework));
        const int gen = static_cast<int>(accelerator_generation(run.cluster.node.accelerator));
        const int pc = static_cast<int>(precision_class(run.precision));
        return std::array<Key, 4>{Key{kAny, kAny, kAny}, Key{fw, kAny, kAny}, Key{fw, gen, kAny},
                                  Key{fw, gen, pc}};
    };
    // The cells, most pooled first: a cell starts from its parent's fit.
    FactorTable table;
    for (std::size_t level = 0; level < 4; ++level) {
        std::map<Key, std::vector<std::size_t>> members;
        for (std::size_t i = 0; i < runs.size(); ++i)
            members[keys_of(runs[i])[level]].push_back(i);
        for (const auto& [key, idx] : members) {
            const ValidationRun& any = runs[idx.front()];
            double efficiency =
                level == 0 ? 1.0
                           : table
                                 .lookup(any.framework,
                                         accelerator_generation(any.cluster.node.accelerator),
                                         any.precision)
                                 .efficiency;
            std::set<std::string> sources;
            for (std::size_t i : idx)
                sources.insert(runs[i].source);
            for (int pass = 0; pass < 3; ++pass) {
                std::vector<Linear> rows;
                for (std::size_t i : idx) {
                    Linear l = linearise(runs[i], layouts[i], efficiency);
                    if (!(l.measured_s > 0) || !(l.b > 0)) continue;
                    l.weight = 1.0 / rows_per_source[runs[i].source];
                    rows.push_back(l);
                }
                if (rows.empty()) break;
                efficiency = solve(rows);
            }
            table.cells.push_back({key.framework, key.generation, key.precision_class, efficiency,
                                   static_cast<int>(idx.size()), static_cast<int>(sources.size())});
        }
    }
    return table;
}

} // namespace cp::sim
