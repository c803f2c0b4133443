// Number formatting for reports: units spelled out, unknown values (NaN, null) as "—". Reports
// read the typed scenario and plans (plan_fields.h); only the CSV export names JSON paths.
#pragma once

#include "clusterplan/sim/format.h"

#include <QString>
#include <nlohmann/json.hpp>
#include <string_view>

namespace cp::report::fmt {

inline const QString kUnknown = QString::fromUtf8(sim::fmt::kUnknown);

// The project's one set of formats (sim/format.h) as QString; tables keep fixed decimals.
inline QString duration_s(double seconds) { // "412.0 ms", "1.84 s", "3.2 h"
    return QString::fromStdString(sim::fmt::duration_s(seconds, sim::fmt::Digits::fixed));
}
inline QString hours(double h) { // "5.2 h", "12.4 days"
    return QString::fromStdString(sim::fmt::hours(h, sim::fmt::Digits::fixed));
}
inline QString usd(double value) { // "$1,234,567", "$42.10"
    return QString::fromStdString(sim::fmt::usd(value));
}
inline QString usd_price(double value) { // "$32.7726"
    return QString::fromStdString(sim::fmt::usd_price(value));
}
inline QString percent(double fraction) { // 0.4512 -> "45.1%"
    return QString::fromStdString(sim::fmt::percent(fraction));
}
inline QString count(double value) { // "950", "1.23 M", "300.00 B"
    return QString::fromStdString(sim::fmt::count(value));
}
inline QString rate(double per_s, const QString& unit) { // "1.23 M tokens/s"
    return count(per_s) + u' ' + unit;
}
inline QString gib(double value) { // "61.3 GiB"
    return QString::fromStdString(sim::fmt::gib(value));
}
// A plain number with `significant` digits ("0.4", "1234567"): figures without a unit.
QString plain(double value, int significant = 3);

} // namespace cp::report::fmt
