#include "charts/probe_charts.h"

#include "charts/chart_style.h"

#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPalette>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>

namespace cp::gui::charts {

QChart* busbw_chart(const std::vector<BandwidthSeries>& series) {
    auto* chart = new QChart;
    apply_style(chart, QObject::tr("Collective bus bandwidth vs message size"));
    // x is log2(bytes) on a category axis so ticks read "1 KiB", "1 MiB" instead of exponents.
    double min_l = std::numeric_limits<double>::infinity(), max_l = -min_l, max_bw = 0;
    for (const BandwidthSeries& s : series) {
        auto* line = new QLineSeries;
        line->setName(s.label);
        line->setPointsVisible(true);
        for (std::size_t i = 0; i < s.bytes.size() && i < s.busbw_gbytes_per_s.size(); ++i) {
            if (!(s.bytes[i] > 0) || !std::isfinite(s.busbw_gbytes_per_s[i])) continue;
            const double l = std::log2(s.bytes[i]);
            line->append(l, s.busbw_gbytes_per_s[i]);
            min_l = std::min(min_l, l);
            max_l = std::max(max_l, l);
            max_bw = std::max(max_bw, s.busbw_gbytes_per_s[i]);
        }
        chart->addSeries(line);
    }
    if (!std::isfinite(min_l)) {
        min_l = 10;
        max_l = 30;
    }
    auto* axis_x = new QCategoryAxis;
    axis_x->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    const int first = int(std::floor(min_l));
    const int last = int(std::ceil(max_l));
    const int step = last - first > 8 ? 4 : 2; // a label every 4x or 16x keeps them apart
    for (int e = first - first % step; e <= last; e += step) {
        if (e < first) continue;
        axis_x->append(QStringLiteral("%1 %2")
                           .arg(1 << (e % 10))
                           .arg(QLatin1String(units[std::min(4, e / 10)])),
                       e);
    }
    axis_x->setRange(first - 0.5, last + 0.5); // room for the end labels
    axis_x->setTitleText(QObject::tr("Message size"));
    auto* axis_y = new QValueAxis;
    axis_y->setTitleText(QObject::tr("Bus bandwidth (GB/s)"));
    axis_y->setRange(0, max_bw > 0 ? max_bw * 1.08 : 100.0);
    axis_y->applyNiceNumbers();
    axis_y->setLabelFormat("%.0f");
    chart->addAxis(axis_x, Qt::AlignBottom);
    chart->addAxis(axis_y, Qt::AlignLeft);
    for (QAbstractSeries* s : chart->series()) {
        s->attachAxis(axis_x);
        s->attachAxis(axis_y);
    }
    return chart;
}

QChart* gemm_chart(const std::vector<GemmBar>& bars, const QString& source) {
    auto* chart = new QChart;
    apply_style(chart, QObject::tr("GEMM throughput by precision"));
    if (!source.isEmpty()) {
        chart->setTitle(QStringLiteral("<div align='center'>%1<br><span style='font-size:small; "
                                       "font-weight:normal'>%2</span></div>")
                            .arg(chart->title().toHtmlEscaped(), source.toHtmlEscaped()));
    }
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
        max_v = std::max(
            {max_v, b.achieved_tflops, std::isfinite(b.peak_tflops) ? b.peak_tflops : 0.0});
    }
    const QColor text = QApplication::palette().color(QPalette::Text);
    achieved->setLabelColor(text);
    peak->setLabelColor(text);
    auto* series = new QBarSeries;
    series->append(achieved);
    series->append(peak);
    series->setLabelsVisible(true);
    series->setLabelsFormat("@value");
    series->setLabelsPrecision(3);
    series->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
    // Upright labels over neighbouring bars ran into each other ("1719.5"); vertical ones cannot.
    series->setLabelsAngle(-90);
    chart->addSeries(series);
    auto* axis_x = new QBarCategoryAxis;
    axis_x->append(categories);
    // Without categories the axis collapses and its title would float in a corner.
    if (!bars.empty()) axis_x->setTitleText(QObject::tr("Precision"));
    auto* axis_y = new QValueAxis;
    axis_y->setTitleText(QObject::tr("TFLOP/s per device"));
    axis_y->setRange(0, max_v > 0 ? max_v * 1.2 : 100.0); // headroom for the vertical labels
    axis_y->applyNiceNumbers();
    axis_y->setLabelFormat("%.0f");
    chart->addAxis(axis_x, Qt::AlignBottom);
    chart->addAxis(axis_y, Qt::AlignLeft);
    series->attachAxis(axis_x);
    series->attachAxis(axis_y);
    return chart;
}

} // namespace cp::gui::charts
