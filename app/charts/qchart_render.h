// The one renderer: a ChartSpec becomes a Qt Charts QChart, for a chart view on screen and for
// every exported image (chart_image.h). A ChartLook says only how it is dressed: the report's
// print look (white, DejaVu Sans) or the application's palette and font on screen.
#pragma once

#include "chart_spec.h"

#include <QColor>
#include <QFont>

class QChart;

namespace cp::charts {

struct ChartLook {
    QFont font; // axis labels and legend; axis titles are drawn bold, a little larger
    QFont title_font;
    QColor background;
    QColor text;
};

// White background, black text, DejaVu Sans 8 pt: reports and exported files.
ChartLook print_look();
// The application's palette (light or dark) and font: charts on screen.
ChartLook screen_look();

// A new chart drawing `spec` (the caller owns it). Series are coloured by the spec; points a
// log axis cannot show (<= 0) and non-finite values are left out. Scatter series carry the ids
// of their points in the dynamic property "indices" (QList<QVariant>), in point order.
QChart* make_chart(const ChartSpec& spec, const ChartLook& look);

// Re-colours a finished chart (background, titles, legend, axes, grid, labels) for `look`
// without touching series colours, so a live light/dark switch reaches charts on screen.
// QChart::setTheme() cannot do that: it resets every series colour to the theme's.
void restyle(QChart* chart, const ChartLook& look);

} // namespace cp::charts
