#pragma once

#include "clusterplan/sim/result.h"

#include <string>

namespace cp::sim {

// simulate's plan (the scenario's layout, or the closest to fitting when none fits) is refused
// for memory only when the estimate exceeds the device by more than the memory model's own error
// (kMemoryEstimateErrorShare): published runs fill their devices to the last GiB, which the model
// cannot resolve. Marks such a result valid (fits_in_memory stays false) and returns true;
// leaves any other result alone.
bool keep_within_memory_error(PlanResult& result);

// "12.3 GiB": the one way plans print memory.
std::string format_gib(double gib);

// The sentence a kept plan carries in its assumptions.
std::string memory_error_note(const PlanResult& result);

} // namespace cp::sim
