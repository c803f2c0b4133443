// A renderer-independent description of one report chart. Built from planner results by
// report_builder.cpp, drawn with Qt Charts by chart_render.cpp into PNG (PDF, Markdown) or
// SVG (HTML). Keeping the description separate lets every format draw the same chart.
#pragma once

#include <QPointF>
#include <QString>
#include <QStringList>
#include <vector>

namespace cp::report {

enum class ChartKind {
    xy,          // x/y series drawn as markers and/or lines (Pareto, scaling curves)
    stacked_bar, // categories on x; series[i].points[j].y() is component i of category j
};

struct ChartSeries {
    QString name;
    std::vector<QPointF> points;
    bool line = false;       // xy: join points in the given order
    bool markers = true;     // xy: draw a marker at each point
    bool emphasised = false; // drawn larger/darker (the recommended plan)
    bool muted = false;      // drawn light grey (the cloud of all evaluated plans)
    bool dashed = false;     // xy line: dashed, so a line it covers still shows through
};

struct ChartSpec {
    ChartKind kind = ChartKind::xy;
    QString title;
    QString x_label;
    QString y_label;
    bool log_x = false;
    bool log_y = false;
    std::vector<ChartSeries> series;
    QStringList categories; // stacked_bar only
    // stacked_bar only: a horizontal reference mark per category (e.g. each plan's device
    // memory capacity); NaN or <= 0 = none for that category.
    std::vector<double> reference_values;
    QString reference_label;

    bool empty() const {
        for (const auto& s : series) {
            if (!s.points.empty()) return false;
        }
        return true;
    }
};

} // namespace cp::report
