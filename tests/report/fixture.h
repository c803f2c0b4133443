// A hand-made ReportData with representative numbers, for renderer tests that must not
// depend on the planner (the planner-backed tests live in report_numbers_test.cpp).
#pragma once

#include "report_data.h"

#include <string>
#include <vector>

namespace cp::report::test {

// `plans` ranked plans; `name` becomes the title and scenario name (tests pass hostile text).
ReportData fixture_report(const std::string& name, int plans = 12);

// Creates the offscreen QApplication once for the whole test binary.
void ensure_qt_app();

// What `clusterplan report ARGS...` printed and returned, run in-process through the CLI
// dispatcher with the report command added as the application adds it.
struct ReportRun {
    int code = -1;
    std::string out;
    std::string err;
};
ReportRun run_report(const std::vector<std::string>& args);

} // namespace cp::report::test
