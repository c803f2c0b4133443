// Charts of measured hardware: collective bus bandwidth vs message size and GEMM TFLOP/s by
// precision (achieved against datasheet peak).
#pragma once

#include <QString>
#include <vector>

class QChart;

namespace cp::gui::charts {

struct BandwidthSeries {
    QString label;             // "all_reduce · 8 ranks"
    std::vector<double> bytes; // message sizes
    std::vector<double> busbw_gbytes_per_s;
};

QChart* busbw_chart(const std::vector<BandwidthSeries>& series);

struct GemmBar {
    QString precision;          // "bf16"
    double achieved_tflops = 0; // best measured
    double peak_tflops = 0;     // datasheet dense peak, NaN when unknown
};

// `source` (may be empty) names where the measurements come from (file, host, date); it is
// shown under the title so a chart never passes off example data as this cluster's.
QChart* gemm_chart(const std::vector<GemmBar>& bars, const QString& source = QString());

} // namespace cp::gui::charts
