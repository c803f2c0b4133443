#include "clusterplan/sim/wording.h"

#include <cmath>
#include <cstdio>

namespace cp::sim {
namespace {

// `v` with `digits` decimals, without a trailing ".0"/".00" ("4", "4.2", "1.25").
std::string trimmed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    std::string s = buf;
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0')
            s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    return s;
}

// Three significant figures at most for small values, one decimal for mid-sized ones: "4.25",
// "42.5", "425".
std::string figures(double v) {
    return trimmed(v, v < 10 ? 2 : v < 100 ? 1 : 0);
}

} // namespace

std::string format_duration_s(double seconds) {
    if (!std::isfinite(seconds)) return "unknown time";
    if (seconds < 1.0) return figures(seconds * 1e3) + " ms";
    if (seconds < 120.0) return figures(seconds) + " s";
    if (seconds < 7200.0) return trimmed(seconds / 60.0, 1) + " min";
    if (seconds < 48.0 * 3600.0) return trimmed(seconds / 3600.0, 1) + " h";
    return trimmed(seconds / 86400.0, 1) + " days";
}

std::string format_expected_interruptions(double expected) {
    if (std::isnan(expected)) return "an unknown number of interruptions expected";
    if (expected < 0.05) return "no interruption expected";
    const std::string count = trimmed(expected, expected < 9.95 ? 1 : 0);
    return "about " + count + (count == "1" ? " interruption" : " interruptions") + " expected";
}

} // namespace cp::sim
