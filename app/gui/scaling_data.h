// Background computation behind the Scaling page: for each chosen instance and device count, the
// best plan of each layout family (data-, tensor-, pipeline-parallel, best 3D:
// sim::scaling_curves), every plan's time and cost for the Pareto scatter, and the ranked
// recommendations. Runs on a worker thread.
#pragma once

#include "charts/scaling_charts.h"
#include "clusterplan/sim/calibration_profile.h"
#include "clusterplan/sim/hardware.h"
#include "clusterplan/sim/plan.h"
#include "clusterplan/sim/scenario.h"

#include <QString>
#include <QStringList>
#include <atomic>
#include <functional>
#include <optional>
#include <vector>

namespace cp::gui {

enum class LayoutFamily { data, tensor, pipeline, three_d };
QString family_label(LayoutFamily family);
// Legend of a family's scaling line (the 3D line is the best of every layout).
QString series_label(LayoutFamily family);

struct SweepPlan {
    QString instance;
    int nodes = 0;
    int devices = 0;
    sim::Layout layout;
    LayoutFamily family = LayoutFamily::data;
    double step_time_s = 0;
    double tokens_per_s = 0;
    double mfu = 0;
    double time_to_train_h = 0;
    double cost_usd = 0;      // on demand (NaN: price unknown)
    double spot_cost_usd = 0; // expected (NaN: no spot price)
    double spot_time_h = 0;
    bool spot = false;          // ranked/front entries: bought on spot
    double wall_time_h = 0;     // ranked/front entries: for the purchase option (expected)
    double option_cost_usd = 0; // ranked/front entries: for the purchase option (expected)
};

struct ScalingData {
    std::vector<charts::ScalingSeries> series; // one per (family, instance)
    std::vector<SweepPlan> plans;              // fastest layout per (instance, nodes), on demand
    std::vector<SweepPlan> front;              // time-vs-cost Pareto front (sim::rank_options)
    std::vector<SweepPlan> ranked;             // best first under objective and constraints
    QString objective;                         // "lowest cost" ...
    QStringList excluded;                      // why options were left out
    std::uint64_t evaluated = 0;               // evaluate() calls
    double seconds = 0;
    bool cancelled = false;
    QString error;
};

struct ScalingRequest {
    sim::Scenario scenario;           // parallel fields are searched
    std::vector<sim::NodeSpec> nodes; // instance types to compare
    int max_nodes = 64;
    std::optional<sim::CalibrationProfile> calibration; // none: datasheet values
};

// `progress(done, total)` is called from the worker; `cancel` is polled between device counts.
ScalingData compute_scaling(const ScalingRequest& request, const std::atomic<bool>& cancel,
                            const std::function<void(int, int)>& progress);

// A scenario that runs `plan` (for "open in Plan").
sim::Scenario scenario_for(const sim::Scenario& base, const SweepPlan& plan);

} // namespace cp::gui
