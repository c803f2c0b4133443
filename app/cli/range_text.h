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

// range_note for `value`, saying so when the estimate lies outside its own range: the model's
// error on comparable runs leans one way, and the range, not the estimate, is where they fell.
template <class Unit>
std::string range_note(const sim::PredictionInterval& iv, const sim::FigureRange& r, Unit unit,
                       double value) {
    std::string note = range_note(iv, r, unit);
    if (note.empty() || !sim::is_known(value) || (value >= r.low && value <= r.high)) return note;
    note.pop_back();
    return note + (value < r.low ? "; the estimate is below that range: the model reads low there)"
                                 : "; the estimate is above that range: the model reads high "
                                   "there)");
}

} // namespace cp::cli
