// Number formatting shared by pages, models and charts. Unknown values (NaN) show as "—".
#pragma once

#include <QString>

namespace cp::gui {

inline const QString kDash = QStringLiteral("\u2014");

// `decimals` after the point; NaN -> "—".
QString fmt_num(double value, int decimals = 1);
QString fmt_usd(double usd);                  // "$1,234" / "$0.53" / "—"
QString fmt_usd_per_hour(double usd_per_hour);
QString fmt_percent(double fraction, int decimals = 1);  // 0.42 -> "42.0 %"
QString fmt_duration_s(double seconds);       // "850 ms", "12.3 s", "4.2 h", "31 days"
QString fmt_hours(double hours);
QString fmt_gib(double gib);
QString fmt_count(double count);              // 1.2e12 -> "1.20 T"

} // namespace cp::gui
