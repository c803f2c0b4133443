// Which precision a plan runs at on a given accelerator, and the provenance lines of the
// accelerator figures it uses (published estimates, cluster.custom overrides, calibration).
#pragma once

#include "clusterplan/sim/calibration_profile.h"
#include "clusterplan/sim/hardware.h"
#include "clusterplan/sim/scenario.h"

#include <string>
#include <vector>

namespace cp::sim {

// Figures the scenario states in cluster.custom (peaks, memory, bandwidth) replace the
// catalog's, estimates included, for this plan.
void apply_custom_figures(AcceleratorSpec& acc, const CustomHardware& custom);

// True when the part has a known peak at `p` and the math itself.
bool precision_usable(const AcceleratorSpec& acc, Precision p);

// The scenario's precision, or — when the part cannot run it and the scenario allows a
// fallback (precision "auto" or a list) — the first usable fallback. Unchanged otherwise (the
// plan then reports the missing figure).
Precision plan_precision(const Scenario& scenario, const AcceleratorSpec& acc);

// One sentence when plan_precision() fell back ("V100-16GB has no bf16 ..."), else "".
std::string precision_fallback_note(const Scenario& scenario, const AcceleratorSpec& acc);

// Assumption lines for the figures a plan at precision `p` uses that are estimates or were
// overridden in cluster.custom; a calibration that measured the figure is named instead.
std::vector<std::string> figure_provenance_notes(const Scenario& scenario,
                                                 const AcceleratorSpec& acc, Precision p,
                                                 const CalibrationProfile* calibration);

} // namespace cp::sim
