// Chart specs of measured hardware: collective bus bandwidth against message size, GEMM
// TFLOP/s per precision (achieved against the datasheet peak), and a job's measured steps
// against the planner's prediction before and after calibrating on them.
#pragma once

#include "chart_spec.h"

#include <QString>
#include <vector>

namespace cp::charts {

struct BandwidthSeries {
    QString label;             // "all_reduce · 8 ranks"
    std::vector<double> bytes; // message sizes
    std::vector<double> busbw_gbytes_per_s;
    // What the α–β fit the planner would use predicts at the same sizes (empty: not drawn).
    std::vector<double> fitted_busbw_gbytes_per_s;
};

// Measured bus bandwidth per collective; where given, the fit's prediction beside it as a dashed
// line of the same colour (measured against predicted per message size).
ChartSpec busbw_spec(const std::vector<BandwidthSeries>& series);

struct GemmBar {
    QString precision;          // "bf16"
    double achieved_tflops = 0; // best measured
    double peak_tflops = 0;     // datasheet dense peak, NaN when unknown
};

// `source` (may be empty) names where the measurements come from (file, host, date); it is
// shown under the title so a chart never passes off example data as this cluster's.
ChartSpec gemm_spec(const std::vector<GemmBar>& bars, const QString& source = QString());

// One imported job log: every step's time against the planner's step for the same scenario,
// before and after the job's own calibration, and the calibrated plan's range.
struct JobStepsData {
    QString source;                 // the log's name, shown under the title
    std::vector<double> steps;      // step numbers, in log order
    std::vector<double> measured_s; // each step's time (rates already converted)
    int warmup_steps = 0;           // the leading steps the fit skipped (drawn muted)
    double predicted_before_s = 0;  // NaN or <= 0: not drawn
    double predicted_after_s = 0;
    double range_low_s = 0; // calibrated range; NaN or <= 0: not drawn
    double range_high_s = 0;
};

ChartSpec job_steps_spec(const JobStepsData& data);

} // namespace cp::charts
