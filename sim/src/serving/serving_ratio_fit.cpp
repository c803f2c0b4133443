#include "serving/serving_ratio_fit.h"

#include <algorithm>
#include <cmath>

namespace cp::sim {

// Least squares on the relative error of runs whose times are x0 + s x1 (of the measured):
// s = sum(x1 (1 - x0)) / sum(x1^2), at least zero; NaN where no run has x1.
double fit_one_ratio(const RatioRows& x) {
    double num = 0, den = 0;
    for (const auto& r : x) {
        num += r[1] * (1.0 - r[0]);
        den += r[1] * r[1];
    }
    return den > 0 ? std::max(0.0, num / den) : std::nan("");
}

// The same with times x0 + s x1 + t x2, s and t at least zero: the 2 x 2 normal equations, or
// the better one-unknown fit where either would fall below zero.
std::pair<double, double> fit_two_ratios(const RatioRows& x) {
    double s11 = 0, s12 = 0, s22 = 0, r1 = 0, r2 = 0;
    for (const auto& r : x) {
        const double y = 1.0 - r[0];
        s11 += r[1] * r[1];
        s12 += r[1] * r[2];
        s22 += r[2] * r[2];
        r1 += r[1] * y;
        r2 += r[2] * y;
    }
    const double det = s11 * s22 - s12 * s12;
    if (det > 1e-12 * s11 * s22) {
        const double s = (r1 * s22 - r2 * s12) / det, t = (r2 * s11 - r1 * s12) / det;
        if (s >= 0 && t >= 0) return {s, t};
    }
    auto cost = [&](double a, double b) {
        double c = 0;
        for (const auto& r : x)
            c += std::pow(r[0] + a * r[1] + b * r[2] - 1.0, 2);
        return c;
    };
    if (!(s11 > 0) && !(s22 > 0)) return {std::nan(""), std::nan("")};
    const double s = s11 > 0 ? std::max(0.0, r1 / s11) : 0.0;
    const double t = s22 > 0 ? std::max(0.0, r2 / s22) : 0.0;
    return cost(s, 0) <= cost(0, t) ? std::pair{s, 0.0} : std::pair{0.0, t};
}

} // namespace cp::sim
