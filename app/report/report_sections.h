// Sections of the report Document that live in their own files (internal to app/report).
#pragma once

#include "clusterplan/sim/planner.h"
#include "report_data.h"

namespace cp::report {

// "Charts": Pareto, scaling throughput and efficiency, step-time breakdown, memory per device.
Section charts_section(const ReportData& data);

// Page 1: the age of the oldest price the plans use, amber past kPriceAgeCautionDays and red
// past kPriceAgeAlertDays.
Paragraph price_age_paragraph(const ReportData& data);
// Page 1: the plan's cluster on demand, on spot, as a Capacity Block and on reserved rates.
Table purchase_options_table(const sim::PlanReport& plan);

// Sections the training and the serving report share.
Section prices_section(const ReportData& data);
Section calibration_section(const ReportData& data);
Section excluded_section(const ReportData& data);
Section assumptions_section(const ReportData& data);

// The serving report (data.serving set): recommendation, scenario, SLO check, ranked
// deployments, KV-cache capacity, spot, charts, then the shared sections.
Document build_serving_document(const ReportData& data);

} // namespace cp::report
