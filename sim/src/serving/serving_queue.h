// Queueing formulas of the serving model: the waits before a request's prefill (DESIGN.md,
// "Inference serving", queueing).
#pragma once

namespace cp::sim {

// M/D/1 waiting time at utilisation rho with service time `service_s`: the mean, or the
// `quantile` of an exponential tail with P(wait > 0) = rho (NaN quantile = mean).
double md1_wait_s(double rho, double service_s, double quantile);

// Continuous batching admits a request at the next iteration while a batch slot (with its KV
// reservation) is free, so the queue before prefill is one for slots: M/D/c with c = the batch,
// each slot held for a request's whole stay (prefill and decode). Erlang C gives the chance of
// waiting (Erlang B recursion, stable for thousands of slots); deterministic stays halve the
// M/M/c wait (Cosmetatos' M/D/c approximation). `offered` = rate x stay = the running batch.
double slots_wait_s(double rate, double stay_s, int slots, double quantile);

// The slot wait of a finite run of `n` requests arriving at `rate` beyond the rate `mu` at which
// `slots` slots free up: the first arrivals take the free slots, and request k waits until
// k - slots requests have left. Stays of the mean length leave the slots in generations, request
// k waiting (k - slots / 2)(1/mu - 1/rate) averaged over a generation (renewal theory: a slot
// has completed t/stay - (1 - cv^2)/2 stays by t, cv = 0 here: Cox, Renewal Theory, 1962, the
// asymptotic renewal function). The `quantile` request's wait
// (rank quantile x n), or the mean over the run (NaN quantile).
double finite_slot_wait_s(double n, int slots, double mu, double rate, double quantile);

// A prompt is encoded within the scheduler iterations' token budget; one arriving while earlier
// prompts' prefill is still pending waits for it. M/D/1 on the prefill work: the service time is
// one prompt's share of a full iteration, the utilisation the prompt rate times that share.
double prefill_queue_s(double prompts_per_s, double marginal_s, double quantile);

} // namespace cp::sim
