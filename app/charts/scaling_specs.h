// Chart specs of a scaling study: throughput, scaling efficiency and cost against devices per
// layout family, and time to train against cost of every plan (the Pareto front). The GUI's
// Scaling page and the report build them from their results and draw what these return.
#pragma once

#include "chart_spec.h"

#include <QString>
#include <cmath>
#include <vector>

namespace cp::charts {

struct ScalingPoint {
    int devices = 0;
    double tokens_per_s = 0;       // throughput (samples/s for generic models)
    double scaling_efficiency = 0; // fraction of linear scaling (DESIGN.md definition)
    double cost_usd = 0;           // cost of the whole training run (NaN: unknown)
};

struct ScalingSeries {
    QString label;                    // "Data parallel · p4d.24xlarge"
    std::vector<ScalingPoint> points; // ascending devices
    bool dashed = false;              // an envelope drawn over the curve it coincides with
};

enum class ScalingMetric { throughput, efficiency, cost };

// One line per series against devices (log scale). Without `legend` the caller shows one
// legend for several charts. An efficiency chart whose values pass 100 % says why.
ChartSpec scaling_spec(const std::vector<ScalingSeries>& series, ScalingMetric metric,
                       const QString& throughput_unit = QStringLiteral("tokens/s"),
                       bool legend = true);

struct ParetoPoint {
    double time_h = 0;
    double cost_usd = 0;
    bool on_front = false; // no other plan is both faster and cheaper
    QString label;         // tooltip text (GUI)
    int index = -1;        // caller's id, returned on click
    int rank = 0;          // 1 = the recommendation, 2.. = runners-up, 0 = not ranked
    QString tag{};         // short text drawn beside a front point ("4× p4d.24xlarge")
};

// Limits drawn as reference lines; NaN = none.
struct ParetoLimits {
    double deadline_h = std::nan("");
    double budget_usd = std::nan("");
};

// Every plan's time to train against its cost: the cloud of plans, the Pareto front (joined
// and labelled), the ranked plans ("#1", "#2" ...), and the deadline and budget.
ChartSpec pareto_spec(const std::vector<ParetoPoint>& points, const ParetoLimits& limits = {});

// A log axis over less than about a decade shows one or two ticks at most: such an axis is
// drawn linear instead, and its title loses the "log scale" note.
void log_only_where_wide(ChartSpec& chart);

} // namespace cp::charts
