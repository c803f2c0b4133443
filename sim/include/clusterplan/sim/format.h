// Numbers as people read them: money (USD), durations, sizes, counts and shares, in one place for
// the CLI text, the planner's sentences, the GUI and the report. Qt-free and locale-free: English
// digits with "," grouping, so a figure reads the same in every output; the GUI only wraps these
// as QString. Unknown values (NaN, infinite) print as kUnknown.
#pragma once

#include "clusterplan/sim/hardware.h"

#include <array>
#include <string>

namespace cp::sim::fmt {

inline constexpr const char* kUnknown = "—";

// `trimmed` drops trailing zeros ("4.2", "4"): sentences. `fixed` keeps every decimal ("4.20"):
// table columns and labels that should not change width from row to row.
enum class Digits { trimmed, fixed };

// `value` with `decimals` after the point.
std::string number(double value, int decimals, Digits digits = Digits::fixed);
// Three significant figures for small values, one decimal for mid-sized, none from 100:
// "4.25", "42.5", "425" (trailing zeros dropped).
std::string figures(double value);
// Thousands grouped: "1,234,567" (decimals 0; halves round away from zero), "-1,234.50".
std::string grouped(double value, int decimals = 0, Digits digits = Digits::fixed);

// Money. usd(v, 0) is "$1,234,567", usd(v, 2) "$32.77", a negative amount "-$3.50";
// usd(3.06, 4, Digits::trimmed) is "$3.06".
std::string usd(double value, int decimals, Digits digits = Digits::fixed);
// Cents where they matter (below $100, hourly prices), whole dollars above (a training bill).
std::string usd(double value);
// Sentences: "$1.23M" from a million, else whole dollars ("$842,100").
std::string usd_short(double value);
// Hourly prices: "$32.773/h".
std::string usd_per_hour(double value);
// A catalog price as listed, to a hundredth of a cent: "$32.7726", "$3.06".
std::string usd_price(double value);

// 0.4512 -> "45.1%" (decimals 1), "45%" (decimals 0).
std::string percent(double fraction, int decimals = 1);

// "850 ms", "12.3 s", "4.5 min", "3.2 h", "34.1 days" (trimmed); the unit changes at 1 s, 120 s,
// 2 h and 48 h. Digits::fixed keeps one decimal (two for seconds): "850.0 ms", "12.30 s".
std::string duration_s(double seconds, Digits digits = Digits::trimmed);
std::string hours(double h, Digits digits = Digits::trimmed);

// Memory: "61.3 GiB", "7.25 GiB" (two decimals below 10 GiB).
std::string gib(double value);

// Large counts with an SI-style suffix: "950", "12.35 k", "1.20 M", "3.00 B", "1.50 T", "2.00 P".
std::string count(double value);

} // namespace cp::sim::fmt

namespace cp::sim {

// Every precision in enum order, for lists offered to a user; a precision's name is
// enum_name(p) (scenario.h), the one spelling scenario files, profiles and tables use.
inline constexpr std::array<Precision, kPrecisionCount> kAllPrecisions{
    Precision::fp32, Precision::tf32, Precision::fp16, Precision::bf16, Precision::fp8};

} // namespace cp::sim
