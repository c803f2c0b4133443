// What a recommendation report shows (ReportData, gathered Qt-free by the service layer) and how
// it becomes a format-independent Document that the renderers draw.
#pragma once

#include "clusterplan/service/report_data.h"
#include "report_document.h"

#include <nlohmann/json.hpp>

namespace cp::report {

// Lays out the report: summary, scenario, runners-up, ranked table, charts, prices,
// calibration provenance, assumptions and caveats.
Document build_document(const ReportData& data);

// The ranked plans as CSV (one row per plan, header first, RFC 4180 quoting) and as JSON
// ({"schema": "clusterplan.report/1", "scenario": ..., "plans": [simulate --json ...]}).
std::string plans_csv(const ReportData& data);
nlohmann::ordered_json plans_json(const ReportData& data);

} // namespace cp::report
