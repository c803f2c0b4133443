// Shared by `calibrate import` and `probe run`: turn an input file's text into a profile plus
// its raw record, and print samples, fit and predictions as text or JSON.
#pragma once

#include "clusterplan/sim/calibration_probe.h"
#include "clusterplan/sim/calibration_profile.h"
#include "clusterplan/sim/calibration_samples.h"
#include "clusterplan/sim/probe_acceptance.h"

#include <iosfwd>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cp::cli {

struct ImportedCalibration {
    std::string format; // "probe", "nccl-tests-text", "nccl-tests-json", "csv"
    std::string source_file;
    std::vector<sim::CollectiveTable> tables; // parsed collective samples
    sim::CalibrationProfile profile;          // fitted (name/instance filled by the caller)
    nlohmann::json raw_json;                  // what the store keeps as raw_json
};

// Detects the format and parses; throws sim::CalibrationInputError on malformed input, and on a
// probe document `acceptance` refuses (failed sections, another instance type than the host's).
ImportedCalibration import_calibration_text(const std::string& text, const std::string& source_file,
                                            const std::string& collective_hint,
                                            const sim::ProbeAcceptance& acceptance = {});
// e.g. "dgx-a100-01-all_reduce-8r" from host/collective/ranks, else the file stem.
std::string default_profile_name(const std::string& source_file,
                                 const ImportedCalibration& imported);

// {"<bytes>": µs, ...} for every raw size of every collective fit; keyed by collective when
// there are several, otherwise flat.
nlohmann::json predicted_times_json(const sim::CalibrationProfile& profile);
nlohmann::json import_report_json(const ImportedCalibration& imported);
void write_import_report_text(std::ostream& out, const ImportedCalibration& imported);
void write_profile_text(std::ostream& out, const sim::CalibrationProfile& profile);

} // namespace cp::cli
