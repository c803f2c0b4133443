// Small string helpers shared by the snapshot loader and the importers.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace cp::catalog::detail {

std::string_view trim(std::string_view s);
std::string to_lower(std::string_view s);
bool icontains(std::string_view haystack, std::string_view needle);
// The whole (trimmed) text must be a finite decimal number; nullopt otherwise.
std::optional<double> parse_number(std::string_view s);
// Shortest round-trip decimal form of `v`.
std::string format_number(double v);

} // namespace cp::catalog::detail
