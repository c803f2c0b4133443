// Sections of the report Document that live in their own files (internal to app/report).
#pragma once

#include "report_data.h"

namespace cp::report {

// "Charts": Pareto, scaling throughput and efficiency, step-time breakdown, memory per device.
Section charts_section(const ReportData& data);

// Sections the training and the serving report share.
Section prices_section(const ReportData& data);
Section calibration_section(const ReportData& data);
Section excluded_section(const ReportData& data);
Section assumptions_section(const ReportData& data);

// The serving report (data.serving set): recommendation, scenario, SLO check, ranked
// deployments, KV-cache capacity, spot, charts, then the shared sections.
Document build_serving_document(const ReportData& data);

} // namespace cp::report
