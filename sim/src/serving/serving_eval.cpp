#include "serving/serving_eval.h"

#include "engine/model_constants.h"
#include "serving/serving_queue.h"
#include "serving/serving_run_profile.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace cp::sim {

namespace {

constexpr double kGib = 1024.0 * 1024.0 * 1024.0;

bool is_decoder(const ServingSetup& st, int output_tokens) {
    return st.workload->kind == WorkloadKind::transformer && !st.workload->shape.encoder_only &&
           output_tokens > 0;
}

// Working buffers of one iteration on one device: the activations of the tokens in flight (one
// layer at a time: residual stream, attention and MLP intermediates, 16 bit) and the logits. An
// engine whose runtime sizes its logits and decoder buffers by the build's max batch holds them
// for the whole vocabulary on every rank, whatever the running batch; else the running batch's
// fp32 logits of the rank's vocabulary shard.
double activation_bytes(const ServingSetup& st, const EnginePolicy& policy, double iteration_tokens,
                        double batch) {
    const Workload& w = *st.workload;
    if (w.kind == WorkloadKind::generic)
        return batch * w.flops_per_sample / 3.0 * model::kGenericActivationBytesPerForwardFlop;
    const TransformerShape& s = w.shape;
    const double per_token = (6.0 * s.hidden + 3.0 * s.ffn_width() / st.tp) * 2.0;
    const double vocab = s.vocab;
    const double slots = policy.build_max_batch > 0 ? policy.build_max_batch : batch;
    const double logits = s.encoder_only ? 0.0
                          : policy.runtime_bytes_per_slot_vocab > 0
                              ? slots * vocab * policy.runtime_bytes_per_slot_vocab
                              : batch * vocab / st.tp * 4.0;
    return iteration_tokens * per_token + logits;
}

double kv_bytes_per_token_per_device(const ServingSetup& st) {
    const TransformerShape& s = st.workload->shape;
    const double layers = layers_per_stage(st);
    return 2.0 * layers * kv_heads_per_rank(st) * s.attention_head_dim() *
           storage_bytes(st.kv_cache);
}

// The prefill of `requests` prompts that ride in scheduler iterations the running decodes open
// anyway: where the decode step's program encodes prompts (in-flight batching packs the prompts'
// chunks and the decodes into one pass), the iteration's fixed cost per layer is the decode
// step's, already counted, not the prompts'.
ServingTerms shared_prefill_terms(const ServingSetup& st, double requests, int input_tokens,
                                  double chunk_tokens) {
    ServingTerms t = prefill_terms(st, requests, input_tokens, chunk_tokens);
    if (st.policy().prefill_in_step_program) t[ServingTerm::overhead] = 0;
    return t;
}

// Prefill seconds per prompt when prompts arriving at `prompts_per_s` share scheduler iterations
// of `step_s`: an iteration takes the prompts that arrived during the one before, 1 + rate x step
// on average (the one that opens it at least), at most what its token budget holds. Under light
// load each prompt runs its GEMMs alone (a 467-token prompt of a 70B model at 467 rows, not the
// 8192 of a full iteration); under a backlog they fill the budget.
double shared_prefill_s(const ServingSetup& st, const EngineFactors& f, int input_tokens,
                        double prompts_per_s, double step_s) {
    const double chunk = st.policy().max_batch_tokens;
    const double together =
        chunk > 0 ? std::max(1.0, std::floor(chunk / std::max(1, input_tokens))) : 1.0;
    const double k = std::clamp(1.0 + prompts_per_s * step_s, 1.0, together);
    return serving_time_s(shared_prefill_terms(st, k, input_tokens, chunk), f) / k +
           host_sampling_s(st, f);
}

// An engine that adds waiting prompts to a running batch only in groups (EnginePolicy
// waiting_served_ratio, max_waiting_steps: TGI's router) holds an arrival that finds `others`
// decoding until its group fills, ratio x the batch arrivals at `arrivals_per_s`, or until the
// step limit: half of the shorter on average.
double admission_wait_s(const EnginePolicy& p, double others, double arrivals_per_s,
                        double step_s) {
    if (p.max_waiting_steps <= 0 || !(others > 0)) return 0;
    const double group = std::max(1.0, std::floor(p.waiting_served_ratio * others));
    const double limit_s = p.max_waiting_steps * step_s;
    const double fill_s = arrivals_per_s > 0 ? (group - 1.0) / arrivals_per_s : limit_s;
    return 0.5 * std::min(fill_s, limit_s);
}

// The same where the arrival finds a batch running with probability 1 - e^-others (Poisson), as
// in run_load.
double likely_admission_wait_s(const EnginePolicy& p, double others, double arrivals_per_s,
                               double step_s) {
    return (1.0 - std::exp(-std::max(0.0, others))) *
           admission_wait_s(p, others, arrivals_per_s, step_s);
}

// Sequences the engine's scheduler runs at once at most: its cap, and where decodes share the
// iteration's token budget with the prompts, the decodes' share of that budget for requests of
// `input_tokens` / `output_tokens` (0 = no cap).
int running_cap(const EnginePolicy& p, int input_tokens, int output_tokens) {
    if (!p.decodes_in_token_budget || p.max_batch_tokens <= 0) return p.max_batch;
    // Every request passes its prompt and then one token per output step through the iterations'
    // budget: at a steady completion rate, the decodes hold at most output / (input + output) of
    // each iteration's tokens, the prompts being encoded the rest.
    const double total = std::max(1, input_tokens + output_tokens);
    const double share = output_tokens > 0 ? double(output_tokens) / total : 1.0;
    const int budget = std::max(1, int(std::floor(p.max_batch_tokens * share)));
    return p.max_batch > 0 ? std::min(p.max_batch, budget) : budget;
}

} // namespace

