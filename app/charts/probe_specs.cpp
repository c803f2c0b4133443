#include "probe_specs.h"

#include <QObject>
#include <algorithm>
#include <cmath>

namespace cp::charts {

ChartSpec busbw_spec(const std::vector<BandwidthSeries>& series) {
    ChartSpec c;
    c.title = QObject::tr("Collective bus bandwidth vs message size");
    c.x_label = QObject::tr("message size (log scale)");
    c.y_label = QObject::tr("bus bandwidth (GB/s)");
    c.log_x = true;
    c.x_ticks = TickStyle::bytes;
    int index = 0;
    for (const BandwidthSeries& s : series) {
        const QColor colour = series_colour(index++);
        ChartSeries line;
        line.name = s.label;
        line.line = true;
        line.colour = colour;
        for (size_t i = 0; i < s.bytes.size() && i < s.busbw_gbytes_per_s.size(); ++i) {
            line.points.emplace_back(s.bytes[i], s.busbw_gbytes_per_s[i]);
        }
        c.series.push_back(std::move(line));
        if (s.fitted_busbw_gbytes_per_s.empty()) continue;
        ChartSeries fit;
        fit.name = QObject::tr("%1 · α–β fit").arg(s.label);
        fit.line = true;
        fit.markers = false;
        fit.dashed = true;
        fit.colour = colour;
        for (size_t i = 0; i < s.bytes.size() && i < s.fitted_busbw_gbytes_per_s.size(); ++i)
            if (std::isfinite(s.fitted_busbw_gbytes_per_s[i]))
                fit.points.emplace_back(s.bytes[i], s.fitted_busbw_gbytes_per_s[i]);
        c.series.push_back(std::move(fit));
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

namespace {

// A level across the steps drawn (a predicted step time, an end of the range).
ChartSeries level(const QString& name, double value_s, double first, double last, QColor colour,
                  bool dashed) {
    ChartSeries s;
    s.name = name;
    s.line = true;
    s.markers = false;
    s.dashed = dashed;
    s.colour = colour;
    s.points = {{first, value_s}, {last, value_s}};
    return s;
}

bool drawn(double v) {
    return std::isfinite(v) && v > 0;
}

} // namespace

ChartSpec job_steps_spec(const JobStepsData& d) {
    ChartSpec c;
    c.title = QObject::tr("Measured vs predicted step time");
    // Predictions: "Uncalibrated" (the scenario as it was), "Calibrated" (with the job's factors).
    c.subtitle = d.source;
    c.x_label = QObject::tr("step");
    c.y_label = QObject::tr("step time (s)");
    const std::size_t n = std::min(d.steps.size(), d.measured_s.size());
    if (n == 0) return c;
    ChartSeries warmup;
    warmup.name = QObject::tr("Warm-up (skipped)");
    warmup.muted = true;
    ChartSeries measured;
    measured.name = QObject::tr("Measured");
    measured.colour = QColor(0x4e, 0x79, 0xa7);
    for (std::size_t i = 0; i < n; ++i)
        (static_cast<int>(i) < d.warmup_steps ? warmup : measured)
            .points.emplace_back(d.steps[i], d.measured_s[i]);
    const double first = d.steps.front(), last = d.steps[n - 1];
    if (!warmup.points.empty()) c.series.push_back(std::move(warmup));
    c.series.push_back(std::move(measured));
    if (drawn(d.predicted_before_s))
        c.series.push_back(level(QObject::tr("Uncalibrated"), d.predicted_before_s, first, last,
                                 QColor(0xe1, 0x57, 0x59), false));
    if (drawn(d.predicted_after_s))
        c.series.push_back(level(QObject::tr("Calibrated"), d.predicted_after_s, first, last,
                                 QColor(0x59, 0xa1, 0x4f), false));
    if (drawn(d.range_low_s) && drawn(d.range_high_s)) {
        const QColor band(0x59, 0xa1, 0x4f);
        c.series.push_back(
            level(QObject::tr("80 % range"), d.range_low_s, first, last, band, true));
        ChartSeries high = level(QString(), d.range_high_s, first, last, band, true);
        high.in_legend = false;
        c.series.push_back(std::move(high));
    }
    return c;
}

} // namespace cp::charts
