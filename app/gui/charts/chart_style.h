// Common look for every chart: theme from the system palette, fonts, legend placement.
#pragma once

class QChart;
class QString;

namespace cp::gui::charts {

// Applies the light or dark theme matching the application palette, a title and a bottom legend.
void apply_style(QChart* chart, const QString& title);

// Re-colours a finished chart (background, title, legend, axes, bar labels) from the current
// application palette without touching series colours, so a live light/dark switch reaches
// charts that are already on screen. setTheme() cannot be used for that: it resets every series
// colour to the theme's.
void restyle(QChart* chart);

} // namespace cp::gui::charts
