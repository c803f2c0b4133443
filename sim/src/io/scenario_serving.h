// Private to sim/src/io: the scenario's `serving` section (DESIGN.md "Inference serving").
#pragma once

#include "clusterplan/sim/scenario.h"
#include "io/scenario_reader.h"

#include <nlohmann/json.hpp>

namespace cp::sim::scenario_io {

// Reads `serving` into sc.serving (defaults filled, ranges checked, field named on error).
void parse_serving(Reader& r, Scenario& sc);
// Cross-checks with the model (encoders and CNNs generate nothing) once the whole file is read.
void check_serving_against_model(Scenario& sc, const std::string& origin);
nlohmann::ordered_json serving_spec_json(const ServingSpec& spec);

} // namespace cp::sim::scenario_io
