// Private to sim/src/calibration: the one way its importers turn measurement text into JSON.
#pragma once

#include "clusterplan/sim/calibration_samples.h"
#include "clusterplan/sim/io/json_depth.h"

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

namespace cp::sim::detail {

// `text` parsed, or CalibrationInputError naming `source`: nesting beyond the bound ("not a
// usable <what>"), malformed JSON or a number beyond double range (nlohmann's out_of_range 406,
// found by fuzzing) alike.
inline nlohmann::json parse_measurement_json(std::string_view text, const std::string& source,
                                             const std::string& what) {
    if (const auto problem = io::json_input_problem(text))
        throw CalibrationInputError(source + ": not " + what + ": it " + *problem);
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::exception& e) {
        throw CalibrationInputError(source + ": invalid JSON (" + std::string(e.what()) + ")");
    }
}

} // namespace cp::sim::detail
