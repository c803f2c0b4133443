#include "clusterplan/sim/wording.h"

#include "clusterplan/sim/format.h"

#include <cmath>

namespace cp::sim {

std::string format_duration_s(double seconds) {
    if (!std::isfinite(seconds)) return "unknown time";
    return fmt::duration_s(seconds, fmt::Digits::trimmed);
}

std::string format_expected_interruptions(double expected) {
    if (std::isnan(expected)) return "an unknown number of interruptions expected";
    if (expected < 0.05) return "no interruption expected";
    const std::string count = fmt::number(expected, expected < 9.95 ? 1 : 0, fmt::Digits::trimmed);
    return "about " + count + (count == "1" ? " interruption" : " interruptions") + " expected";
}

} // namespace cp::sim
