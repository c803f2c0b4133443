// Number formatting shared by pages, models and charts: the project's one set of formats
// (clusterplan/sim/format.h) as QString, with fixed decimals so table columns keep their width.
// Plain numbers (fmt_num) follow the user's locale. Unknown values (NaN) show as "—".
#pragma once

#include "clusterplan/sim/format.h"
#include "clusterplan/sim/workload.h"

#include <QString>
#include <optional>

namespace cp::gui {

inline const QString kDash = QString::fromUtf8(sim::fmt::kUnknown);

// `decimals` after the point; NaN -> "—".
QString fmt_num(double value, int decimals = 1);
QString fmt_usd(double usd);                            // "$1,234" / "$0.53" / "—"
QString fmt_usd_per_hour(double usd_per_hour);          // "$32.773/h"
QString fmt_percent(double fraction, int decimals = 1); // 0.42 -> "42.0%"
QString fmt_duration_s(double seconds); // "850.0 ms", "12.30 s", "4.2 h", "31.0 days"
QString fmt_hours(double hours);
QString fmt_gib(double gib);                   // "7.25 GiB", "61.3 GiB"
QString fmt_yes_no(std::optional<bool> value); // "yes" / "no" / "—" when unknown
QString fmt_count(double count);               // 1.2e12 -> "1.20 T"

// Throughput in the unit the model trains on: transformers count tokens ("tok/s"), generic
// models (ResNet-50 ...) count samples, i.e. images ("samples/s").
QString throughput_unit(sim::WorkloadKind kind);
QString fmt_throughput(double tokens_per_s, double samples_per_s,
                       sim::WorkloadKind kind); // "1.23 M tok/s"
// Expected spot interruptions in words (sim::format_expected_interruptions): "no interruption
// expected", "about 2.4 interruptions expected".
QString fmt_interruptions(double expected);

} // namespace cp::gui