bool serves_generation(const ServingSetup& st, int output_tokens) {
    return is_decoder(st, output_tokens);
}

ServingTerms marginal_prefill_terms(const ServingSetup& st, const EnginePolicy& policy,
                                    int input_tokens) {
    const double chunk = policy.max_batch_tokens;
    const double together =
        chunk > 0 ? std::max(1.0, std::floor(chunk / std::max(1, input_tokens))) : 1.0;
    return shared_prefill_terms(st, together, input_tokens, chunk).scaled(1.0 / together);
}

ServingTerms decode_cycle_terms(const ServingSetup& st, const EnginePolicy& policy, double batch,
                                int input_tokens, int output_tokens) {
    const double context = decode_context_tokens(st, input_tokens, output_tokens);
    ServingTerms t = decode_step_terms(st, batch, context).scaled(output_tokens);
    if (policy.continuous_batching)
        t += marginal_prefill_terms(st, policy, input_tokens).scaled(batch);
    else
        t += prefill_terms(st, batch, input_tokens, 0);
    return t;
}

ServingTerms forward_terms(const ServingSetup& st, double batch, int input_tokens) {
    return st.workload->kind == WorkloadKind::generic ? cnn_terms(st, batch)
                                                      : encoder_terms(st, batch, input_tokens);
}

