// One CSV cell as every exporter writes it (catalog export, report CSV): RFC 4180 quoting, and
// text that a spreadsheet would run as a formula (a leading '=', '+', '-', '@', tab or carriage
// return: "=cmd|' /C calc'!A0") is prefixed with an apostrophe, as OWASP's "CSV Injection" advice
// says; spreadsheets then show it as text. Numbers ("-3.5", "1e-4") are written as they are.
#pragma once

#include <string>
#include <string_view>

namespace cp::sim::io {

std::string csv_cell(std::string_view text);

} // namespace cp::sim::io
