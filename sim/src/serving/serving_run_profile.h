// The running batch over a finite benchmark run, as each request sees it (DESIGN.md, "Inference
// serving", finite runs).
#pragma once

#include <functional>
#include <vector>

namespace cp::sim {

// Requests entering the replica within one slice of a finite run: how many, and the mean batch
// over their stay.
struct StayView {
    double requests = 0;
    double mean_batch = 0;
};

// A run of `n` requests lasting `duration_s`, each holding a slot for `stay_s`, with `slots` slots.
// Requests enter the running batch evenly over the run but its last stay (a Poisson stream's
// arrivals, given their count, are uniform over its window `arrive_s`; a run the replica's work
// stretches admits them over its longer body), in order while a slot is free, the others when
// one frees (fluid, first come first served). Returns one view per entry slice.
std::vector<StayView> finite_run_stays(double n, double arrive_s, double duration_s, double stay_s,
                                       double slots);

// The `quantile` (NaN: the mean) over a run's requests of their own time per output token: the
// run's step `run_step_s` (at its time-averaged batch `run_batch`, with its prompts' share)
// scaled by the decode step at the batch each request holds its slot beside. A per-request
// statistic (a benchmark's median or mean TPOT over requests) weights the batch by the requests
// present, so it exceeds the time average wherever the batch ramps up and drains (a run a few
// stays long); the affine decode step then sets the request's mean step at its mean batch.
double request_step_s(const std::vector<StayView>& views, double run_batch, double run_step_s,
                      double quantile, const std::function<double(double)>& decode_s);

} // namespace cp::sim
