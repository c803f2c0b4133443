// One-dimensional grid search for the constants fitted with the framework factors refitted at
// each point (te_attention_fit.cpp, overlap_contention_fit.cpp): the constant and the factors are
// not separable in one linear fit.
#pragma once

#include <cmath>
#include <limits>

namespace cp::sim {

// The point of lo, lo + step, ... (and hi itself when the steps do not land on it) with the
// lowest error(point); the first such point on ties.
template <class Error> double grid_argmin(double lo, double hi, double step, Error&& error) {
    double best = hi, best_error = std::numeric_limits<double>::infinity();
    const int steps = static_cast<int>(std::floor((hi - lo) / step + 1e-9));
    const bool add_hi = lo + step * steps < hi - 1e-9;
    for (int i = 0; i <= steps + (add_hi ? 1 : 0); ++i) {
        const double x = i <= steps ? lo + step * i : hi;
        const double e = error(x);
        if (e < best_error) {
            best_error = e;
            best = x;
        }
    }
    return best;
}

} // namespace cp::sim
