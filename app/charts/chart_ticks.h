// Axis ranges and tick labels for every chart: linear axes tick at 1-2-2.5-5 steps, log axes at
// 1-2-5 (or sparser) values per decade, powers of two (devices) or binary sizes (message
// bytes). Qt Charts' own log axis labels only exact powers of its base, so an axis spanning
// less than a decade shows one label at most; these ticks are drawn on a category axis instead.
#pragma once

#include "chart_spec.h"

#include <QString>
#include <vector>

namespace cp::charts {

struct Tick {
    double value = 0; // in data units (not log-transformed)
    QString label;
};

struct AxisTicks {
    double min = 0; // the axis range, data units
    double max = 1;
    double step = 0; // linear axes: the tick spacing (0 for log axes)
    std::vector<Tick> ticks;
};

// A linear axis over [lo, hi] with a little headroom, starting at 0 when every value is >= 0
// and 0 is near; at most about eight ticks.
AxisTicks linear_ticks(double lo, double hi);

// A log axis over [lo, hi] (both > 0) with a little headroom on each side.
AxisTicks log_ticks(double lo, double hi, TickStyle style);

// Decimals that write every multiple of `step` exactly (2.5 -> 1, 20 -> 0).
int step_decimals(double step);

// "950", "1.5k", "20M", "3B": short tick text with a thousands suffix, no exponent notation.
QString short_number(double value);

} // namespace cp::charts