BatchPlan plan_batch(const ServingSetup& st, const EnginePolicy& policy, int input_tokens,
                     int output_tokens, std::optional<int> batch) {
    BatchPlan p;
    const double capacity = st.hw.device.memory_gib * kGib;
    const double weights =
        serving_weight_bytes(*st.workload, st.weights) * stage_weight_share(st) / st.tp;
    // CUDA context, cuBLAS/NCCL workspaces and allocator slack per GPU (the training model's
    // figure); the Neuron runtime keeps its buffers outside the cores' device memory.
    const double reserve_gib = st.hw.device.is_gpu ? model::kFrameworkReserveGib : 0.0;
    const double reserve = reserve_gib * kGib;
    p.memory.capacity = st.hw.device.memory_gib;
    p.memory.weights = weights / kGib;
    p.memory.reserve = reserve_gib;
    const bool decoder = is_decoder(st, output_tokens);
    if (!decoder) {
        // One forward pass per batch: no KV cache; the batch is what the request sets (default 1,
        // the latency-optimised setting the published encoder/CNN latencies use).
        p.batch = batch.value_or(1);
        const double act =
            activation_bytes(st, policy, double(p.batch) * std::max(1, input_tokens), p.batch);
        p.memory.activations = act / kGib;
        p.memory.total = p.memory.weights + p.memory.activations + p.memory.reserve;
        p.weights_fit = weights + reserve <= capacity;
        p.fits = p.memory.total <= p.memory.capacity;
        p.memory_batch = p.fits ? p.batch : 0;
        return p;
    }
    const int max_running = running_cap(policy, input_tokens, output_tokens);
    const double per_token = kv_bytes_per_token_per_device(st);
    const double seq_tokens = policy.reserve_full_sequence || !policy.continuous_batching
                                  ? double(input_tokens) + output_tokens
                                  : input_tokens + output_tokens / 2.0;
    // Activations depend on the batch; two passes settle it (the logits are the batch-dependent
    // part).
    double b = batch ? *batch : (max_running > 0 ? max_running : 256);
    double kv_budget = 0;
    for (int pass = 0; pass < 2; ++pass) {
        const double iteration_tokens = policy.max_batch_tokens > 0
                                            ? std::max<double>(policy.max_batch_tokens, b)
                                            : b * input_tokens;
        const double act = activation_bytes(st, policy, iteration_tokens, b);
        p.memory.activations = act / kGib;
        kv_budget = policy.kv_cache_tokens > 0 ? policy.kv_cache_tokens * per_token
                    : policy.kv_fraction_of_total
                        ? policy.kv_memory_fraction * capacity - weights - act - reserve
                        : policy.kv_memory_fraction * (capacity - weights - act - reserve);
        kv_budget = std::max(0.0, kv_budget);
        p.kv_capacity_tokens = kv_budget / per_token;
        p.memory_batch = int(std::min(1e7, std::floor(p.kv_capacity_tokens / seq_tokens)));
        b = batch ? *batch
                  : std::max(1, std::min(max_running > 0 ? max_running : 1 << 20, p.memory_batch));
    }
    p.weights_fit = weights + reserve < capacity;
    // The figures are still computed when nothing fits (fits = false says so): a published run
    // the memory model refuses is answered, not dropped.
    if (batch) {
        p.batch = *batch;
        p.fits = *batch <= p.memory_batch;
    } else {
        const int cap = max_running > 0 ? max_running : std::numeric_limits<int>::max();
        p.batch = std::max(1, std::min(cap, p.memory_batch));
        p.fits = p.memory_batch >= 1;
        p.batch_cap = p.memory_batch > cap;
        p.kv_bound = !p.batch_cap;
    }
    p.fits = p.fits && p.weights_fit;
    // Continuous-batching engines allocate their KV pool up front; static engines hold the batch.
    const double kv =
        policy.continuous_batching ? kv_budget : double(p.batch) * seq_tokens * per_token;
    p.memory.kv_cache = kv / kGib;
    p.memory.total = p.memory.weights + p.memory.kv_cache + p.memory.activations + p.memory.reserve;
    return p;
}

