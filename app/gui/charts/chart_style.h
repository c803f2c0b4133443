// Common look for every chart: theme from the system palette, fonts, legend placement.
#pragma once

class QChart;
class QString;

namespace cp::gui::charts {

// Applies the light or dark theme matching the application palette, a title and a bottom legend.
void apply_style(QChart* chart, const QString& title);

} // namespace cp::gui::charts
