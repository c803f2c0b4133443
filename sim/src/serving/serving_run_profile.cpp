#include "serving/serving_run_profile.h"

#include "clusterplan/sim/hardware.h"

#include <algorithm>
#include <cmath>
#include <utility>

namespace cp::sim {

namespace {
// Slices of a stay: enough that the ramp and the drain of a run a few stays long are resolved.
constexpr int kSlicesPerStay = 32;
} // namespace

std::vector<StayView> finite_run_stays(double n, double arrive_s, double duration_s, double stay_s,
                                       double slots) {
    std::vector<StayView> views;
    if (!(n > 0) || !(stay_s > 0) || !(slots > 0)) return views;
    arrive_s = std::max(arrive_s, duration_s - stay_s);
    const double dt = stay_s / kSlicesPerStay;
    const double rate = arrive_s > 0 ? n / arrive_s : 0.0;
    // Requests enter at most `slots` per stay once the slots are full: the run lasts until the
    // last of them leaves.
    const double end_s = std::max(arrive_s, n / slots * stay_s) + 2.0 * stay_s;
    // A run millions of slices long has no ramp to speak of: its requests see the time average.
    if (!(end_s / dt < 1e6)) return views;
    const int cells = int(std::ceil(end_s / dt));
    std::vector<double> entered(std::size_t(cells), 0.0), batch(std::size_t(cells), 0.0);
    double arrived = 0, admitted = 0, running = 0;
    for (int i = 0; i < cells; ++i) {
        const double t = (i + 1) * dt;
        arrived = arrive_s > 0 ? std::min(n, rate * t) : n;
        if (i >= kSlicesPerStay) running -= entered[std::size_t(i - kSlicesPerStay)];
        const double in = std::clamp(std::min(arrived - admitted, slots - running), 0.0, n);
        entered[std::size_t(i)] = in;
        admitted += in;
        running += in;
        batch[std::size_t(i)] = running;
        if (admitted >= n - 1e-9 && i >= kSlicesPerStay && running <= 1e-9) break;
    }
    for (int i = 0; i < cells; ++i) {
        if (!(entered[std::size_t(i)] > 1e-12)) continue;
        StayView v;
        v.requests = entered[std::size_t(i)];
        double held = 0;
        for (int k = i; k < std::min(cells, i + kSlicesPerStay); ++k)
            held += batch[std::size_t(k)];
        v.mean_batch = std::max(1.0, held / kSlicesPerStay);
        views.push_back(v);
    }
    return views;
}

double request_step_s(const std::vector<StayView>& views, double run_batch, double run_step_s,
                      double quantile, const std::function<double(double)>& decode_s) {
    const double run_decode_s = decode_s(run_batch);
    if (views.empty() || !(run_decode_s > 0)) return run_step_s;
    std::vector<std::pair<double, double>> steps; // (step, requests)
    steps.reserve(views.size());
    double total = 0, sum = 0;
    for (const StayView& v : views) {
        const double x = run_step_s * decode_s(v.mean_batch) / run_decode_s;
        steps.emplace_back(x, v.requests);
        total += v.requests;
        sum += x * v.requests;
    }
    if (!is_known(quantile)) return sum / total;
    std::sort(steps.begin(), steps.end());
    double below = 0;
    for (const auto& [x, w] : steps) {
        below += w;
        if (below >= quantile * total) return x;
    }
    return steps.back().first;
}

} // namespace cp::sim
