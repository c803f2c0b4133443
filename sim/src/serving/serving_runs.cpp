#include "clusterplan/sim/serving_runs.h"

#include "clusterplan/sim/serving_engine.h"
#include "io/ascii_text.h"
#include "sim_embedded.h"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>

namespace cp::sim {

namespace {

using nlohmann::json;

[[noreturn]] void bad(const std::string& where, const std::string& reason) {
    throw std::runtime_error("published_runs.json: " + where + ": " + reason);
}

Workload parse_model(const std::string& id, const json& m) {
    Workload w;
    w.name = id;
    if (m.contains("flops_per_sample")) {
        w.kind = WorkloadKind::generic;
        w.params = m.at("params").get<double>();
        w.flops_per_sample = m.at("flops_per_sample").get<double>();
        return w;
    }
    TransformerShape& s = w.shape;
    s.layers = m.at("layers").get<int>();
    s.hidden = m.at("hidden").get<int>();
    s.heads = m.at("heads").get<int>();
    s.kv_heads = m.at("kv_heads").get<int>();
    s.ffn_hidden = m.at("ffn_hidden").get<int>();
    s.gated_mlp = m.at("gated_mlp").get<bool>();
    s.vocab = m.at("vocab").get<int>();
    s.encoder_only = m.value("encoder_only", false);
    // Qwen3-32B's 64 heads of 128 make a query 8,192 wide over a 5,120 hidden size
    // (Qwen/Qwen3-32B config.json head_dim); absent = hidden / heads.
    s.head_dim = m.value("head_dim", 0);
    if (s.head_dim < 0) bad("model " + id, "head_dim must be positive");
    // Mixture-of-Experts decoders (Mixtral): routed experts per MoE layer, top-k, expert width.
    s.moe.experts = m.value("experts", 0);
    s.moe.experts_per_token = m.value("experts_per_token", 0);
    s.moe.moe_ffn_hidden = m.value("moe_ffn_hidden", 0);
    s.moe.shared_experts = m.value("shared_experts", 0);
    s.seq_len = 2048;
    return w;
}

std::optional<ServingEngine> run_engine(const std::string& name) {
    return serving_engine_from_name(name);
}

std::optional<StorageType> run_storage(const std::string& name) {
    static const std::pair<std::string_view, std::string_view> aliases[] = {
        {"float32", "fp32"}, {"float16", "fp16"}, {"half", "fp16"}, {"bfloat16", "bf16"},
        {"fp8_e4m3", "fp8"}, {"e4m3", "fp8"},     {"w8a8", "int8"}, {"awq", "int4"},
        {"gptq", "int4"},    {"w4a16", "int4"}};
    std::string n = ascii_lower(name);
    for (const auto& [alias, type] : aliases)
        if (n == alias) n = type;
    return parse_storage_type(n);
}

// A metric name as the published tables spell it: the five base names, a statistic suffix
// (`_mean`, `_p50`/`_median`, `_p90`, `_p99`), inter-token latency as TPOT, and the per-GPU
// throughput convention (times the TP degree gives the replica's).
struct MetricName {
    ServingMetric metric = ServingMetric::output_tokens_per_s;
    double quantile = kUnknown;
    bool per_device = false;
    double scale = 1.0; // 1000 for a latency published in seconds
    bool per_token_of_request = false;
    bool per_gap = false; // inter-token latency: a statistic over the gaps, not the requests
};

MetricName parse_metric(const std::string& where, std::string name) {
    MetricName out;
    name = ascii_lower(name);
    const std::pair<std::string_view, double> suffixes[] = {
        {"_mean", kUnknown}, {"_p50", 0.5}, {"_median", 0.5}, {"_p90", 0.9}, {"_p99", 0.99}};
    for (const auto& [suffix, q] : suffixes)
        if (name.size() > suffix.size() && name.ends_with(suffix)) {
            name.resize(name.size() - suffix.size());
            out.quantile = q;
            break;
        }
    if (name == "output_tokens_per_s_per_gpu") {
        name = "output_tokens_per_s";
        out.per_device = true;
    }
    out.per_gap = name == "itl_ms" || name == "itl_s" || name == "inter_token_latency_ms";
    // Latencies published in seconds.
    static const std::pair<std::string_view, std::string_view> seconds[] = {
        {"ttft_s", "ttft_ms"},
        {"tpot_s", "tpot_ms"},
        {"itl_s", "tpot_ms"},
        {"latency_s", "latency_ms"},
        {"e2e_latency_s", "latency_ms"},
        {"request_latency_s", "latency_ms"}};
    for (const auto& [in_seconds, base] : seconds)
        if (name == in_seconds) {
            name = base;
            out.scale = 1e3;
        }
    // Request latency spread over the output tokens (llmperf's inter_token_latency sums every
    // token's gap, the first token's wait included, and divides by the tokens).
    if (name == "request_latency_ms_per_token") {
        name = "tpot_ms";
        out.per_token_of_request = true;
    }
    static const std::pair<std::string_view, std::string_view> synonyms[] = {
        {"output_token_throughput", "output_tokens_per_s"},
        {"output_throughput_tokens_per_s", "output_tokens_per_s"},
        {"images_per_s", "samples_per_s"},
        {"sequences_per_s", "samples_per_s"},
        {"inferences_per_s", "samples_per_s"},
        {"itl_ms", "tpot_ms"},
        {"inter_token_latency_ms", "tpot_ms"},
        {"time_per_output_token_ms", "tpot_ms"},
        {"time_to_first_token_ms", "ttft_ms"},
        {"e2e_latency_ms", "latency_ms"},
        {"request_latency_ms", "latency_ms"},
        {"requests_per_s", "samples_per_s"}};
    for (const auto& [synonym, base] : synonyms)
        if (name == synonym) name = base;
    for (ServingMetric m :
         {ServingMetric::output_tokens_per_s, ServingMetric::ttft_ms, ServingMetric::tpot_ms,
          ServingMetric::latency_ms, ServingMetric::samples_per_s})
        if (name == enum_name(m)) {
            out.metric = m;
            return out;
        }
    bad(where, "unknown metric '" + name + "'");
}

} // namespace

const char* enum_name(ServingMetric metric) {
    switch (metric) {
    case ServingMetric::output_tokens_per_s:
        return "output_tokens_per_s";
    case ServingMetric::ttft_ms:
        return "ttft_ms";
    case ServingMetric::tpot_ms:
        return "tpot_ms";
    case ServingMetric::latency_ms:
        return "latency_ms";
    case ServingMetric::samples_per_s:
        return "samples_per_s";
    }
    return "?";
}

ServingRunSet parse_serving_runs(std::string_view text) {
    json doc;
    try {
        doc = json::parse(text.begin(), text.end());
    } catch (const json::exception& e) {
        bad("(file)", std::string("not valid JSON: ") + e.what());
    }
    if (doc.value("schema", "") != "clusterplan.serving_runs/1")
        bad("schema", "expected clusterplan.serving_runs/1");
    ServingRunSet set;
    for (const auto& [key, text_value] : doc.at("sources").items())
        set.sources[key] = text_value.get<std::string>();
    std::map<std::string, Workload> models;
    for (const auto& [id, m] : doc.at("models").items())
        models[id] = parse_model(id, m);
    for (const auto& r : doc.at("runs")) {
        ServingRun run;
        run.id = r.at("id").get<std::string>();
        const std::string where = "run " + run.id;
        try {
            run.source = r.at("source").get<std::string>();
            if (!set.sources.count(run.source))
                bad(where, "source '" + run.source + "' is not listed");
            const std::string engine_name = ascii_lower(r.at("engine").get<std::string>());
            const auto engine = run_engine(engine_name);
            if (!engine) bad(where, "unknown engine");
            run.engine = *engine;
            run.max_batch = engine_max_running(engine_name);
            for (const char* key : {"max_batch", "max_num_seqs", "max_running_requests"})
                if (r.contains(key)) run.max_batch = r.at(key).get<int>();
            const std::string model = r.at("model").get<std::string>();
            const auto it = models.find(model);
            if (it == models.end()) bad(where, "model '" + model + "' is not listed");
            run.workload = it->second;
            run.accelerator = r.at("accelerator").get<std::string>();
            run.instance = r.at("instance").get<std::string>();
            run.tp = r.at("tp").get<int>();
            const auto weights = run_storage(r.at("weights").get<std::string>());
            if (!weights) bad(where, "unknown weights type");
            run.weights = *weights;
            run.kv_cache = run.weights;
            if (r.contains("kv_cache")) {
                const auto kv = run_storage(r.at("kv_cache").get<std::string>());
                if (!kv) bad(where, "unknown kv_cache type");
                run.kv_cache = *kv;
            }
            run.batch = r.value("batch", 0);
            run.requests = r.value("requests", 0);
            run.concurrency = r.value("concurrency", 0);
            if (r.contains("client_waves")) {
                const auto& c = r.at("client_waves");
                run.waves = ClientWaves{
                    c.at("requests").get<int>(), c.at("launch_interval_s").get<double>(),
                    c.at("worker_start_s").get<double>(), c.at("worker_slots").get<int>()};
                if (run.concurrency < 1 || run.waves->requests < 1 || run.waves->worker_slots < 1 ||
                    run.waves->launch_interval_s < 0 || run.waves->worker_start_s < 0)
                    bad(where, "client_waves needs a concurrency, requests and worker slots");
            }
            if (r.contains("request_rate_per_s"))
                run.request_rate_per_s = r.at("request_rate_per_s").get<double>();
            if (r.contains("quantile")) run.quantile = r.at("quantile").get<double>();
            run.scheduler_steps = r.value("scheduler_steps", 1);
            run.overlap_schedule = r.value("overlap_schedule", false);
            run.async_output_processing = r.value("async_output_processing", false);
            run.models = r.value("models", 0);
            run.workers_per_model = std::max(1, r.value("workers_per_model", 1));
            run.replicas = std::max(1, r.value("replicas", 1));
            run.nvlink_mesh_gpus = r.value("nvlink_mesh_gpus", 0);
            if (run.nvlink_mesh_gpus != 0 &&
                (run.nvlink_mesh_gpus < 2 || run.nvlink_mesh_gpus > 64))
                bad(where, "nvlink_mesh_gpus must be 2 to 64 (GPUs on the NVLink board)");
            if (r.contains("kv_memory_fraction"))
                run.kv_memory_fraction = r.at("kv_memory_fraction").get<double>();
            run.kv_cache_tokens = r.value("kv_cache_tokens", 0.0);
            run.prefill_tokens_per_iteration = r.value("prefill_tokens_per_iteration", -1);
            // TensorRT-LLM's engine build option: the tokens one iteration carries, prompts' and
            // decodes' together (EnginePolicy::decodes_in_token_budget).
            if (r.contains("max_num_tokens"))
                run.prefill_tokens_per_iteration = r.at("max_num_tokens").get<int>();
            run.input_tokens = r.at("input_tokens").get<int>();
            run.output_tokens = r.at("output_tokens").get<int>();
            run.output_tokens_max = r.value("output_tokens_max", 0);
            if (run.output_tokens_max != 0 && run.output_tokens_max < run.output_tokens)
                bad(where, "output_tokens_max must be at least output_tokens");
            if (r.contains("batch_scheduler_policy")) {
                const std::string policy =
                    ascii_lower(r.at("batch_scheduler_policy").get<std::string>());
                if (policy != "max_utilization" && policy != "guaranteed_no_evict")
                    bad(where, "unknown batch_scheduler_policy (max_utilization or "
                               "guaranteed_no_evict)");
                run.kv_admitted_by_use = policy == "max_utilization";
            }
            const MetricName metric = parse_metric(where, r.at("metric").get<std::string>());
            run.metric = metric.metric;
            run.per_token_of_request = metric.per_token_of_request;
            run.per_gap = metric.per_gap;
            run.counted_tokens_per_token = r.value("counted_tokens_per_token", 1.0);
            if (!is_known(run.quantile)) run.quantile = metric.quantile;
            run.value =
                r.at("value").get<double>() * (metric.per_device ? run.tp : 1) * metric.scale;
            run.fit = r.value("fit", true);
            run.range_only = r.value("range_only", false);
            if (run.range_only &&
                (run.fit || !is_known(run.request_rate_per_s) ||
                 (run.metric != ServingMetric::ttft_ms && run.metric != ServingMetric::tpot_ms)))
                bad(where, "range_only is for a held-out (fit: false) TTFT or TPOT at a "
                           "request_rate_per_s");
            if (r.contains("attention_kernel"))
                run.fused_attention = r.at("attention_kernel").get<bool>();
            run.sequence_parallel = r.value("sequence_parallel", false);
            run.eager_decode = !r.value("cuda_graphs", true);
            run.loadgen = r.value("loadgen", false);
            run.loadgen_queries = r.value("loadgen_queries", 0);
            if (r.contains("loadgen_queries") &&
                (run.loadgen_queries < 1 || !run.loadgen || !is_known(run.request_rate_per_s)))
                bad(where, "loadgen_queries must be a positive query count of a loadgen run at a "
                           "request_rate_per_s");
            run.first_token_from_decode_step = r.value("first_token_from_decode_step", false);
            run.gqa_shared_kv_reads = r.value("gqa_shared_kv_reads", true);
            run.async_host_loop = r.value("async_scheduling", false);
            run.host_sampling = !r.value("on_device_sampling", true);
            if (r.contains("neuron_library")) {
                const std::string library = ascii_lower(r.at("neuron_library").get<std::string>());
                if (library != "transformers-neuronx" && library != "nxd-inference")
                    bad(where, "unknown neuron_library (transformers-neuronx or nxd-inference)");
                run.transformers_neuronx = library == "transformers-neuronx";
            }
            for (auto [key, buckets] : {std::pair{"context_buckets", &run.context_buckets},
                                        std::pair{"generation_buckets", &run.generation_buckets}}) {
                if (!r.contains(key)) continue;
                *buckets = r.at(key).get<std::vector<int>>();
                std::sort(buckets->begin(), buckets->end());
            }
            // The Neuron SDK's runtime has no clients: a Neuron decoder run measured through them
            // (closed-loop concurrency, a request count or an arrival rate) went through a serving
            // front end, a Neuron server (optimum-neuron's TGI, vLLM's Neuron worker).
            const bool clients =
                run.concurrency > 0 || run.requests > 0 || is_known(run.request_rate_per_s);
            if (run.engine == ServingEngine::neuron && clients && run.output_tokens > 0)
                run.engine = ServingEngine::tgi;
        } catch (const json::exception& e) {
            bad(where, e.what());
        }
        if (!(run.value > 0) || run.tp < 1 || run.input_tokens < 0 || run.output_tokens < 0 ||
            !(run.counted_tokens_per_token > 0))
            bad(where, "value, tp and token counts must be positive");
        set.runs.push_back(std::move(run));
    }
    return set;
}

const ServingRunSet& published_serving_runs() {
    static const ServingRunSet set = parse_serving_runs(embedded::serving_runs_json);
    return set;
}

} // namespace cp::sim
