// RFC 4180 CSV reader (quoted fields, doubled quotes, embedded commas and newlines, CRLF).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cp::catalog::detail {

struct CsvRecord {
    std::size_t line = 0;  // 1-based line where the record starts
    std::vector<std::string> fields;
};

// Malformed CSV (an unterminated quote, text after a closing quote).
class CsvSyntaxError : public std::runtime_error {
public:
    CsvSyntaxError(std::size_t line, const std::string& reason)
        : std::runtime_error(reason), line_(line) {}
    std::size_t line() const { return line_; }

private:
    std::size_t line_;
};

// Blank lines are skipped.
std::vector<CsvRecord> parse_csv(std::string_view text);

// Quotes a field when it holds a comma, quote or newline.
std::string csv_escape(std::string_view field);

} // namespace cp::catalog::detail
