// One serving deployment evaluated: the batch memory allows, the step times, throughput and
// latency at a request rate (queueing), for decoder LLMs, encoders and CNNs.
//
// Queueing model (stated in every report): requests arrive as a Poisson stream split evenly over
// replicas; a replica serves them at a deterministic rate up to its saturated capacity mu, so the
// wait before prefill is that of an M/D/1 queue, E[Wq] = rho/(2(1-rho)) / mu (Pollaczek-Khinchine;
// Kingman's G/G/1 form with c_a^2 = 1, c_s^2 = 0), with an exponential tail P(Wq > t) ~ rho e^(-t
// rho/E[Wq]) for quantiles. With continuous batching the running batch follows Little's law, B =
// lambda x (TTFT + output_tokens x TPOT(B)), solved by fixed-point iteration, and each decode step
// also carries the prefill of the requests that arrived during it.
#pragma once

#include "clusterplan/sim/serving.h"
#include "clusterplan/sim/serving_engine.h"
#include "clusterplan/sim/serving_runs.h"
#include "serving/serving_model.h"

namespace cp::sim {

// How many sequences fit and what caps them.
struct BatchPlan {
    int batch = 1;                 // sequences run together (at least 1, even when nothing fits)
    bool fits = true;              // weights, activations and the batch's KV cache fit
    int memory_batch = 0;          // the most the KV cache holds
    double kv_capacity_tokens = 0; // per replica
    bool kv_bound = false;         // memory, not the scheduler cap or the request, sets the batch
    bool batch_cap = false;        // the engine's scheduler cap sets it
    bool weights_fit = true;
    ServingMemoryGib memory; // per device at `batch`
};

// `batch` given: that batch (memory is checked); else the most the engine runs.
BatchPlan plan_batch(const ServingSetup& setup, const EnginePolicy& policy, int input_tokens,
                     int output_tokens, std::optional<int> batch);

// Work of serving `batch` requests (decoders): every decode step at the mean context plus the
// prompts' prefill (shared iterations with continuous batching, one batch pass otherwise).
ServingTerms decode_cycle_terms(const ServingSetup& setup, const EnginePolicy& policy, double batch,
                                int input_tokens, int output_tokens);
// One prompt's marginal prefill work when it shares scheduler iterations (continuous batching).
ServingTerms marginal_prefill_terms(const ServingSetup& setup, const EnginePolicy& policy,
                                    int input_tokens);
// One forward pass of an encoder (transformer) or CNN (generic model) at `batch`.
ServingTerms forward_terms(const ServingSetup& setup, double batch, int input_tokens);
bool serves_generation(const ServingSetup& setup, int output_tokens);

// Saturated figures of one replica at its planned batch.
struct ServingCapacity {
    double cycle_s = 0;             // time to serve one batch's worth of requests
    double output_tokens_per_s = 0; // decoders
    double requests_per_s = 0;      // decoders: completed requests; encoders/CNNs: samples
    double prefill_s = 0;           // one request's prefill alone (decoders)
    double batch_prefill_s = 0;     // the whole static batch's prefill (static engines)
    double decode_step_s = 0;       // at the planned batch and its mean context
    double forward_s = 0;           // encoders/CNNs: one batch
    int prefill_budget_tokens = 0;  // prompt tokens per scheduler iteration, 0 = every waiting one
    ServingStepBreakdown step;      // decode step (decoders) or forward pass split
};
ServingCapacity serving_capacity(const ServingSetup& setup, const EnginePolicy& policy,
                                 const EngineFactors& factors, const BatchPlan& plan,
                                 int input_tokens, int output_tokens);

// Latency at a request rate per replica (NaN rate = saturated; TTFT then has no queue).
struct ServingLoad {
    double ttft_ms = 0, tpot_ms = 0, e2e_latency_ms = 0;
    double latency_ms = 0;    // encoders/CNNs: one batch incl. queueing at quantile p
    double running_batch = 0; // mean sequences in flight
    double utilization = 0;   // rho = lambda / mu
    bool overloaded = false;
};
ServingLoad serving_load(const ServingSetup& setup, const EnginePolicy& policy,
                         const EngineFactors& factors, const BatchPlan& plan,
                         const ServingCapacity& capacity, int input_tokens, int output_tokens,
                         double rate_per_replica, double quantile);

// A benchmark run of `requests` requests offered to one continuous-batching replica as a Poisson
// stream at `rate` (the published online measurements): the run never reaches a steady state when
// a request's stay is comparable to the arrival window, so the mean concurrency follows Little's
// law over the run, B = N x stay / duration, with duration = arrivals N/rate plus one stay (the
// last request's). Requests queue only when B would exceed the batch the replica holds: they are
// then served at mu = batch / stay, and request k waits k (1/mu - 1/rate). Each decode step
// carries the prompts entering at N/duration, so prefill takes that share of the replica. With
// multi-step scheduling (`scheduler_steps` decode steps per scheduler call) a request arrives
// uniformly within a block and waits for its end: half a block on average and at the median.
// With an overlap scheduler (SchedulerLoop::overlap) the scheduler has already launched the next
// batch when a request arrives, so the request waits for that batch too: one step more.
// `paced`: the requests arrive exactly 1/rate apart (a client launching them in turn), not as a
// Poisson stream.
// How an engine's scheduler steps: `steps` decode steps per scheduler call (vLLM
// --num-scheduler-steps) and whether it prepares the next batch on the host while the device runs
// the current one (SGLang's overlap scheduler, on by default from v0.4: it runs one batch ahead,
// lmsys.org/blog/2024-12-04-sglang-v0-4, "Zero-Overhead Batch Scheduler").
// `output_lag`: the engine hands a step's tokens to the request streams during the next step
// (vLLM V0's asynchronous output processor), so the first token, and a request's end, reach the
// client one decode step later than they are sampled.
struct SchedulerLoop {
    int steps = 1;
    bool overlap = false;
    bool output_lag = false;
};
struct FiniteRunLoad {
    double ttft_ms = 0, tpot_ms = 0;
    double output_tokens_per_s = 0; // generated tokens / run duration
    double running_batch = 0;       // mean sequences in flight over the run
    // Median gap between two tokens of the running requests (0: as tpot_ms).
    double median_gap_ms = 0;
};
FiniteRunLoad serving_finite_run(const ServingSetup& setup, const EngineFactors& factors,
                                 const BatchPlan& plan, const ServingCapacity& capacity,
                                 int input_tokens, int output_tokens, double rate, int requests,
                                 double quantile, SchedulerLoop scheduler = {}, bool paced = false,
                                 int output_tokens_max = 0);

// Expected longest of `draws` answers of mean length `mean` that stop at their end-of-sequence
// token, at most `cap` tokens (the run's max_tokens; 0 or `mean`: every answer is `mean` long).
double longest_output_tokens(double mean, int cap, double draws);

// `clients` closed-loop clients, each sending its next request when the last one completes (the
// concurrency sweeps of genai-perf/AIPerf and TGI's virtual users): the replica holds
// B = min(clients, batch) requests; the others wait for a slot, (clients - B) completions at
// mu = B / stay. Each client cycles once per wait + stay, which sets the prompt arrival rate.
FiniteRunLoad serving_closed_loop(const ServingSetup& setup, const EngineFactors& factors,
                                  const BatchPlan& plan, const ServingCapacity& capacity,
                                  int input_tokens, int output_tokens, int clients,
                                  SchedulerLoop scheduler = {});

// A benchmark client that sends waves of `clients` requests (ClientWaves, serving_runs.h): each
// wave is a finite run of `clients` requests arriving one launch interval apart (latencies as
// serving_finite_run gives them); the run sends whole waves until `waves.requests` are complete,
// one after another, and starts the client workers beyond the node's started ones within its
// time: throughput is the waves' tokens over their durations plus those starts.
FiniteRunLoad serving_client_waves(const ServingSetup& setup, const EngineFactors& factors,
                                   const BatchPlan& plan, const ServingCapacity& capacity,
                                   int input_tokens, int output_tokens, int clients,
                                   const ClientWaves& waves, double quantile,
                                   SchedulerLoop scheduler = {});

} // namespace cp::sim
