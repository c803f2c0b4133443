#include "clusterplan/sim/io/csv_cell.h"

#include <charconv>

namespace cp::sim::io {
namespace {

bool is_number(std::string_view text) {
    double value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size();
}

bool starts_formula(std::string_view text) {
    if (text.empty()) return false;
    const char c = text.front();
    return (c == '=' || c == '+' || c == '-' || c == '@' || c == '\t' || c == '\r') &&
           !is_number(text);
}

} // namespace

std::string csv_cell(std::string_view text) {
    std::string cell = starts_formula(text) ? "'" + std::string(text) : std::string(text);
    if (cell.find_first_of(",\"\r\n") == std::string::npos) return cell;
    std::string out = "\"";
    for (const char c : cell) {
        if (c == '"') out += '"';
        out += c;
    }
    return out + '"';
}

} // namespace cp::sim::io
