// The range one plan's headline figures carry (step time, throughput, time to train, cost):
// the prediction interval of its framework family and accelerator generation, or, for a plan
// calibrated on the user's own job logs, the logs' own spread, with the part of the step the logs
// did not measure keeping the bucket's range.
#pragma once

#include "clusterplan/sim/calibration_profile.h"
#include "clusterplan/sim/hardware.h"
#include "clusterplan/sim/plan.h"
#include "clusterplan/sim/prediction_interval.h"
#include "clusterplan/sim/result.h"

#include <string>

namespace cp::sim {

// `result` is the plan as evaluated (with `calibration` applied where it matched the hardware);
// `layout` names the framework (automatic is resolved for `accelerator`).
PredictionInterval plan_interval(const PlanResult& result, const Layout& layout,
                                 const AcceleratorSpec& accelerator,
                                 const CalibrationProfile* calibration);

struct FigureRange {
    double low = 0;
    double high = 0;
};

// A time-like figure (step time, time to train, cost) scales with the measured/predicted ratio;
// a rate (throughput) with its inverse. Unknown values give unknown ends.
FigureRange time_range(double value, const PredictionInterval& interval);
FigureRange rate_range(double value, const PredictionInterval& interval);

// Whether two ranges leave room for either plan to be the better one.
bool ranges_overlap(const FigureRange& a, const FigureRange& b);

// The words after a figure: "80 % of comparable runs within 41–58 s", given the ends already
// formatted; for a job-calibrated plan "80 % range from your job log: ..."; for an unvalidated
// one "unvalidated: the model's error on any measured run spans ...".
std::string range_phrase(const PredictionInterval& interval, const std::string& low,
                         const std::string& high);

} // namespace cp::sim
