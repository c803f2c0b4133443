#include "chart_ticks.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace cp::charts {
namespace {

// Ticks per axis: more than eight crowd a 300-pixel chart in the GUI.
constexpr int kMaxTicks = 8;

// The smallest 1, 2, 2.5, 5 x 10^k step that splits `span` into at most kMaxTicks - 1 parts.
double nice_step(double span) {
    const double raw = span / (kMaxTicks - 2);
    const double decade = std::pow(10.0, std::floor(std::log10(raw)));
    for (double m : {1.0, 2.0, 2.5, 5.0}) {
        if (m * decade >= raw * (1 - 1e-9)) return m * decade;
    }
    return 10 * decade;
}

QString trimmed_fixed(double v, int decimals) {
    QString s = QString::number(v, 'f', std::max(0, decimals));
    if (s.contains(QLatin1Char('.'))) {
        while (s.endsWith(QLatin1Char('0')))
            s.chop(1);
        if (s.endsWith(QLatin1Char('.'))) s.chop(1);
    }
    return s == QLatin1String("-0") ? QStringLiteral("0") : s;
}

QString binary_size(double bytes) {
    static const char* const kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB"};
    int unit = 0;
    while (bytes >= 1024 && unit < 5) {
        bytes /= 1024;
        ++unit;
    }
    return QStringLiteral("%1 %2").arg(trimmed_fixed(bytes, 1), QLatin1String(kUnits[unit]));
}

} // namespace

int step_decimals(double step) {
    // 2.5 needs one decimal, 0.25 two, 20 none: the fewest that write the step exactly.
    int d = 0;
    while (d < 6) {
        const double scaled = step * std::pow(10.0, d);
        if (std::abs(scaled - std::round(scaled)) <= 1e-6 * scaled) break;
        ++d;
    }
    return d;
}

QString short_number(double value) {
    const double a = std::abs(value);
    struct Suffix {
        double factor;
        const char* text;
    };
    static const Suffix kSuffixes[] = {{1e12, "T"}, {1e9, "B"}, {1e6, "M"}, {1e3, "k"}};
    for (const Suffix& s : kSuffixes) {
        if (a >= s.factor * (1 - 1e-12))
            return trimmed_fixed(value / s.factor, 2) + QLatin1String(s.text);
    }
    if (a == 0) return QStringLiteral("0");
    // Three significant digits below 1000 (0.05, 2.5, 125).
    const int decimals = std::clamp(2 - static_cast<int>(std::floor(std::log10(a))), 0, 6);
    return trimmed_fixed(value, decimals);
}

AxisTicks linear_ticks(double lo, double hi) {
    if (!(std::isfinite(lo) && std::isfinite(hi)) || lo > hi) {
        lo = 0;
        hi = 1;
    }
    double span = hi - lo;
    if (span <= 0) span = std::max(std::abs(hi) * 0.2, 1.0);
    // Start at zero when the data are positive and zero is within a third of the span below.
    if (lo >= 0 && lo <= span * 0.5) lo = 0;
    const double padded_hi = hi + span * 0.05;
    const double padded_lo = lo == 0 ? 0 : lo - span * 0.05;
    const double step = nice_step(std::max(padded_hi - padded_lo, 1e-12));
    AxisTicks out;
    out.step = step;
    out.min = std::floor(padded_lo / step) * step;
    out.max = std::ceil(padded_hi / step) * step;
    if (out.max <= out.min) out.max = out.min + step;
    const int decimals = step_decimals(step);
    const bool large = std::max(std::abs(out.min), std::abs(out.max)) >= 1e4;
    for (double v = out.min; v <= out.max + step * 1e-6; v += step) {
        const double snapped = std::abs(v) < step * 1e-9 ? 0.0 : v;
        out.ticks.push_back(
            {snapped, large ? short_number(snapped) : trimmed_fixed(snapped, decimals)});
    }
    return out;
}

AxisTicks log_ticks(double lo, double hi, TickStyle style) {
    if (!(lo > 0 && hi > 0 && std::isfinite(lo) && std::isfinite(hi))) {
        lo = 1;
        hi = 10;
    }
    if (hi < lo) std::swap(lo, hi);
    AxisTicks out;
    if (style == TickStyle::number) {
        // Headroom of 5 % of the log span each side (at least a factor 1.1).
        const double pad = std::max(std::log10(hi / lo) * 0.05, std::log10(1.1));
        out.min = lo / std::pow(10.0, pad);
        out.max = hi * std::pow(10.0, pad);
        // The densest mantissa set that keeps the tick count within limits; beyond that,
        // every n-th decade.
        static const std::vector<std::vector<double>> kSets = {{1, 2, 5}, {1, 3}, {1}};
        const int first = static_cast<int>(std::floor(std::log10(out.min)));
        const int last = static_cast<int>(std::ceil(std::log10(out.max)));
        auto collect = [&](const std::vector<double>& set, int every) {
            std::vector<Tick> ticks;
            for (int e = first; e <= last; ++e) {
                if (((e % every) + every) % every != 0) continue;
                for (double m : set) {
                    const double v = m * std::pow(10.0, e);
                    if (v >= out.min && v <= out.max) ticks.push_back({v, short_number(v)});
                }
            }
            return ticks;
        };
        for (const auto& set : kSets) {
            out.ticks = collect(set, 1);
            if (static_cast<int>(out.ticks.size()) <= kMaxTicks) break;
        }
        for (int every = 2; static_cast<int>(out.ticks.size()) > kMaxTicks; ++every)
            out.ticks = collect({1}, every);
        // Under about half a decade 1-2-5 values give two ticks at most: evenly spaced ones.
        if (out.ticks.size() < 3) {
            out.ticks.clear();
            for (const Tick& t : linear_ticks(out.min, out.max).ticks) {
                if (t.value >= out.min && t.value <= out.max) out.ticks.push_back(t);
            }
        }
        return out;
    }
    // Powers of two: devices (1, 2, 4 ...) or message sizes (1 KiB, 4 KiB ...).
    out.min = lo / 1.3;
    out.max = hi * 1.3;
    const int first = static_cast<int>(std::ceil(std::log2(out.min)));
    const int last = static_cast<int>(std::floor(std::log2(out.max)));
    // Sparser ticks at steps that keep round values: 1 KiB, 32 KiB, 1 MiB for sizes (2^10 per
    // unit), 1, 4, 16 for devices.
    const std::array<int, 4> steps = style == TickStyle::bytes ? std::array<int, 4>{1, 2, 5, 10}
                                                               : std::array<int, 4>{1, 2, 4, 8};
    // Size labels ("256 MiB") are wider than device counts: fewer of them fit.
    const int max_ticks = style == TickStyle::bytes ? 5 : kMaxTicks + 2;
    int every = steps.back();
    for (int s : steps) {
        if ((last - first) / s + 1 <= max_ticks) {
            every = s;
            break;
        }
    }
    for (int e = first; e <= last; ++e) {
        if (((e % every) + every) % every != 0) continue;
        const double v = std::ldexp(1.0, e);
        // Device counts are written out (1024, not 1.02k): they are exact powers of two.
        out.ticks.push_back({v, style == TickStyle::bytes ? binary_size(v) : trimmed_fixed(v, 0)});
    }
    return out;
}

} // namespace cp::charts
