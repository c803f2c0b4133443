// The one tolerance helper for numeric tests: relative (percentage) and absolute comparison
// with a message that shows both values, so a failing validation row is readable.
#pragma once

#include <catch2/catch.hpp>
#include <cmath>
#include <sstream>
#include <string>

namespace cp::test {

// |actual - expected| / |expected| as a fraction.
inline double rel_error(double actual, double expected) {
    return std::abs(actual - expected) / std::abs(expected);
}

// True when `actual` is within `rel` (fraction) of `expected`.
inline bool within_rel(double actual, double expected, double rel) {
    return rel_error(actual, expected) <= rel;
}

inline std::string describe(double actual, double expected) {
    std::ostringstream s;
    s.precision(10);
    s << "actual " << actual << " vs expected " << expected << " ("
      << 100.0 * rel_error(actual, expected) << " % off)";
    return s.str();
}

} // namespace cp::test

// CHECK_REL(actual, expected, rel_fraction): relative check with both values in the message.
#define CHECK_REL(actual, expected, rel)                                                           \
    do {                                                                                           \
        const double cp_a_ = (actual), cp_e_ = (expected);                                         \
        INFO(#actual << ": " << cp::test::describe(cp_a_, cp_e_));                                 \
        CHECK(cp::test::within_rel(cp_a_, cp_e_, (rel)));                                          \
    } while (0)

#define REQUIRE_REL(actual, expected, rel)                                                         \
    do {                                                                                           \
        const double cp_a_ = (actual), cp_e_ = (expected);                                         \
        INFO(#actual << ": " << cp::test::describe(cp_a_, cp_e_));                                 \
        REQUIRE(cp::test::within_rel(cp_a_, cp_e_, (rel)));                                        \
    } while (0)
