#include "clusterplan/sim/serving_fit.h"
#include "serving/serving_eval.h"
#include "serving/serving_run_setup.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace cp::sim {

// Model copies a forward-pass run keeps busy at once: one per NeuronCore the run loads (a GPU
// is one core).
double copies_running(const ServingRun& run, const ServingSetup& st) {
    const int cores = st.hw.cores_per_chip;
    return run.models > 0 ? std::min(run.models, cores) : cores;
}

// The replica a run measured. A chip's cores share its memory: where a run loads fewer model
// copies than the chip has cores (NeuronPerf's n_models below the core count), the idle cores
// draw nothing and each copy streams at the chip's bandwidth over the copies.
ServingSetup run_setup(const ServingRun& run, const NodeSpec& node) {
    // A system whose GPUs are a point-to-point NVLink board keeps the instance's accelerator and
    // per-GPU link total; its collectives see the board's mesh (collectives.cpp, mesh_share).
    NodeSpec board = node;
    if (run.nvlink_mesh_gpus > 0) {
        board.accelerators_per_node = run.nvlink_mesh_gpus;
        board.intra_link = IntraNodeLink::nvlink;
    }
    ServingSetup st = make_serving_setup(run.workload, board, run.engine, run.weights, run.kv_cache,
                                         run.tp, 1, nullptr);
    // A run that states its attention implementation (NxD Inference's --attn-kernel-enabled: the
    // NKI flash-attention kernel) overrides the engine's default.
    if (run.fused_attention) st.fused_attention = *run.fused_attention;
    st.context_buckets = run.context_buckets;
    st.generation_buckets = run.generation_buckets;
    st.sequence_parallel = run.sequence_parallel;
    st.transformers_neuronx = run.transformers_neuronx && neuron_devices(st.hw);
    st.async_host_loop = run.async_host_loop;
    st.host_sampling = run.host_sampling;
    st.eager_decode = run.eager_decode;
    st.first_token_from_decode_step = run.first_token_from_decode_step;
    st.gqa_shared_kv_reads = run.gqa_shared_kv_reads;
    const int cores = st.hw.cores_per_chip;
    if (run.models > 0 && run.models < cores && run.tp == 1)
        st.rates.hbm_bytes_per_s *= double(cores) / run.models;
    // A server on Neuron decodes at the batch its graphs were compiled for.
    const EnginePolicy& policy = st.policy();
    if (neuron_devices(st.hw) && policy.continuous_batching)
        st.compiled_decode_batch = run.batch > 0 ? run.batch : policy.max_batch;
    return st;
}

// The engine's policy as the run configured it (a KV memory fraction the benchmark set).
EnginePolicy run_policy(const ServingRun& run, const NodeSpec& node) {
    EnginePolicy policy = engine_policy(run.engine, neuron_devices(node));
    if (is_known(run.kv_memory_fraction)) policy.kv_memory_fraction = run.kv_memory_fraction;
    // A stated max batch is the build's (trtllm-bench runs at the engine's max batch), which also
    // sizes the runtime's buffers where the engine allocates them by it.
    if (run.max_batch > 0) policy.max_batch = policy.build_max_batch = run.max_batch;
    if (is_known(run.runtime_bytes_per_slot_vocab) && policy.runtime_bytes_per_slot_vocab > 0)
        policy.runtime_bytes_per_slot_vocab = run.runtime_bytes_per_slot_vocab;
    if (run.kv_cache_tokens > 0) policy.kv_cache_tokens = run.kv_cache_tokens;
    if (run.prefill_tokens_per_iteration >= 0)
        policy.max_batch_tokens = run.prefill_tokens_per_iteration;
    policy.overlap_schedule = run.overlap_schedule;
    if (run.kv_admitted_by_use) policy.reserve_full_sequence = !*run.kv_admitted_by_use;
    return policy;
}

namespace {

bool measures_throughput(ServingMetric m) {
    return m == ServingMetric::output_tokens_per_s || m == ServingMetric::samples_per_s;
}

} // namespace

