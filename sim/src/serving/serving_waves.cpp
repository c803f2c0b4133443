#include "serving/serving_eval.h"

#include <algorithm>
#include <cmath>

namespace cp::sim {

namespace {

// Mean wait for the first token beyond a prompt's own prefill when a wave of `admitted` prompts
// of `input_tokens` reaches an idle replica at once. Each scheduler iteration takes prompts up to
// the engine's token budget and samples their first tokens at its end (vLLM's chunked prefill,
// TensorRT-LLM's in-flight batching); with no budget (0) one iteration takes every waiting prompt
// (TurboMind's LlamaBatch::Forward runs the prefill of all admitted prompts, in mini-batches,
// before it samples). Prompt k of the wave gets its first token once the iterations up to its own
// are done, ceil(k / p) p prompts' prefill with p prompts per iteration (at most the wave).
double wave_first_token_wait_s(int admitted, int input_tokens, int budget_tokens,
                               double prompt_prefill_s) {
    if (admitted <= 1) return 0;
    const double all = admitted;
    const double per_iteration =
        budget_tokens > 0 ? double(budget_tokens) / std::max(1, input_tokens) : all;
    double prompts_before = 0;
    for (int k = 1; k <= admitted; ++k)
        prompts_before += std::min(all, std::ceil(k / per_iteration) * per_iteration) - 1.0;
    return prompt_prefill_s * prompts_before / all;
}

} // namespace

FiniteRunLoad serving_client_waves(const ServingSetup& st, const EngineFactors& f,
                                   const BatchPlan& plan, const ServingCapacity& c,
                                   int input_tokens, int output_tokens, int clients,
                                   const ClientWaves& waves, double quantile,
                                   SchedulerLoop scheduler) {
    const double n = std::max(1, clients);
    const double rate = waves.launch_interval_s > 0 ? 1.0 / waves.launch_interval_s : kUnknown;
    FiniteRunLoad r = serving_finite_run(st, f, plan, c, input_tokens, output_tokens, rate, clients,
                                         quantile, scheduler, true);
    if (!(r.output_tokens_per_s > 0)) return r;
    // A wave sent all at once that the replica holds whole: its prompts share the first
    // iterations, each prompt's GEMMs at the size of the iteration it joins (the whole wave when
    // one iteration takes every prompt).
    if (!(waves.launch_interval_s > 0) && clients > 1 && clients <= plan.batch) {
        const int budget = c.prefill_budget_tokens;
        const double together =
            budget > 0 ? std::clamp(std::floor(double(budget) / std::max(1, input_tokens)), 1.0, n)
                       : n;
        // An engine whose first decode step takes each prompt's last token encodes the rest.
        const int encoded = st.first_token_from_decode_step ? input_tokens - 1 : input_tokens;
        const double prompt_s =
            serving_time_s(prefill_terms(st, together, encoded, budget), f) / together;
        r.ttft_ms = 1e3 * (c.prefill_s + f.request_overhead_s +
                           wave_first_token_wait_s(clients, input_tokens, budget, prompt_s));
    }
    const double wave_s = n * output_tokens / r.output_tokens_per_s;
    const double count = std::ceil(std::max(1, waves.requests) / n);
    const double slots = std::max(1, waves.worker_slots);
    const double starts = std::ceil(std::max(0.0, n - slots) / slots);
    r.output_tokens_per_s =
        count * n * output_tokens / (count * wave_s + starts * waves.worker_start_s);
    return r;
}

} // namespace cp::sim
