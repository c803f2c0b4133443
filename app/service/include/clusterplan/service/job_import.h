// Calibrating from the user's own job: a training log read against the scenario it ran, fitted
// into a job calibration (sim/job_calibration.h) and kept in the catalog's calibration store,
// where `cluster.calibration` names it. Shared by `clusterplan calibrate import LOG --scenario`
// and the GUI's Probes page.
#pragma once

#include "clusterplan/catalog/catalog.h"
#include "clusterplan/sim/calibration_profile.h"
#include "clusterplan/sim/job_log.h"
#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/scenario.h"

#include <nlohmann/json.hpp>
#include <string>

namespace cp::service {

struct JobImport {
    std::string log_path;
    sim::JobLog log;
    sim::JobLogSummary summary; // in the log's own unit (job_log_measure_name)
    sim::PlanReport before;     // the scenario's plan without the job's factors
    sim::PlanReport after;      // the same plan with them
    sim::CalibrationProfile profile;
    nlohmann::json raw; // what the store keeps as the measurement: the log's samples
};

// Reads `log_path` and fits the job calibration of `scenario` (a training scenario with
// cluster.instance and cluster.nodes) into a profile named `name` (empty: "job-<log file stem>",
// or the next unused variant; an existing name is an error unless `replace`). A hardware
// profile the scenario names is kept under the job's factors. Nothing is stored. Throws
// InputError (unreadable log, no step lines, mixed runs, a log that does not match its
// scenario, a taken name) or sim::ScenarioError, each one sentence.
JobImport fit_job_log(const std::string& log_path, const sim::Scenario& scenario,
                      catalog::Catalog& catalog, const std::string& name, bool replace);

// Stores the fitted profile (replacing one of its name only when `replace`).
void store_job_calibration(const JobImport& imported, catalog::Catalog& catalog, bool replace);

} // namespace cp::service
