// Sections of the report Document that live in their own files (internal to app/report).
#pragma once

#include "report_data.h"

namespace cp::report {

// "Charts": Pareto, scaling throughput and efficiency, step-time breakdown, memory per device.
Section charts_section(const ReportData& data);

} // namespace cp::report