ServingCapacity serving_capacity(const ServingSetup& st, const EnginePolicy& policy,
                                 const EngineFactors& f, const BatchPlan& plan, int input_tokens,
                                 int output_tokens) {
    ServingCapacity c;
    if (plan.batch < 1) return c;
    const double b = plan.batch;
    if (st.workload->kind == WorkloadKind::generic || !is_decoder(st, output_tokens)) {
        const ServingTerms t = forward_terms(st, b, input_tokens);
        // An eagerly issued pass waits for the host as a decode step does (serving_host.cpp), and
        // no pass is shorter than reading its layer weights once.
        c.forward_s =
            std::max({serving_time_s(t, f), eager_issue_floor_s(st), forward_weight_stream_s(st)});
        c.step = serving_breakdown(t, f);
        c.cycle_s = c.forward_s;
        c.requests_per_s = b / c.forward_s;
        return c;
    }
    const double context = decode_context_tokens(st, input_tokens, output_tokens);
    const ServingTerms step = decode_step_terms(st, b, context);
    const double device_step_s = serving_time_s(step, f);
    c.decode_step_s = decode_step_s(st, step, f);
    c.step = serving_breakdown(step, f);
    // Where the first token comes from a decode step: the prompt but its last token, then that
    // step.
    const bool sampled_in_decode = st.first_token_from_decode_step;
    c.prefill_s = serving_time_s(prefill_terms(st, 1, input_tokens - (sampled_in_decode ? 1 : 0),
                                               policy.max_batch_tokens),
                                 f) +
                  (sampled_in_decode ? decode_step_s(st, decode_step_terms(st, 1, input_tokens), f)
                                     : host_sampling_s(st, f));
    c.prefill_budget_tokens = policy.max_batch_tokens;
    // A prompt that shares its scheduler iteration with others costs its own matrix and
    // attention work at the size of a full iteration; a static batch prefills in one pass.
    c.batch_prefill_s =
        policy.continuous_batching
            ? (serving_time_s(marginal_prefill_terms(st, policy, input_tokens), f) +
               host_sampling_s(st, f)) *
                  b
            : serving_time_s(prefill_terms(st, b, input_tokens, 0), f) + host_sampling_s(st, f);
    // Each of the cycle's decode steps lasts at least the host's issue time, and an overlapped
    // host loop takes its share out of the device's step (decode_step_s).
    c.cycle_s = serving_time_s(decode_cycle_terms(st, policy, b, input_tokens, output_tokens), f) +
                output_tokens * (c.decode_step_s - device_step_s);
    c.output_tokens_per_s = b * output_tokens / c.cycle_s;
    c.requests_per_s = b / c.cycle_s;
    return c;
}

ServingLoad serving_load(const ServingSetup& st, const EnginePolicy& policy, const EngineFactors& f,
                         const BatchPlan& plan, const ServingCapacity& c, int input_tokens,
                         int output_tokens, double rate, double quantile) {
    ServingLoad l;
    if (plan.batch < 1 || !(c.cycle_s > 0)) {
        l.overloaded = true;
        return l;
    }
    const bool saturated = !is_known(rate);
    l.utilization = saturated ? 1.0 : rate / c.requests_per_s;
    l.overloaded = !saturated && l.utilization >= 1.0;
    const double rho = saturated ? 0.0 : std::min(l.utilization, 0.999);
    if (st.workload->kind == WorkloadKind::generic || !is_decoder(st, output_tokens)) {
        l.latency_ms = 1e3 * (c.forward_s + md1_wait_s(rho, c.forward_s, quantile));
        l.running_batch = plan.batch;
        return l;
    }
    if (!policy.continuous_batching) {
        const double wait = md1_wait_s(rho, c.cycle_s, quantile);
        l.ttft_ms = 1e3 * (c.batch_prefill_s + wait);
        l.tpot_ms = 1e3 * c.decode_step_s;
        l.e2e_latency_ms = l.ttft_ms + (output_tokens - 1) * l.tpot_ms;
        l.running_batch = plan.batch;
        return l;
    }
    const double context = decode_context_tokens(st, input_tokens, output_tokens);
    // An overlap scheduler's next batch is already launched when a request arrives: one step more.
    const double ahead = policy.overlap_schedule ? 1.0 : 0.0;
    if (saturated) {
        const double marginal = c.batch_prefill_s / plan.batch;
        l.tpot_ms = 1e3 * c.decode_step_s *
                    (1.0 + plan.batch * marginal / (output_tokens * c.decode_step_s));
        l.ttft_ms = 1e3 * (c.prefill_s + (1.5 + ahead) * c.decode_step_s + f.request_overhead_s);
        l.running_batch = plan.batch;
        l.e2e_latency_ms = l.ttft_ms + (output_tokens - 1) * l.tpot_ms;
        return l;
    }
    // Little's law fixed point for the running batch (requests admitted to a slot); each step
    // also prefills the arrivals. Past capacity the slot queue cannot drain: the replica's
    // saturated service rate then sets the wait (M/D/1 at the capped utilisation).
    const double overload_wait =
        l.overloaded ? md1_wait_s(rho, 1.0 / c.requests_per_s, quantile) : 0.0;
    double b = 1.0, step_s = c.decode_step_s, ttft_s = c.prefill_s;
    for (int i = 0; i < 60; ++i) {
        const double decode_s = decode_step_s(st, decode_step_terms(st, b, context), f);
        const double marginal = shared_prefill_s(st, f, input_tokens, rate, step_s);
        const double share = std::min(0.95, rate * marginal);
        step_s = decode_s / (1.0 - share);
        const double stay_s = c.prefill_s + output_tokens * step_s;
        const double wait =
            l.overloaded ? overload_wait : slots_wait_s(rate, stay_s, plan.batch, quantile);
        // As in a benchmark run (run_load): the others' step and half an iteration where others
        // are decoding, an arrival finding the mean batch in flight.
        const double busy = 1.0 - std::exp(-b);
        ttft_s = c.prefill_s + busy * (1.5 + ahead) * step_s + wait +
                 prefill_queue_s(rate, marginal, quantile) + f.request_overhead_s +
                 likely_admission_wait_s(policy, b, rate, step_s);
        const double next = std::clamp(rate * stay_s, 1.0, double(plan.batch));
        if (std::abs(next - b) < 1e-3 * b) break;
        b = 0.5 * (b + next);
    }
    l.running_batch = b;
    l.tpot_ms = 1e3 * step_s;
    l.ttft_ms = 1e3 * ttft_s;
    l.e2e_latency_ms = l.ttft_ms + (output_tokens - 1) * l.tpot_ms;
    return l;
}

