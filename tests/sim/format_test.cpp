// The one formatting module: the exact text each format gives, since the CLI output, the
// planner's sentences (recommend --json) and the GUI and report all print through it.
#include "clusterplan/sim/format.h"
#include "clusterplan/sim/scenario.h"
#include "clusterplan/sim/wording.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <limits>

using namespace cp::sim;
using fmt::Digits;

namespace {
const double kNaN = std::nan("");
const double kInf = std::numeric_limits<double>::infinity();
} // namespace

TEST_CASE("Money: whole dollars grouped, cents below $100, millions in sentences", "[format]") {
    CHECK(fmt::usd(1234567.4, 0) == "$1,234,567");
    CHECK(fmt::usd(2.5, 0) == "$3"); // a bill rounds halves up, not to even
    CHECK(fmt::usd(-3.5, 2) == "-$3.50");
    CHECK(fmt::usd(-0.001, 2) == "$0.00"); // no "-$0.00"
    CHECK(fmt::usd(3.06, 4, Digits::trimmed) == "$3.06");
    CHECK(fmt::usd(32.7726, 4, Digits::trimmed) == "$32.7726");
    CHECK(fmt::usd(0.526) == "$0.53");
    CHECK(fmt::usd(842.1) == "$842");
    CHECK(fmt::usd_short(2.345e6) == "$2.35M");
    CHECK(fmt::usd_short(999999.6) == "$1,000,000");
    CHECK(fmt::usd_per_hour(32.7726) == "$32.773/h");
    for (const double unknown : {kNaN, kInf}) {
        CHECK(fmt::usd(unknown) == fmt::kUnknown);
        CHECK(fmt::usd_short(unknown) == fmt::kUnknown);
        CHECK(fmt::usd_per_hour(unknown) == fmt::kUnknown);
    }
}

TEST_CASE("Durations change unit at 1 s, 2 min, 2 h and 2 days", "[format]") {
    CHECK(fmt::duration_s(0.004) == "4 ms");
    CHECK(fmt::duration_s(0.25) == "250 ms");
    CHECK(fmt::duration_s(0.25, Digits::fixed) == "250.0 ms");
    CHECK(fmt::duration_s(1.25) == "1.25 s");
    CHECK(fmt::duration_s(12.34) == "12.3 s");
    CHECK(fmt::duration_s(12.34, Digits::fixed) == "12.34 s");
    CHECK(fmt::duration_s(270) == "4.5 min");
    CHECK(fmt::hours(3.0) == "3 h");
    CHECK(fmt::hours(3.0, Digits::fixed) == "3.0 h");
    CHECK(fmt::hours(47.9) == "47.9 h");
    CHECK(fmt::hours(30 * 24, Digits::fixed) == "30.0 days");
    CHECK(fmt::duration_s(kNaN) == fmt::kUnknown);
    // The planner's sentences say so in words.
    CHECK(format_duration_s(kInf) == "unknown time");
    CHECK(format_duration_s(270) == fmt::duration_s(270));
}

TEST_CASE("Counts, shares, sizes and grouping", "[format]") {
    CHECK(fmt::grouped(1234567.5) == "1,234,568");
    CHECK(fmt::grouped(-1234.5, 2) == "-1,234.50");
    CHECK(fmt::grouped(-0.2) == "0");
    CHECK(fmt::percent(0.4512) == "45.1%");
    CHECK(fmt::percent(0.12, 0) == "12%");
    CHECK(fmt::gib(7.254) == "7.25 GiB");
    CHECK(fmt::gib(61.34) == "61.3 GiB");
    CHECK(fmt::count(950) == "950");
    CHECK(fmt::count(12.5) == "12.5");
    CHECK(fmt::count(12345) == "12.35 k");
    CHECK(fmt::count(3e11) == "300.00 B");
    CHECK(fmt::count(1.5e15) == "1.50 P");
    CHECK(fmt::number(4.20, 2, Digits::trimmed) == "4.2");
    CHECK(fmt::number(4.0, 2, Digits::trimmed) == "4");
    CHECK(fmt::number(kNaN, 2) == fmt::kUnknown);
}

TEST_CASE("Precisions are listed once, in enum order, with the scenario file's names", "[format]") {
    REQUIRE(kAllPrecisions.size() == static_cast<size_t>(kPrecisionCount));
    for (size_t i = 0; i < kAllPrecisions.size(); ++i)
        CHECK(static_cast<size_t>(kAllPrecisions[i]) == i);
    CHECK(std::string(enum_name(kAllPrecisions.front())) == "fp32");
    CHECK(std::string(enum_name(Precision::bf16)) == "bf16");
}
