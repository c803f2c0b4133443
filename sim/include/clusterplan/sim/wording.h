// Plain-language figures for the planner's sentences (recommend reasons, limits): durations in
// the unit a reader expects and expected interruption counts in words. English, Qt-free.
#pragma once

#include <string>

namespace cp::sim {

// "4 ms", "850 ms", "1.25 s", "12.3 s", "4.5 min", "3.2 h", "34.1 days"; trailing ".0" dropped.
// NaN/infinite -> "unknown time".
std::string format_duration_s(double seconds);

// Expected spot interruptions over a run: "no interruption expected" (below 0.05),
// "about 1 interruption expected", "about 2.4 interruptions expected", "about 12 interruptions
// expected" (one decimal below 10). NaN -> "an unknown number of interruptions expected".
std::string format_expected_interruptions(double expected);

} // namespace cp::sim