namespace {

// A run's figures once its decode step and slot wait have settled: TTFT adds the prefill, the
// slot wait, the engine's per-request overhead and the queue for earlier prompts' prefill, and,
// where other requests are decoding, their step in the prompt's own iteration and the wait for
// the iteration under way to end (requests join at iteration boundaries: half an iteration, or
// half a multi-step scheduler block, on average; an overlap scheduler's batch already launched
// behind it, one step more). `others` is the mean number of requests in
// flight an arrival finds; it finds at least one with probability 1 - e^-others (Poisson). A
// request alone on the replica produces its first token from its prefill pass; where the engine's
// output lags (SchedulerLoop::output_lag) the client sees it after the next step, alone or not.
FiniteRunLoad run_load(const ServingCapacity& c, const EngineFactors& f, double batch,
                       double others, double step_s, double wait_s, SchedulerLoop scheduler,
                       double prefill_wait_s, double output_tokens_per_s) {
    FiniteRunLoad r;
    const double block_wait_s =
        (0.5 * std::max(1, scheduler.steps) + (scheduler.overlap ? 1.0 : 0.0)) * step_s;
    const double busy = 1.0 - std::exp(-std::max(0.0, others));
    const double lag_s = scheduler.output_lag ? step_s : 0.0;
    r.running_batch = batch;
    r.tpot_ms = 1e3 * step_s;
    r.ttft_ms = 1e3 * (c.prefill_s + busy * (step_s + block_wait_s) + wait_s +
                       f.request_overhead_s + prefill_wait_s + lag_s);
    r.output_tokens_per_s = output_tokens_per_s;
    return r;
}

} // namespace

