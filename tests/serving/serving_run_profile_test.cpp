// The running batch of a finite run as its requests see it (serving_run_profile.h).
#include "serving/serving_run_profile.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace cp::sim;

namespace {
double request_weighted_batch(const std::vector<StayView>& views) {
    double total = 0, sum = 0;
    for (const StayView& v : views) {
        total += v.requests;
        sum += v.requests * v.mean_batch;
    }
    return sum / total;
}
} // namespace

TEST_CASE("finite run: its requests see the request-weighted batch, lS (1 - S / 3A)") {
    // 300 requests over 12 s (25/s), each staying 8 s, slots to spare: the batch ramps to 200.
    const auto views = finite_run_stays(300, 12.0, 20.0, 8.0, 1000);
    double requests = 0;
    for (const StayView& v : views)
        requests += v.requests;
    CHECK_REL(requests, 300.0, 1e-9);
    CHECK_REL(request_weighted_batch(views), 200.0 * (1.0 - 8.0 / 36.0), 0.03);
    // The time average is N S / (A + S) = 120; the median request (the batch over a stay is
    // symmetric about the window's middle) enters a quarter into it: 25 (5 x 5.5 + 3 x 8) / 8 =
    // 161.
    const double median = request_step_s(views, 120.0, 1.0, 0.5, [](double b) { return b; });
    CHECK(median > 1.3);
    // An affine step at the run's batch gives the run's step back.
    CHECK_REL(request_step_s({{1.0, 50.0}}, 50.0, 0.02, 0.5, [](double b) { return 0.01 + b; }),
              0.02, 1e-12);
}

TEST_CASE("finite run: the slots cap the batch any request sees, and a stretched run spreads "
          "its entries") {
    const auto capped = finite_run_stays(300, 3.0, 0.0, 8.0, 128);
    for (const StayView& v : capped)
        CHECK(v.mean_batch <= 128.0 + 1e-9);
    // Entries over the run but its last stay (100 s - 10 s) instead of the 10 s arrival window.
    const auto stretched = finite_run_stays(90, 10.0, 100.0, 10.0, 1000);
    CHECK(request_weighted_batch(stretched) < 11.0);
    CHECK(finite_run_stays(0, 1.0, 1.0, 1.0, 1).empty());
    // A run far longer than a stay: no slicing, the run's own step.
    const auto long_run = finite_run_stays(1e9, 1e9, 1e9, 1e-3, 256);
    CHECK(long_run.empty());
    CHECK(request_step_s(long_run, 100.0, 0.02, 0.5, [](double b) { return b; }) == 0.02);
}
