// Number formatting for reports: units spelled out, unknown values (NaN, null) as "—".
#pragma once

#include <QString>
#include <nlohmann/json.hpp>
#include <string_view>

namespace cp::report::fmt {

inline const QString kUnknown = QStringLiteral("—");

// Reads a number at a dotted path ("memory_gib.total"); NaN when missing or null.
double number(const nlohmann::ordered_json& doc, std::string_view dotted_path);
// Reads a string at a dotted path; empty when missing or not a string.
QString text(const nlohmann::ordered_json& doc, std::string_view dotted_path);

QString duration_s(double seconds);              // "412 ms", "1.84 s"
QString hours(double h);                         // "5.2 h", "12.4 days"
QString usd(double value);                       // "$1,234,567", "$842.10"
QString percent(double fraction);                // 0.4512 -> "45.1 %"
QString rate(double per_s, const QString& unit); // "1.23 M tokens/s"
QString count(double value, int decimals = 1);   // "3.0e11" style only for big values
QString gib(double value);                       // "61.3 GiB"
QString plain(double value, int significant = 3);

} // namespace cp::report::fmt