FiniteRunLoad serving_finite_run(const ServingSetup& st, const EngineFactors& f,
                                 const BatchPlan& plan, const ServingCapacity& c, int input_tokens,
                                 int output_tokens, double rate, int requests, double quantile,
                                 SchedulerLoop scheduler, bool paced, int output_tokens_max) {
    const double n = std::max(1, requests);
    const double slots = std::max(1, plan.batch);
    // The run lasts until its longest answer ends. Requests all present from the start see their
    // batch shrink as shorter answers finish; an arrival stream's requests see the run's body
    // (Little's law holds whatever the spread), its drain only lengthening the run.
    const double extra =
        longest_output_tokens(output_tokens, output_tokens_max, std::min(n, slots)) - output_tokens;
    const double context = decode_context_tokens(st, input_tokens, output_tokens);
    const double arrive_s = is_known(rate) && rate > 0 ? n / rate : 0.0;
    double b = std::min(slots, n), step_s = c.decode_step_s, wait_s = 0, duration_s = 0;
    double marginal = c.batch_prefill_s / slots;
    for (int i = 0; i < 80; ++i) {
        // Prompts arrive at the offered rate while arrivals last (all at once: over the run).
        const double prompts_per_s = arrive_s > 0     ? n / arrive_s
                                     : duration_s > 0 ? n / duration_s
                                                      : std::numeric_limits<double>::max();
        marginal =
            std::min(c.prefill_s, shared_prefill_s(st, f, input_tokens, prompts_per_s, step_s));
        const double stay_s = c.prefill_s + output_tokens * step_s;
        const double tail_s = arrive_s > 0 ? 0.0 : extra * step_s;
        // Slots bound the run: the replica completes at most `slots` requests per stay.
        const double mu = slots / stay_s;
        const double offered = arrive_s > 0 ? n / arrive_s : std::numeric_limits<double>::max();
        const bool slot_bound = n * stay_s / (arrive_s + stay_s) > slots;
        if (slot_bound && offered > mu) {
            duration_s = n / mu + stay_s + tail_s;
            wait_s = arrive_s > 0 ? finite_slot_wait_s(n, plan.batch, mu, offered, quantile)
                                  : 0.5 * n / mu;
        } else {
            duration_s = arrive_s + stay_s + tail_s;
            wait_s = slot_bound ? slots_wait_s(offered, stay_s, plan.batch, quantile) : 0.0;
        }
        // Work conservation: the run lasts at least as long as the replica needs for every
        // prompt's prefill and every decode step of its batches. Where that is longer than the
        // arrivals allow, the prompts wait their turn (on average half the excess).
        const double busy_s =
            n * marginal +
            n / b * output_tokens * decode_step_s(st, decode_step_terms(st, b, context), f);
        // Online arrivals that find a free slot are admitted at the next iteration (the
        // schedulers put waiting prompts first: vLLM's and SGLang's prefill-first iterations,
        // TensorRT-LLM's in-flight batching), so while the slots last the backlog is in the
        // running batch, whose longer decode steps carry it, not in front of the prefill.
        if (busy_s > duration_s) {
            if (arrive_s <= 0 || slot_bound) wait_s += 0.5 * (busy_s - duration_s);
            duration_s = busy_s;
        }
        const double next = std::clamp(n * stay_s / duration_s, 1.0, slots);
        const double share = std::min(0.95, n / duration_s * marginal);
        const double next_step =
            decode_step_s(st, decode_step_terms(st, next, context), f) / (1.0 - share);
        const bool settled =
            std::abs(next - b) < 1e-4 * b && std::abs(next_step - step_s) < 1e-4 * step_s;
        b = 0.5 * (b + next);
        step_s = 0.5 * (step_s + next_step);
        if (settled) break;
    }
    // A lone request finds no other prompt to wait behind (the queue of an open stream at the
    // run's rate would have it wait for its own prefill).
    const double prefill_wait_s =
        n <= 1         ? 0.0
        : arrive_s > 0 ? finite_prefill_wait_s(n, n / arrive_s, marginal, quantile, paced)
                       : prefill_queue_s(n / duration_s, marginal, quantile);
    // An arrival of the open stream finds the run's mean batch in flight (Poisson arrivals see
    // time averages); a paced request finds exactly those launched before it, request k k - 1 of
    // them (at most the batch), (n - 1) / 2 on average, and the group it waits to join grows
    // through the run.
    const double others = paced ? std::min(b, 0.5 * (n - 1.0)) : b;
    const double arrivals_per_s =
        arrive_s > 0 ? n / arrive_s : std::numeric_limits<double>::infinity();
    double admission_s = 0;
    if (paced) {
        for (int k = 2; k <= requests; ++k)
            admission_s +=
                admission_wait_s(st.policy(), std::min(b, k - 1.0), arrivals_per_s, step_s) / n;
    } else {
        admission_s = likely_admission_wait_s(st.policy(), others, arrivals_per_s, step_s);
    }
    FiniteRunLoad r =
        run_load(c, f, b, others, step_s, wait_s, scheduler, prefill_wait_s + admission_s,
                 n * output_tokens / (duration_s + (arrive_s > 0 ? extra * step_s : 0)));
    // A timed stream's requests see the batch of their own stay (serving_run_profile.h).
    const double stay_s = c.prefill_s + output_tokens * step_s;
    const auto decode_at = [&](double k) {
        return decode_step_s(st, decode_step_terms(st, k, context), f);
    };
    if (arrive_s > 0)
        r.tpot_ms = 1e3 * request_step_s(finite_run_stays(n, arrive_s, duration_s, stay_s, slots),
                                         b, step_s, quantile, decode_at);
    // A gap between two tokens of the running requests is one iteration: a decode step alone, or
    // one that also encodes a prompt, whether the engine runs the prompt in the decodes' iteration
    // (TensorRT-LLM's in-flight batching, vLLM's chunked prefill) or in one of its own, the
    // decodes paused (SGLang, mixed chunks off by default). An iteration holds a prompt only if one
    // arrived during the step before it, each prompt taking ceil(tokens / budget) of them:
    // 1 - e^(-rate x step x chunks) of the gaps (Poisson). While that is below one half the median
    // gap is a decode step alone; the mean (tpot) carries the prefills.
    const double decode_s = decode_at(b);
    const double prompts_per_s = n / (arrive_s > 0 ? arrive_s : duration_s);
    const double budget = st.policy().max_batch_tokens;
    const double chunks = budget > 0 ? std::ceil(input_tokens / budget) : 1.0;
    const bool prefill_in_half = 1.0 - std::exp(-prompts_per_s * decode_s * chunks) >= 0.5;
    r.median_gap_ms = 1e3 * (prefill_in_half ? step_s : decode_s);
    return r;
}

