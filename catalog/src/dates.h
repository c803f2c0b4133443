// Date handling for prices: every stored as_of is ISO 8601 in UTC, either a full timestamp
// "YYYY-MM-DDTHH:MM:SSZ", a date "YYYY-MM-DD" or, for dated snapshots, a month "YYYY-MM".
// Text in one of these forms sorts chronologically, which the SQL "newest price" logic uses.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace cp::catalog::detail {

// Parses "YYYY-MM-DDTHH:MM:SS[.fff](Z|+HH:MM|-HH:MM)", "YYYY-MM-DD HH:MM:SS" (UTC),
// "YYYY-MM-DD" or "YYYY-MM" and returns the normalised UTC form; nullopt when malformed or
// out of range (month 13, 31 April, hour 24, ...).
std::optional<std::string> normalize_timestamp(std::string_view text);

// Days between `iso` (as produced by normalize_timestamp) and now; nullopt when unparsable.
std::optional<double> age_days(std::string_view iso);

std::string today_utc();         // "YYYY-MM-DD"
std::string now_utc_timestamp(); // "YYYY-MM-DDTHH:MM:SSZ"
std::string now_utc_compact();   // "YYYYMMDDTHHMMSSZ", for backup file names

} // namespace cp::catalog::detail
