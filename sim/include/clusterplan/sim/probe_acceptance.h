// Whether a probe document may become a calibration profile as it stands. Shared by every path
// that stores one (calibrate import, probe run, the GUI): a run with failed sections is refused
// unless the user accepts a partial profile (which then carries the errors), and a document
// whose host says it is another instance type than the user named is refused outright.
#pragma once

#include "clusterplan/sim/calibration_probe.h"

#include <string>

namespace cp::sim {

struct ProbeAcceptance {
    bool allow_failed_sections = false; // --allow-partial: store what worked, errors recorded
    std::string instance_type;          // --instance ("" = the host's DMI identity decides)
};

// Throws CalibrationInputError with one sentence naming the source and the reason.
void check_probe_acceptable(const ProbeDocument& doc, const std::string& source,
                            const ProbeAcceptance& acceptance);

} // namespace cp::sim
