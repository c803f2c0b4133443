#include "planning/memory_margin.h"

#include "clusterplan/sim/format.h"
#include "engine/model_constants.h"

#include <cmath>

namespace cp::sim {

std::string format_gib(double gib) {
    return fmt::number(gib, 1) + " GiB";
}

bool keep_within_memory_error(PlanResult& result) {
    const MemoryGib& m = result.memory_gib;
    if (result.limit != Limit::out_of_memory || m.capacity <= 0) return false;
    // Offloaded state over host memory is a different, exact budget.
    if (m.total <= m.capacity) return false;
    if (m.total > m.capacity * (1.0 + model::kMemoryEstimateErrorShare)) return false;
    result.limit = Limit::none;
    return true;
}

std::string memory_error_note(const PlanResult& result) {
    const MemoryGib& m = result.memory_gib;
    const long over_percent = std::lround(100.0 * (m.total / m.capacity - 1.0));
    const long error_percent = std::lround(100.0 * model::kMemoryEstimateErrorShare);
    return "memory estimate " + format_gib(m.total) + " per device is " +
           std::to_string(over_percent) + " % above the " + format_gib(m.capacity) +
           " available, within the memory model's " + std::to_string(error_percent) +
           " % error on published runs: it may not fit (check with a short run; "
           "activation-checkpoint placement, loss chunking and allocator settings decide the "
           "last GiB)";
}

} // namespace cp::sim
