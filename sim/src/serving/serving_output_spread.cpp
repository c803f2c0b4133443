// The longest answer of a finite run whose answers end at their end-of-sequence token.
#include "serving/serving_eval.h"

#include <algorithm>

namespace cp::sim {

// A run that honours EOS under a max_tokens cap states only the answers' mean length and the cap.
// With nothing known between those bounds, the lengths are taken as spread evenly over the widest
// range they allow: [2 mean - cap, cap] when the mean is at least half the cap, else [1, 2 mean -
// 1]. The longest of k draws from an even spread [lo, hi] is expected at hi - (hi - lo) / (k + 1)
// (the k-th order statistic of k uniform draws), so a run of many requests ends near the cap and a
// lone request at the mean.
double longest_output_tokens(double mean, int cap, double draws) {
    if (!(cap > mean) || !(draws > 1.0) || !(mean >= 1.0)) return mean;
    const double hi = std::min(double(cap), 2.0 * mean - 1.0);
    const double lo = 2.0 * mean - hi;
    return hi - (hi - lo) / (draws + 1.0);
}

} // namespace cp::sim
