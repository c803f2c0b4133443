// A figure's range as the CLI text prints it after the figure:
// " (80 % of comparable runs within 41–58 s)", its ends formatted by `unit`; empty when either
// end is unknown.
#pragma once

#include "clusterplan/sim/plan_interval.h"

#include <string>

namespace cp::cli {

template <class Unit>
std::string range_note(const sim::PredictionInterval& iv, const sim::FigureRange& r, Unit unit) {
    if (!sim::is_known(r.low) || !sim::is_known(r.high)) return "";
    return " (" + sim::range_phrase(iv, unit(r.low), unit(r.high)) + ")";
}

} // namespace cp::cli
