// A hand-made ReportData with representative numbers, for renderer tests that must not
// depend on the planner (the planner-backed tests live in report_numbers_test.cpp).
#pragma once

#include "report_data.h"

#include <string>

namespace cp::report::test {

// `plans` ranked plans; `name` becomes the title and scenario name (tests pass hostile text).
ReportData fixture_report(const std::string& name, int plans = 12);

// Creates the offscreen QApplication once for the whole test binary.
void ensure_qt_app();

} // namespace cp::report::test