double predict_serving_run(const ServingRun& run, const NodeSpec& node,
                           const ServingFactors& factors, std::string* why) {
    // A LoadGen Server or Interactive run is a finite run from an empty system: LoadGen issues
    // its Poisson schedule of generated_query_count queries and reports their mean latencies and
    // the tokens per second to the last completion (mlcommons/inference@b66003e1
    // loadgen/results.cc), so near capacity the queue it sees is the run's transient, not the
    // steady state's 1 / (1 - utilisation).
    if (run.loadgen_queries > 0 && run.requests == 0 && run.concurrency == 0) {
        ServingRun finite = run;
        finite.requests = run.loadgen_queries;
        return predict_serving_run(finite, node, factors, why);
    }
    if (run.replicas > 1) {
        // Data-parallel copies split the load evenly; the system's throughput is theirs summed.
        ServingRun one = run;
        one.replicas = 1;
        const double r = run.replicas;
        if (is_known(run.request_rate_per_s)) one.request_rate_per_s = run.request_rate_per_s / r;
        if (run.requests > 0) one.requests = std::max(1, int(std::ceil(run.requests / r)));
        if (run.concurrency > 0) one.concurrency = std::max(1, int(std::ceil(run.concurrency / r)));
        const double p = predict_serving_run(one, node, factors, why);
        // Fewer clients than copies keep only as many copies busy.
        const double busy = run.concurrency > 0 ? std::min(r, double(run.concurrency)) : r;
        return measures_throughput(run.metric) ? p * busy : p;
    }
    if (run.counted_tokens_per_token != 1.0) {
        // The benchmark counts r tokens per token the model serves: the model serves the prompt
        // and answer in 1/r the tokens, and the benchmark reports r times its tokens/s and 1/r of
        // its latency per token.
        ServingRun served = run;
        const double r = run.counted_tokens_per_token;
        served.counted_tokens_per_token = 1.0;
        served.input_tokens = std::max(1, int(std::lround(run.input_tokens / r)));
        if (run.output_tokens > 0)
            served.output_tokens = std::max(1, int(std::lround(run.output_tokens / r)));
        const double p = predict_serving_run(served, node, factors, why);
        if (run.metric == ServingMetric::output_tokens_per_s) return p * r;
        if (run.metric == ServingMetric::tpot_ms) return p / r;
        return p;
    }
    if (run.per_token_of_request && run.metric == ServingMetric::tpot_ms) {
        // The request's latency (first token, then a step per further token) over its tokens.
        ServingRun first = run, step = run;
        first.per_token_of_request = step.per_token_of_request = false;
        first.metric = ServingMetric::ttft_ms;
        const double n = std::max(1, run.output_tokens);
        return (predict_serving_run(first, node, factors, why) +
                (n - 1) * predict_serving_run(step, node, factors, why)) /
               n;
    }
    const ServingSetup st = run_setup(run, node);
    if (const std::string gap = serving_hardware_gap(st); !gap.empty()) {
        if (why) *why = gap;
        return kUnknown;
    }
    const EnginePolicy policy = run_policy(run, node);
    const EngineFactors& f = factors.of(factor_engine(run.engine, neuron_devices(st.hw)),
                                        serves_generation(st, run.output_tokens));
    const std::optional<int> batch = run.batch > 0 ? std::optional<int>(run.batch) : std::nullopt;
    const BatchPlan plan = plan_batch(st, policy, run.input_tokens, run.output_tokens, batch);

    const ServingCapacity cap =
        serving_capacity(st, policy, f, plan, run.input_tokens, run.output_tokens);
    const ServingLoad load = serving_load(st, policy, f, plan, cap, run.input_tokens,
                                          run.output_tokens, run.request_rate_per_s, run.quantile);
    const bool online = is_known(run.request_rate_per_s);
    const bool finite = run.requests > 0 || run.concurrency > 0;
    if (policy.continuous_batching && finite && run.output_tokens > 0) {
        // A finite benchmark run or a closed-loop sweep: no open-arrival steady state to assume.
        const SchedulerLoop loop{run.scheduler_steps, policy.overlap_schedule,
                                 run.async_output_processing};
        const FiniteRunLoad fr =
            run.waves ? serving_client_waves(st, f, plan, cap, run.input_tokens, run.output_tokens,
                                             run.concurrency, *run.waves, run.quantile, loop)
            : run.concurrency > 0
                ? serving_closed_loop(st, f, plan, cap, run.input_tokens, run.output_tokens,
                                      run.concurrency, loop)
                : serving_finite_run(st, f, plan, cap, run.input_tokens, run.output_tokens,
                                     run.request_rate_per_s, run.requests, run.quantile, loop,
                                     false, run.output_tokens_max);
        if (run.metric == ServingMetric::ttft_ms) return fr.ttft_ms;
        // The median of the gaps between tokens (most iterations carry no prompt).
        if (run.metric == ServingMetric::tpot_ms && run.per_gap && run.quantile == 0.5 &&
            fr.median_gap_ms > 0)
            return fr.median_gap_ms;
        if (run.metric == ServingMetric::tpot_ms) return fr.tpot_ms;
        if (run.metric == ServingMetric::output_tokens_per_s) return fr.output_tokens_per_s;
        if (run.metric == ServingMetric::latency_ms)
            return fr.ttft_ms + (run.output_tokens - 1) * fr.tpot_ms;
        if (run.metric == ServingMetric::samples_per_s)
            return fr.output_tokens_per_s / run.output_tokens;
    }
    if (serves_generation(st, run.output_tokens)) {
        // A decoder's request latency and request rate.
        if (run.metric == ServingMetric::latency_ms) return load.e2e_latency_ms;
        if (run.metric == ServingMetric::samples_per_s)
            return online ? std::min(run.request_rate_per_s, cap.requests_per_s)
                          : cap.requests_per_s;
    }
    switch (run.metric) {
    case ServingMetric::output_tokens_per_s:
        return online ? std::min(run.request_rate_per_s, cap.requests_per_s) * run.output_tokens
                      : cap.output_tokens_per_s;
    case ServingMetric::tpot_ms:
        if (online || policy.continuous_batching) return load.tpot_ms;
        // A quantile of a static batch's steps: the step at that fraction of the answer.
        if (is_known(run.quantile))
            return 1e3 * decode_step_s(st,
                                       decode_step_terms(st, plan.batch,
                                                         decode_context_tokens(st, run.input_tokens,
                                                                               run.output_tokens,
                                                                               run.quantile)),
                                       f);
        return 1e3 * cap.decode_step_s;
    case ServingMetric::ttft_ms:
        return load.ttft_ms;
    case ServingMetric::latency_ms:
        // LoadGen times a query from issue to completion: the harness's per-query host work too.
        return 1e3 *
               (cap.forward_s * run.workers_per_model + (run.loadgen ? f.request_overhead_s : 0.0));
    case ServingMetric::samples_per_s:
        // An open-loop run completes at most what arrives.
        return online
                   ? std::min(run.request_rate_per_s, cap.requests_per_s * copies_running(run, st))
                   : cap.requests_per_s * copies_running(run, st);
    }
    return kUnknown;
}

std::vector<ServingRunCheck> validate_serving_runs(const ServingRunSet& set,
                                                   const NodeResolver& resolve) {
    const ServingFactors all = fit_serving_factors(set, resolve);
    std::map<std::string, ServingFactors> left_out;
    for (const auto& [source, citation] : set.sources)
        left_out[source] = fit_serving_factors(set, resolve, source);
    std::vector<ServingRunCheck> checks;
    for (const ServingRun& run : set.runs) {
        ServingRunCheck c;
        c.run = &run;
        const auto node = resolve(run.instance);
        if (!node) {
            c.why = "instance '" + run.instance + "' is not in the catalog";
            checks.push_back(std::move(c));
            continue;
        }
        c.predicted = predict_serving_run(run, *node, all, &c.why);
        c.predicted_left_out = predict_serving_run(run, *node, left_out.at(run.source));
        checks.push_back(std::move(c));
    }
    return checks;
}

} // namespace cp::sim
