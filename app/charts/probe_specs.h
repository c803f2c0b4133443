// Chart specs of measured hardware: collective bus bandwidth against message size, and GEMM
// TFLOP/s per precision (achieved against the datasheet peak).
#pragma once

#include "chart_spec.h"

#include <QString>
#include <vector>

namespace cp::charts {

struct BandwidthSeries {
    QString label;             // "all_reduce · 8 ranks"
    std::vector<double> bytes; // message sizes
    std::vector<double> busbw_gbytes_per_s;
};

ChartSpec busbw_spec(const std::vector<BandwidthSeries>& series);

struct GemmBar {
    QString precision;          // "bf16"
    double achieved_tflops = 0; // best measured
    double peak_tflops = 0;     // datasheet dense peak, NaN when unknown
};

// `source` (may be empty) names where the measurements come from (file, host, date); it is
// shown under the title so a chart never passes off example data as this cluster's.
ChartSpec gemm_spec(const std::vector<GemmBar>& bars, const QString& source = QString());

} // namespace cp::charts
