#include "probe_specs.h"

#include <QObject>
#include <cmath>

namespace cp::charts {

ChartSpec busbw_spec(const std::vector<BandwidthSeries>& series) {
    ChartSpec c;
    c.title = QObject::tr("Collective bus bandwidth vs message size");
    c.x_label = QObject::tr("message size (log scale)");
    c.y_label = QObject::tr("bus bandwidth (GB/s)");
    c.log_x = true;
    c.x_ticks = TickStyle::bytes;
    for (const BandwidthSeries& s : series) {
        ChartSeries line;
        line.name = s.label;
        line.line = true;
        for (size_t i = 0; i < s.bytes.size() && i < s.busbw_gbytes_per_s.size(); ++i) {
            line.points.emplace_back(s.bytes[i], s.busbw_gbytes_per_s[i]);
        }
        c.series.push_back(std::move(line));
    }
    return c;
}

ChartSpec gemm_spec(const std::vector<GemmBar>& bars, const QString& source) {
    ChartSpec c;
    c.kind = ChartKind::grouped_bar;
    c.title = QObject::tr("GEMM throughput by precision");
    c.subtitle = source;
    c.x_label = QObject::tr("Precision");
    c.y_label = QObject::tr("TFLOP/s per device");
    c.value_labels = true;
    ChartSeries achieved;
    achieved.name = QObject::tr("Measured (best shape)");
    achieved.colour = QColor(0x4e, 0x79, 0xa7);
    ChartSeries peak;
    peak.name = QObject::tr("Datasheet dense peak");
    peak.colour = QColor(0xba, 0xb0, 0xac);
    for (size_t i = 0; i < bars.size(); ++i) {
        c.categories << bars[i].precision;
        achieved.points.emplace_back(static_cast<double>(i), bars[i].achieved_tflops);
        // A missing datasheet value stays a gap rather than a zero-height bar claim.
        peak.points.emplace_back(static_cast<double>(i),
                                 std::isfinite(bars[i].peak_tflops) ? bars[i].peak_tflops : 0.0);
    }
    c.series = {achieved, peak};
    return c;
}

} // namespace cp::charts
