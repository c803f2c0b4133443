#include "charts/probe_charts.h"

#include "charts/chart_style.h"

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QValueAxis>

#include <algorithm>
#include <cmath>
#include <limits>

namespace cp::gui::charts {

QChart* busbw_chart(const std::vector<BandwidthSeries>& series) {
    auto* chart = new QChart;
    apply_style(chart, QObject::tr("Collective bus bandwidth vs message size"));
    double min_b = std::numeric_limits<double>::infinity(), max_b = 0, max_bw = 0;
    for (const BandwidthSeries& s : series) {
        auto* line = new QLineSeries;
        line->setName(s.label);
        line->setPointsVisible(true);
        for (std::size_t i = 0; i < s.bytes.size() && i < s.busbw_gbytes_per_s.size(); ++i) {
            if (!(s.bytes[i] > 0) || !std::isfinite(s.busbw_gbytes_per_s[i])) continue;
            line->append(s.bytes[i], s.busbw_gbytes_per_s[i]);
            min_b = std::min(min_b, s.bytes[i]);
            max_b = std::max(max_b, s.bytes[i]);
            max_bw = std::max(max_bw, s.busbw_gbytes_per_s[i]);
        }
        chart->addSeries(line);
    }
    auto* axis_x = new QLogValueAxis;
    axis_x->setBase(2);
    axis_x->setTitleText(QObject::tr("Message size (bytes, log scale)"));
    axis_x->setLabelFormat("%.0e");
    if (std::isfinite(min_b)) axis_x->setRange(min_b, max_b);
    else axis_x->setRange(1024, 1 << 30);
    auto* axis_y = new QValueAxis;
    axis_y->setTitleText(QObject::tr("Bus bandwidth (GB/s)"));
    axis_y->setRange(0, max_bw > 0 ? max_bw * 1.1 : 1.0);
    axis_y->setLabelFormat("%.0f");
    chart->addAxis(axis_x, Qt::AlignBottom);
    chart->addAxis(axis_y, Qt::AlignLeft);
    for (QAbstractSeries* s : chart->series()) {
        s->attachAxis(axis_x);
        s->attachAxis(axis_y);
    }
    return chart;
}

QChart* gemm_chart(const std::vector<GemmBar>& bars) {
    auto* chart = new QChart;
    apply_style(chart, QObject::tr("GEMM throughput by precision"));
    auto* achieved = new QBarSet(QObject::tr("Measured (best shape)"));
    achieved->setColor(QColor(0x4e, 0x79, 0xa7));
    auto* peak = new QBarSet(QObject::tr("Datasheet dense peak"));
    peak->setColor(QColor(0xba, 0xb0, 0xac));
    QStringList categories;
    double max_v = 0;
    for (const GemmBar& b : bars) {
        categories << b.precision;
        *achieved << b.achieved_tflops;
        // A missing datasheet value stays a gap rather than a zero-height bar claim.
        *peak << (std::isfinite(b.peak_tflops) ? b.peak_tflops : 0.0);
        max_v = std::max({max_v, b.achieved_tflops, std::isfinite(b.peak_tflops) ? b.peak_tflops : 0.0});
    }
    auto* series = new QBarSeries;
    series->append(achieved);
    series->append(peak);
    series->setLabelsVisible(true);
    series->setLabelsFormat("@value");
    series->setLabelsPrecision(4);
    chart->addSeries(series);
    auto* axis_x = new QBarCategoryAxis;
    axis_x->append(categories);
    axis_x->setTitleText(QObject::tr("Precision"));
    auto* axis_y = new QValueAxis;
    axis_y->setTitleText(QObject::tr("TFLOP/s per device"));
    axis_y->setRange(0, max_v > 0 ? max_v * 1.15 : 1.0);
    axis_y->setLabelFormat("%.0f");
    chart->addAxis(axis_x, Qt::AlignBottom);
    chart->addAxis(axis_y, Qt::AlignLeft);
    series->attachAxis(axis_x);
    series->attachAxis(axis_y);
    return chart;
}

} // namespace cp::gui::charts