FiniteRunLoad serving_closed_loop(const ServingSetup& st, const EngineFactors& f,
                                  const BatchPlan& plan, const ServingCapacity& c, int input_tokens,
                                  int output_tokens, int clients, SchedulerLoop scheduler) {
    const double n = std::max(1, clients);
    const double b = std::min(n, double(std::max(1, plan.batch)));
    const double context = decode_context_tokens(st, input_tokens, output_tokens);
    const double decode_s = decode_step_s(st, decode_step_terms(st, b, context), f);
    double step_s = decode_s, wait_s = 0, cycle_s = 0;
    double marginal = c.batch_prefill_s / std::max(1, plan.batch);
    for (int i = 0; i < 80; ++i) {
        // A client sees its request's last token one step late where the engine's output lags.
        const double stay_s =
            c.prefill_s + (output_tokens + (scheduler.output_lag ? 1 : 0)) * step_s;
        wait_s = (n - b) * stay_s / b;
        cycle_s = wait_s + stay_s;
        marginal =
            std::min(c.prefill_s, shared_prefill_s(st, f, input_tokens, n / cycle_s, step_s));
        // A request's decode steps carry the other clients' prompts, never its own (its client
        // waits for it): n - 1 prompts per cycle.
        const double share = std::min(0.95, (n - 1.0) / cycle_s * marginal);
        const double next = decode_s / (1.0 - share);
        const bool settled = std::abs(next - step_s) < 1e-4 * step_s;
        step_s = 0.5 * (step_s + next);
        if (settled) break;
    }
    // A client's request finds the other clients' requests in flight.
    return run_load(c, f, b, b - 1.0, step_s, wait_s, scheduler,
                    prefill_queue_s(n / cycle_s, marginal, kUnknown) +
                        likely_admission_wait_s(st.policy(), b - 1.0, n / cycle_s, step_s),
                    n * output_tokens / cycle_s);
}

} // namespace cp::sim
