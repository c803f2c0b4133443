// Loading a scenario file and resolving its hardware through the catalog: the instance named in
// cluster.instance (with cluster.custom overrides), fully custom hardware, or — for sweep and
// recommend — every catalog instance that can train (or constraints.instances). The one resolver
// of the CLI, the GUI and the report: errors are sim::ScenarioError naming the file and field.
#pragma once

#include "clusterplan/catalog/catalog.h"
#include "clusterplan/sim/calibration_profile.h"
#include "clusterplan/sim/hardware.h"
#include "clusterplan/sim/scenario.h"

#include <optional>
#include <string>
#include <vector>

namespace cp::service {

// Reads and parses `path`; the file name is the origin in every message. InputError when the
// file cannot be read.
sim::Scenario load_scenario_file(const std::string& path);

// The one node type a plan runs on (cluster.instance and/or cluster.custom).
sim::NodeSpec resolve_node(const sim::Scenario& scenario, const catalog::Catalog& catalog);

// Candidates for sweep/recommend: the scenario's instance when given, else
// constraints.instances, else every trainable catalog instance in the region.
std::vector<sim::NodeSpec> resolve_candidates(const sim::Scenario& scenario,
                                              const catalog::Catalog& catalog);

// cluster.calibration: "datasheet" gives nullopt; a stored profile name loads it; an unknown
// name is an error naming cluster.calibration.
std::optional<sim::CalibrationProfile> resolve_calibration(const sim::Scenario& scenario,
                                                           catalog::Catalog& catalog);

// A named profile that describes none of the candidates (measured on another accelerator) is an
// error naming cluster.calibration; where it fits some, the others use datasheet figures.
void check_calibration_applies(const sim::Scenario& scenario,
                               const std::vector<sim::NodeSpec>& candidates,
                               const std::optional<sim::CalibrationProfile>& calibration);

} // namespace cp::service
