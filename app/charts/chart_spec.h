// What one chart shows, as plain data: series, axes (titles with units, log scales, tick
// style), categories, reference marks (a deadline, each plan's memory capacity) and point
// labels. Built once by the chart builders (chart_builders.h) from planner results; the GUI's
// chart views and every report format draw the same spec through qchart_render.h and export
// it through chart_image.h, so a chart reads the same on screen, in a PDF and in an SVG.
#pragma once

#include <QColor>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <vector>

namespace cp::charts {

enum class ChartKind {
    xy,          // x/y series drawn as markers and/or lines (Pareto, scaling curves)
    stacked_bar, // categories; series[i].points[j].y() is part i of category j
    grouped_bar, // categories; series[i].points[j].y() is bar i beside the others at category j
};

// How an axis's tick labels read. On a log axis `powers_of_two` ticks at 1, 2, 4 ... (devices)
// and `bytes` at 1 KiB, 4 KiB ... (message sizes); `number` ticks at 1-2-5 steps.
enum class TickStyle { number, powers_of_two, bytes };

enum class LegendPlace { bottom, right, none };

struct ChartSeries {
    QString name;
    std::vector<QPointF> points;
    bool line = false;       // xy: join points in the given order
    bool markers = true;     // xy: a marker at each point
    bool emphasised = false; // drawn larger with a dark border (the recommended plan)
    bool muted = false;      // drawn light grey (the cloud of all evaluated plans)
    bool dashed = false;     // xy line: dashed, so a line it covers still shows through
    bool in_legend = true;
    QColor colour; // invalid: the palette's next colour (series_colour)
    // xy: the caller's id of each point (returned by a click on it in the GUI); empty = none.
    std::vector<int> point_ids;
    // xy: text drawn beside each point ("" = none); labels that would overlap are left out.
    QStringList point_labels;
};

// A straight reference line across the plot: a deadline (vertical, at x) or a budget or 100 %
// (horizontal, at y). Named in the legend.
struct ReferenceLine {
    bool vertical = true;
    double value = 0;
    QString name;
};

struct ChartSpec {
    ChartKind kind = ChartKind::xy;
    bool horizontal = false; // bars: categories on the y axis
    QString title;
    QString subtitle; // smaller lines under the title (data source, how to read it); \n breaks
    QString x_label;  // axis titles with units; for bars the value axis is y_label
    QString y_label;
    bool log_x = false;
    bool log_y = false;
    TickStyle x_ticks = TickStyle::number;
    TickStyle y_ticks = TickStyle::number;
    LegendPlace legend = LegendPlace::bottom;
    std::vector<ChartSeries> series;
    std::vector<ReferenceLine> reference_lines;
    QStringList categories; // bars only; rich text ("<br>" breaks a line, text escaped)
    // stacked_bar only: a short horizontal mark per category (e.g. each plan's device memory
    // capacity); NaN or <= 0 = none for that category.
    std::vector<double> reference_values;
    QString reference_label;
    bool value_labels = false; // bars: each bar's value written above it (vertical text)

    bool empty() const {
        for (const auto& s : series) {
            if (!s.points.empty()) return false;
        }
        return true;
    }
};

// The colour of the i-th automatically coloured series (colour-blind-safe palette).
QColor series_colour(int index);
// A series of markers named `name` in palette colour `palette_index`; `emphasised` for the
// recommended plan.
ChartSeries marker_series(const QString& name, int palette_index, bool emphasised = false);

} // namespace cp::charts
