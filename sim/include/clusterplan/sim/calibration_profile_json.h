// JSON form of a CalibrationProfile (what the catalog stores as fit_json and what
// `calibrate show --json` prints). Infinite segment bounds are written as null.
#pragma once

#include "clusterplan/sim/calibration_profile.h"

#include <nlohmann/json.hpp>

namespace cp::sim {

nlohmann::json profile_to_json(const CalibrationProfile& profile);
// Throws CalibrationInputError on a malformed document; `source_name` appears in errors.
CalibrationProfile profile_from_json(const nlohmann::json& doc, const std::string& source_name);

// The `job` member of a profile (factors fitted on the user's job logs and the runs behind them).
nlohmann::json job_calibration_to_json(const JobCalibration& job);
JobCalibration job_calibration_from_json(const nlohmann::json& doc, const std::string& source_name);

} // namespace cp::sim
