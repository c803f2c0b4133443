#include "clusterplan/sim/serving_fit.h"

#include "engine/model_constants.h"
#include "serving/serving_eval.h"
#include "serving/serving_ratio_fit.h"
#include "serving/serving_run_setup.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <map>

namespace cp::sim {

namespace {

// The runs a factor was fitted on, and their sources once each, as the factor sentence lists them.
void record_fitted_runs(const std::vector<const ServingRun*>& runs, EngineFactors& f) {
    for (const ServingRun* r : runs) {
        f.runs.push_back(r->id);
        if (std::find(f.sources.begin(), f.sources.end(), r->source) == f.sources.end())
            f.sources.push_back(r->source);
    }
}

struct Equation {
    ServingTerms terms;   // seconds at datasheet rates (overhead: layer-passes)
    double target_s = 0;  // the measured time the terms must add up to
    bool decoder = false; // a generating model's step, prefill or cycle
};

// The measured figure of `run` as a time and the terms the model adds up to it.
std::optional<Equation> equation_for(const ServingRun& run, const NodeSpec& node) {
    const ServingSetup st = run_setup(run, node);
    if (!serving_hardware_gap(st).empty()) return std::nullopt;
    const EnginePolicy policy = run_policy(run, node);
    const std::optional<int> batch = run.batch > 0 ? std::optional<int>(run.batch) : std::nullopt;
    const BatchPlan plan = plan_batch(st, policy, run.input_tokens, run.output_tokens, batch);
    if (!plan.fits) return std::nullopt; // fitted only where the memory model agrees it ran
    // A system of copies is checked, not fitted, unless one client keeps one copy busy (its
    // figures are that copy's own).
    if (run.replicas > 1 && run.concurrency != 1) return std::nullopt;
    // Closed-loop clients: one client alone has the copy's own decode step and first token;
    // other figures depend on how the clients' requests interleave (checked, not fitted).
    if (run.concurrency > 0 && (run.concurrency != 1 || (run.metric != ServingMetric::tpot_ms &&
                                                         run.metric != ServingMetric::ttft_ms)))
        return std::nullopt;
    // Figures in another tokenizer's tokens or spread over whole requests: checked, not fitted.
    if (run.counted_tokens_per_token != 1.0 || run.per_token_of_request) return std::nullopt;
    // A decode step bounded by the host's issue time (eager launches), or the longer of an
    // overlapped host loop and the device's step, is not linear in the factors: such runs are
    // checked, not fitted.
    if (st.eager_decode || st.host_loop_overlapped()) return std::nullopt;
    const double b = plan.batch;
    Equation e;
    e.decoder = serves_generation(st, run.output_tokens);
    switch (run.metric) {
    case ServingMetric::output_tokens_per_s:
        e.terms = decode_cycle_terms(st, policy, b, run.input_tokens, run.output_tokens);
        e.target_s = b * run.output_tokens / run.value;
        return e;
    case ServingMetric::tpot_ms:
        e.terms = decode_step_terms(
            st, b,
            decode_context_tokens(st, run.input_tokens, run.output_tokens,
                                  policy.continuous_batching ? kUnknown : run.quantile));
        e.target_s = run.value / 1e3;
        return e;
    case ServingMetric::ttft_ms:
        if (policy.continuous_batching) {
            // Queue-dependent (checked, not fitted) unless one client's prompt runs alone: its
            // first token then costs one prompt's encoding (and the per-request overhead, fitted
            // afterwards on what remains).
            if (run.concurrency != 1) return std::nullopt;
            if (st.first_token_from_decode_step) {
                e.terms = prefill_terms(st, 1, run.input_tokens - 1, policy.max_batch_tokens);
                e.terms += decode_step_terms(st, 1, run.input_tokens);
            } else {
                e.terms = prefill_terms(st, 1, run.input_tokens, policy.max_batch_tokens);
            }
            e.target_s = run.value / 1e3;
            return e;
        }
        e.terms = prefill_terms(st, b, run.input_tokens, 0);
        e.target_s = run.value / 1e3;
        return e;
    case ServingMetric::latency_ms:
        if (serves_generation(st, run.output_tokens)) return std::nullopt; // a whole request
        e.terms = forward_terms(st, b, run.input_tokens);
        e.target_s = run.value / 1e3 / run.workers_per_model;
        return e;
    case ServingMetric::samples_per_s:
        if (serves_generation(st, run.output_tokens)) return std::nullopt; // requests/s
        // Open-loop arrivals (MLPerf Server): what completes is what arrived while the latency
        // bound held, not the copy's capacity (checked, not fitted).
        if (is_known(run.request_rate_per_s)) return std::nullopt;
        // Neuron runs one model copy per NeuronCore it loads (Data Parallel run mode).
        e.terms = forward_terms(st, b, run.input_tokens);
        e.target_s = b * copies_running(run, st) / run.value;
        return e;
    }
    return std::nullopt;
}

// Equations per fitted term below which an engine's own factor set is not determined (nine terms,
// several of them near-collinear on a handful of runs).
constexpr std::size_t kEquationsPerTerm = 3;

// Terms bound by memory or link bandwidth: the same in every GPU engine (see the scaled fit).
bool engine_independent(ServingTerm term) {
    return term == ServingTerm::weights || term == ServingTerm::kv_cache ||
           term == ServingTerm::tp_comm || term == ServingTerm::feature_maps;
}

// Prompt encoding: every GPU engine runs a prompt's linear layers as large cuBLAS/CUTLASS GEMMs
// (hundreds to thousands of rows) and its attention through a FlashAttention-class kernel (vLLM's
// and SGLang's FlashAttention/FlashInfer backends, TensorRT-LLM's context FMHA), at sizes where the
// kernel libraries, not the engine, set the rate; the engines differ in the decode step's small
// kernels, launches and scheduling. The published first tokens agree: on one A10G, Llama 3 8B,
// 550-token prompts from one client, vLLM 0.4.3, TGI 2.0.4 and NIM (TensorRT-LLM) take 137, 139
// and 135 ms (llmperf-a10g-llama3-8b).
bool prefill_term(ServingTerm term) {
    return term == ServingTerm::prefill_compute || term == ServingTerm::prefill_overhead;
}

// Terms a GPU engine's scaled fit multiplies: the decode step's matrix work and fixed cost (kernel
// choice and fusion, launches, CUDA graphs), where engines differ; prompt encoding keeps the
// donor's factors and the host's time per sequence is fitted on its own.
bool scaled_by_engine(ServingTerm term) {
    return !engine_independent(term) && !prefill_term(term) &&
           term != ServingTerm::host_seq_overhead;
}

// The least factor each term may take. A decode step streams the whole model's weights (GBs per
// device, far beyond any on-chip cache: 40-96 MB of L2, 24 MiB of NeuronCore SBUF), so it cannot
// beat the device's peak bandwidth; the terms price bytes at the size curve's efficiency (at most
// kHbmSizeCurve's largest value), so those factors are at least that efficiency. Encoders run
// back to back on weights of a few hundred MB that caches partly hold, and every other term
// (matrix rates, links, fixed costs) is only at least zero.
double factor_floor(ServingTerm term, bool decoders) {
    if (decoders && (term == ServingTerm::weights || term == ServingTerm::kv_cache))
        return model::kHbmSizeCurve.back()[1];
    return 0.0;
}

// min sum((terms.k - t)/t)^2 over k >= floor: least squares on the columns still free, holding
// the one furthest below its floor at the floor until none is (a greedy bounded least squares).
// The feature-map term is not fitted here: it takes `streaming_k` (ServingTerm::feature_maps).
EngineFactors fit_engine(const std::vector<Equation>& eqs, double streaming_k) {
    EngineFactors f;
    constexpr auto fm = static_cast<std::size_t>(ServingTerm::feature_maps);
    f.k[fm] = streaming_k;
    f.fitted[fm] = true;
    if (eqs.empty()) return f;
    const bool decoders =
        std::any_of(eqs.begin(), eqs.end(), [](const Equation& q) { return q.decoder; });
    const auto rows = static_cast<Eigen::Index>(eqs.size());
    Eigen::MatrixXd a(rows, kServingTermCount);
    for (std::size_t i = 0; i < eqs.size(); ++i)
        for (int j = 0; j < kServingTermCount; ++j)
            a(static_cast<Eigen::Index>(i), j) =
                eqs[i].terms.x[static_cast<std::size_t>(j)] / eqs[i].target_s;
    std::array<bool, kServingTermCount> free{};
    for (int j = 0; j < kServingTermCount; ++j)
        free[j] = a.col(j).cwiseAbs().maxCoeff() > 0;
    free[fm] = false;
    for (int round = 0; round <= kServingTermCount; ++round) {
        // Terms held at their floor move to the right-hand side.
        Eigen::VectorXd b = Eigen::VectorXd::Ones(rows);
        std::vector<int> cols;
        for (int j = 0; j < kServingTermCount; ++j) {
            if (free[j])
                cols.push_back(j);
            else if (f.fitted[j])
                b -= f.k[j] * a.col(j);
        }
        if (cols.empty()) break;
        Eigen::MatrixXd sub(rows, static_cast<Eigen::Index>(cols.size()));
        for (std::size_t c = 0; c < cols.size(); ++c)
            sub.col(static_cast<Eigen::Index>(c)) = a.col(cols[c]);
        const Eigen::VectorXd k = sub.colPivHouseholderQr().solve(b);
        int worst = -1;
        double worst_gap = 0;
        for (std::size_t c = 0; c < cols.size(); ++c) {
            const double gap = k(static_cast<Eigen::Index>(c)) -
                               factor_floor(static_cast<ServingTerm>(cols[c]), decoders);
            if (gap < worst_gap) {
                worst_gap = gap;
                worst = static_cast<int>(c);
            }
        }
        if (worst >= 0) {
            const int j = cols[static_cast<std::size_t>(worst)];
            free[j] = false;
            // A term held at its floor (zero: it costs nothing under this engine).
            f.k[j] = factor_floor(static_cast<ServingTerm>(j), decoders);
            f.fitted[j] = true;
            continue;
        }
        for (std::size_t c = 0; c < cols.size(); ++c) {
            f.k[cols[c]] = k(static_cast<Eigen::Index>(c));
            f.fitted[cols[c]] = true;
        }
        break;
    }
    return f;
}

// TTFT of a published run served by continuous batching under load (online, finite or closed
// loop), or a forward pass's latency per LoadGen query: the runs the per-request overhead is
// fitted on.
bool measures_request_ttft(const ServingRun& run, const NodeSpec& node) {
    if (run.loadgen && run.metric == ServingMetric::latency_ms && run.output_tokens == 0)
        return true;
    return run.metric == ServingMetric::ttft_ms &&
           engine_policy(run.engine, neuron_devices(node)).continuous_batching &&
           (run.requests > 0 || run.concurrency == 1 || is_known(run.request_rate_per_s));
}

// The per-request overhead minimising the relative TTFT error, (p + c)/m - 1, over those runs:
// c = sum((1 - p/m)/m) / sum(1/m^2), at least zero.
void fit_request_overheads(const ServingRunSet& set, const NodeResolver& resolve,
                           std::string_view exclude, ServingFactors& factors) {
    std::array<double, kServingEngineCount> num{}, den{};
    for (const ServingRun& run : set.runs) {
        // Runs marked checked, not fitted, stay out of this fit as out of the factors'.
        if (!run.fit || run.source == exclude) continue;
        const auto node = resolve(run.instance);
        if (!node || !measures_request_ttft(run, *node)) continue;
        const double p_ms = predict_serving_run(run, *node, factors);
        if (!is_known(p_ms)) continue;
        const double m_s = run.value / 1e3;
        const auto i = static_cast<std::size_t>(factor_engine(run.engine, neuron_devices(*node)));
        // A Neuron run on a NeuronCore generation the factors were not fitted on (Trainium2's
        // v3 under NeuronCore-v2 factors) leaves its prefill's own error in the TTFT, not the
        // front end's time.
        const std::vector<std::string>& fitted_on = factors.engines[i].accelerators;
        if (neuron_devices(*node) &&
            std::find(fitted_on.begin(), fitted_on.end(), run.accelerator) == fitted_on.end())
            continue;
        num[i] += (1.0 - p_ms / run.value) / m_s;
        den[i] += 1.0 / (m_s * m_s);
    }
    for (int i = 0; i < kServingEngineCount; ++i)
        if (den[static_cast<std::size_t>(i)] > 0)
            factors.engines[static_cast<std::size_t>(i)].request_overhead_s =
                std::max(0.0, num[static_cast<std::size_t>(i)] / den[static_cast<std::size_t>(i)]);
}

// NeuronCore-v3's fixed cost per layer and decode step (ServingTerm::overhead_v3), fitted after
// every other factor on the Trainium2 decode steps alone: the other terms keep what the many
// NeuronCore-v2 runs fit, and only what differs on the new generation is fitted on its few runs.
// Least squares on relative error, (p + k L)/m - 1: k = sum((1 - p/m) L/m) / sum((L/m)^2), at
// least zero. The runs' prefills stay unfitted (their accelerator is not listed as fitted).
void fit_v3_overhead(const std::vector<Equation>& q, const std::vector<const ServingRun*>& runs,
                     EngineFactors& f) {
    constexpr auto v3 = static_cast<std::size_t>(ServingTerm::overhead_v3);
    EngineFactors rest = f;
    rest.k[v3] = 0;
    rest.fitted[v3] = true;
    double num = 0, den = 0;
    for (const Equation& e : q) {
        const double l = e.terms.x[v3] / e.target_s;
        num += (1.0 - serving_time_s(e.terms, rest) / e.target_s) * l;
        den += l * l;
    }
    if (!(den > 0)) return;
    f.k[v3] = std::max(0.0, num / den);
    f.fitted[v3] = true;
    record_fitted_runs(runs, f);
}

// A Neuron server's host sampling time per step (EngineFactors::host_sampling_s), fitted after
// every other factor on the decode steps whose logits the host samples: what the device's step
// leaves of each. Least squares on relative error, (p + k)/m - 1: k = sum((1 - p/m)/m) /
// sum(1/m^2), at least zero.
void fit_host_sampling(const std::vector<Equation>& q, const std::vector<const ServingRun*>& runs,
                       EngineFactors& f) {
    double num = 0, den = 0;
    for (const Equation& e : q) {
        num += (1.0 - serving_time_s(e.terms, f) / e.target_s) / e.target_s;
        den += 1.0 / (e.target_s * e.target_s);
    }
    if (!(den > 0)) return;
    f.host_sampling_s = std::max(0.0, num / den);
    record_fitted_runs(runs, f);
}

} // namespace

ServingFactors fit_serving_factors(const ServingRunSet& set, const NodeResolver& resolve,
                                   std::string_view exclude) {
    // Per engine, the equations of generation (decode, prefill, cycles) and of forward passes
    // (encoders, CNNs).
    std::array<std::vector<Equation>, kServingEngineCount> eqs, forward_eqs;
    std::array<std::vector<const ServingRun*>, kServingEngineCount> used, forward_used;
    // Decode steps on NeuronCore-v3, fitted for their per-layer cost alone (fit_v3_overhead).
    std::array<std::vector<Equation>, kServingEngineCount> v3_eqs;
    std::array<std::vector<const ServingRun*>, kServingEngineCount> v3_used;
    // Decode steps sampled on the host, fitted for their host sampling time alone.
    std::array<std::vector<Equation>, kServingEngineCount> host_eqs;
    std::array<std::vector<const ServingRun*>, kServingEngineCount> host_used;
    for (const ServingRun& run : set.runs) {
        if (!run.fit || run.source == exclude) continue;
        // A run on an instance the catalog lacks cannot be fitted; validation reports it.
        const auto node = resolve(run.instance);
        if (!node) continue;
        const auto e = equation_for(run, *node);
        if (!e) continue;
        const auto i = static_cast<std::size_t>(factor_engine(run.engine, neuron_devices(*node)));
        if (run_setup(run, *node).samples_on_host()) {
            // Only a decode step's figure isolates the host's sampling time.
            if (run.metric != ServingMetric::tpot_ms) continue;
            host_eqs[i].push_back(*e);
            host_used[i].push_back(&run);
            continue;
        }
        if (e->terms[ServingTerm::overhead_v3] != 0) {
            v3_eqs[i].push_back(*e);
            v3_used[i].push_back(&run);
            continue;
        }
        (e->decoder ? eqs : forward_eqs)[i].push_back(*e);
        (e->decoder ? used : forward_used)[i].push_back(&run);
    }
    // CNN feature maps stream through HBM at the share of its bandwidth TensorRT-LLM's decode
    // steps reach streaming weights (fitted first: it is the first engine).
    double streaming_k = 1.0;
    auto fit_runs = [&streaming_k](const std::vector<Equation>& q,
                                   const std::vector<const ServingRun*>& runs) {
        // Fewer equations than a few per term they exercise leave the factors undetermined: the
        // runs keep datasheet rates (a GPU engine's scaled fit below replaces them).
        std::size_t exercised = 0;
        for (int j = 0; j < kServingTermCount; ++j)
            exercised += j != static_cast<int>(ServingTerm::feature_maps) &&
                         std::any_of(q.begin(), q.end(),
                                     [j](const Equation& e) { return e.terms.x[j] != 0; });
        EngineFactors f = fit_engine(
            q.size() >= kEquationsPerTerm * exercised ? q : std::vector<Equation>{}, streaming_k);
        record_fitted_runs(runs, f);
        for (const ServingRun* r : runs)
            if (std::find(f.accelerators.begin(), f.accelerators.end(), r->accelerator) ==
                f.accelerators.end())
                f.accelerators.push_back(r->accelerator);
        return f;
    };
    ServingFactors out;
    for (std::size_t i = 0; i < kServingEngineCount; ++i) {
        // An engine with published runs of both kinds fits each on its own: on Neuron the decoder
        // (transformers-neuronx, tensor parallel over cores) and the forward passes (torch-neuronx
        // traced graphs, one copy per core) are different compiled programs. With one kind only,
        // its factors serve both.
        if (!eqs[i].empty() && !forward_eqs[i].empty()) {
            out.engines[i] = fit_runs(eqs[i], used[i]);
            out.forward[i] = fit_runs(forward_eqs[i], forward_used[i]);
            continue;
        }
        std::vector<Equation> all = eqs[i];
        all.insert(all.end(), forward_eqs[i].begin(), forward_eqs[i].end());
        std::vector<const ServingRun*> runs = used[i];
        runs.insert(runs.end(), forward_used[i].begin(), forward_used[i].end());
        out.engines[i] = fit_runs(all, runs);
        constexpr auto w = static_cast<std::size_t>(ServingTerm::weights);
        if (i == static_cast<std::size_t>(ServingEngine::tensorrt_llm) &&
            out.engines[i].fitted[w]) {
            streaming_k = out.engines[i].k[w];
            out.engines[i].k[static_cast<std::size_t>(ServingTerm::feature_maps)] = streaming_k;
        }
        // A Neuron engine fitted on generation runs alone does not describe forward passes: its
        // fixed costs and attention factor are those of the tensor-parallel decoder program
        // (the generation factors put a BERT-base pass at ~3x the NeuronPerf latency), so its
        // forward passes keep datasheet rates until runs of their own are published.
        if (forward_eqs[i].empty() && !eqs[i].empty() &&
            !engine_policy(static_cast<ServingEngine>(i)).gpu)
            out.forward_datasheet[i] = true;
    }
    // An engine without published runs (or with its only source left out) takes the factors of
    // the nearest engine that has them: GPU engines from TensorRT-LLM, then TensorRT; Neuron has
    // no GPU stand-in and keeps datasheet rates.
    const ServingFactors fitted = out;
    auto borrow = [&](ServingEngine e, std::initializer_list<ServingEngine> from) {
        if (!out.of(e).runs.empty()) return;
        for (ServingEngine donor : from) {
            if (fitted.of(donor).runs.empty()) continue;
            out.of(e) = fitted.of(donor);
            out.of(e).request_overhead_s = out.of(donor).request_overhead_s;
            out.of(e).borrowed_from = enum_name(donor);
            return;
        }
    };
    // A GPU engine with fewer equations than a few per term keeps TensorRT-LLM's factors for the
    // bandwidth-bound terms (weight and KV streaming, NCCL all-reduce: the same kernels reach the
    // same share of HBM and link bandwidth in every engine) and for prompt encoding (prefill_term),
    // and fits one ratio on the terms where engines differ (the decode step's matrix work, fixed
    // cost per layer and step: scheduling, fusion, launches).
    for (ServingEngine e : {ServingEngine::vllm, ServingEngine::tgi, ServingEngine::pytorch}) {
        const auto& own = eqs[static_cast<std::size_t>(e)];
        const EngineFactors& donor = fitted.of(ServingEngine::tensorrt_llm);
        if (own.empty() || own.size() >= kEquationsPerTerm * kServingTermCount ||
            donor.runs.empty())
            continue;
        EngineFactors fixed_part = donor, scaled_part = donor;
        for (int j = 0; j < kServingTermCount; ++j)
            (scaled_by_engine(static_cast<ServingTerm>(j)) ? fixed_part : scaled_part).k[j] = 0;
        constexpr auto host = static_cast<std::size_t>(ServingTerm::host_seq_overhead);
        fixed_part.k[host] = 0;
        // Per run over its measured time: the donor's unscaled terms, its scaled terms and the
        // host's sequence-steps (the donor, a C++ runtime, has none).
        std::vector<std::array<double, 3>> x;
        bool host_loop = false;
        for (const Equation& q : own) {
            x.push_back({serving_time_s(q.terms, fixed_part) / q.target_s,
                         serving_time_s(q.terms, scaled_part) / q.target_s,
                         q.terms.x[host] / q.target_s});
            host_loop = host_loop || q.terms.x[host] > 0;
        }
        // The host's time per sequence and step is a second unknown where the runs are enough
        // for two.
        const auto [scale, host_s] = host_loop && own.size() >= 2 * kEquationsPerTerm
                                         ? fit_two_ratios(x)
                                         : std::pair{fit_one_ratio(x), 0.0};
        if (!(scale >= 0)) continue;
        EngineFactors& f = out.of(e);
        f.k = donor.k;
        f.fitted = donor.fitted;
        for (int j = 0; j < kServingTermCount; ++j)
            if (scaled_by_engine(static_cast<ServingTerm>(j))) f.k[j] *= scale;
        f.k[host] = host_s;
        f.fitted[host] = host_loop;
        f.scale = scale;
        f.scaled_from = enum_name(ServingEngine::tensorrt_llm);
    }
    for (std::size_t i = 0; i < kServingEngineCount; ++i)
        fit_v3_overhead(v3_eqs[i], v3_used[i], out.engines[i]);
    for (std::size_t i = 0; i < kServingEngineCount; ++i)
        fit_host_sampling(host_eqs[i], host_used[i], out.engines[i]);
    fit_request_overheads(set, resolve, exclude, out);
    // TensorRT-LLM and TensorRT do not stand in for each other: TensorRT-LLM's factors are fitted
    // on generation (decode steps and prefills under in-flight batching, with a fixed cost per
    // layer and step for the scheduler and its many small kernels), TensorRT's on one fused engine
    // execution per encoder batch (demoBERT), and either describes the other's program no better
    // than the datasheet rates an engine without runs keeps (as Neuron's forward passes do).
    for (ServingEngine e : {ServingEngine::vllm, ServingEngine::tgi, ServingEngine::pytorch})
        borrow(e, {ServingEngine::tensorrt_llm, ServingEngine::tensorrt});
    return out;
}

} // namespace cp::sim
