// Axis ticks: a log axis over less than a decade still gets several labelled ticks; linear
// axes start at zero and tick at round steps; labels never use exponent notation.
#include "chart_ticks.h"
#include "tolerance.h"

#include <catch2/catch.hpp>

using namespace cp::charts;

namespace {
QStringList labels(const AxisTicks& t) {
    QStringList out;
    for (const Tick& tick : t.ticks)
        out << tick.label;
    return out;
}
} // namespace

TEST_CASE("Short tick numbers use thousands suffixes, never exponents", "[charts][ticks]") {
    CHECK(short_number(0) == QStringLiteral("0"));
    CHECK(short_number(950) == QStringLiteral("950"));
    CHECK(short_number(1500) == QStringLiteral("1.5k"));
    CHECK(short_number(2.0e7) == QStringLiteral("20M"));
    CHECK(short_number(3.0e9) == QStringLiteral("3B"));
    CHECK(short_number(0.05) == QStringLiteral("0.05"));
    CHECK(short_number(-2500) == QStringLiteral("-2.5k"));
}

TEST_CASE("A log axis over a decade and a half ticks at 1-2-5 values", "[charts][ticks]") {
    // The GUI's Pareto scatter of the default scenario: 70 to 1200 hours.
    const AxisTicks t = log_ticks(70, 1200, TickStyle::number);
    CHECK(t.min < 70);
    CHECK(t.max > 1200);
    CHECK(labels(t) == QStringList({"100", "200", "500", "1k"}));
    for (const Tick& tick : t.ticks) {
        CHECK(tick.value >= t.min);
        CHECK(tick.value <= t.max);
    }
}

TEST_CASE("A log axis over six decades stays within eight ticks", "[charts][ticks]") {
    const AxisTicks t = log_ticks(1e3, 1e9, TickStyle::number);
    CHECK(t.ticks.size() >= 3);
    CHECK(t.ticks.size() <= 8);
    CHECK(labels(t).contains(QStringLiteral("1M")));
}

TEST_CASE("A narrow log axis falls back to evenly spaced labelled ticks", "[charts][ticks]") {
    const AxisTicks t = log_ticks(847, 907, TickStyle::number);
    CHECK(t.ticks.size() >= 3);
}

TEST_CASE("Device and message-size axes tick at powers of two", "[charts][ticks]") {
    const AxisTicks devices = log_ticks(8, 512, TickStyle::powers_of_two);
    CHECK(labels(devices) == QStringList({"8", "16", "32", "64", "128", "256", "512"}));
    const AxisTicks bytes = log_ticks(1024, 1 << 30, TickStyle::bytes);
    CHECK(bytes.ticks.size() <= 10);
    CHECK(labels(bytes).contains(QStringLiteral("1 KiB")));
    CHECK(labels(bytes).contains(QStringLiteral("1 GiB")));
}

TEST_CASE("A linear axis starts at zero and ticks at round steps", "[charts][ticks]") {
    const AxisTicks t = linear_ticks(12, 98);
    CHECK(t.min == 0);
    CHECK(t.max >= 98);
    CHECK(t.ticks.size() <= 8);
    CHECK_REL(t.step, 20.0, 1e-12);
    const AxisTicks usd = linear_ticks(0, 1.2e5);
    CHECK(labels(usd).contains(QStringLiteral("100k")));
    // A constant series still gets a range around its value.
    const AxisTicks flat = linear_ticks(5, 5);
    CHECK(flat.max > 5);
}

TEST_CASE("Tick labels of a 2.5 step keep their decimal", "[charts][ticks]") {
    CHECK(step_decimals(2.5) == 1);
    CHECK(step_decimals(0.25) == 2);
    CHECK(step_decimals(20) == 0);
    // A scaling-efficiency axis: 97.5 must not read "98" beside a "100".
    const AxisTicks t = linear_ticks(88, 100.7);
    QStringList l = labels(t);
    CHECK(l.removeDuplicates() == 0);
    for (const Tick& tick : t.ticks)
        CHECK(tick.label.toDouble() == Approx(tick.value));
}

TEST_CASE("Device counts are written out in full", "[charts][ticks]") {
    CHECK(labels(log_ticks(64, 2048, TickStyle::powers_of_two)).contains(QStringLiteral("1024")));
}
