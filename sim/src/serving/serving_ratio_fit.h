// Least-squares ratios for an engine whose runs are too few for a factor set of its own: each
// run's time is the donor engine's unscaled terms plus ratios times the other parts, all over the
// measured time (relative error).
#pragma once

#include <array>
#include <utility>
#include <vector>

namespace cp::sim {

// Per run: {unscaled part, first scaled part, second scaled part}, each over the measured time.
using RatioRows = std::vector<std::array<double, 3>>;

// min sum((x0 + s x1) - 1)^2 over s >= 0; NaN where no run has x1.
double fit_one_ratio(const RatioRows& x);
// min sum((x0 + s x1 + t x2) - 1)^2 over s, t >= 0; NaN, NaN where no run has either part.
std::pair<double, double> fit_two_ratios(const RatioRows& x);

} // namespace cp::sim
