// Pieces of report gathering shared by the training and the serving report (internal to the
// service library).
#pragma once

#include "clusterplan/catalog/catalog.h"
#include "clusterplan/service/report_data.h"
#include "clusterplan/sim/calibration_profile.h"

#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

namespace cp::service {

// The catalog's prices of `instances` in `region`, with dates and sources (none marked used).
std::vector<report::PriceSource> catalog_prices(const std::vector<std::string>& instances,
                                                const std::string& region,
                                                const catalog::Catalog& catalog);

// Calibration provenance rows; `best` is the best plan's document (its "calibration" object
// names the source the planner applied), or an empty object.
std::vector<std::pair<std::string, std::string>>
provenance(const sim::CalibrationProfile* calibration, const nlohmann::ordered_json& best);

// A serving scenario's report data (build_report_data sends serving scenarios here).
report::ReportData build_serving_report_data(const sim::Scenario& scenario,
                                             catalog::Catalog& catalog, int top_n);

} // namespace cp::service
