// Private to sim: how a figure, its range and what the range rests on are written in the JSON
// documents (simulate/sweep/recommend, serve, purchase options), so every document writes them
// the same way.
#pragma once

#include "clusterplan/sim/plan_interval.h"
#include "clusterplan/sim/result.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace cp::sim::io {

// A figure, or null when it is unknown or not finite (JSON has no NaN or infinity).
inline nlohmann::ordered_json json_number(double v) {
    return is_known(v) && std::isfinite(v) ? nlohmann::ordered_json(v)
                                           : nlohmann::ordered_json(nullptr);
}

// A figure's `…_interval`: [low, high], or null when either end is unknown.
inline nlohmann::ordered_json range_json(const FigureRange& r) {
    if (!is_known(r.low) || !is_known(r.high) || !std::isfinite(r.low) || !std::isfinite(r.high))
        return nullptr;
    return nlohmann::ordered_json::array({r.low, r.high});
}

// `validation`: the runs, sources and bucket a range rests on and its factors on the estimate.
inline nlohmann::ordered_json validation_json(const PredictionInterval& iv) {
    return {{"runs", iv.runs},
            {"sources", iv.sources},
            {"bucket", iv.bucket},
            {"basis", enum_name(iv.basis)},
            {"low_factor", iv.low_factor},
            {"high_factor", iv.high_factor}};
}

} // namespace cp::sim::io
