// RFC 4180 CSV reader (quoted fields, doubled quotes, embedded commas and newlines, CRLF).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace cp::catalog::detail {

struct CsvRecord {
    std::size_t line = 0; // 1-based line where the record starts
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

// Reads one record at a time, so a multi-hundred-megabyte AWS price list is never held as
// millions of strings at once. Blank lines are skipped. `text` must outlive the reader.
class CsvReader {
public:
    explicit CsvReader(std::string_view text);
    // False at the end of the text; throws CsvSyntaxError on malformed quoting.
    bool next(CsvRecord& record);

private:
    std::string_view text_;
    std::size_t pos_ = 0;
    std::size_t line_ = 1;
};

// Every record of `text` (small files: the bundled snapshot, tests).
std::vector<CsvRecord> parse_csv(std::string_view text);

// One exported cell: quoted when it holds a comma, quote or newline, a formula neutralised
// (sim/io/csv_cell.h).
std::string csv_escape(std::string_view field);

} // namespace cp::catalog::detail
