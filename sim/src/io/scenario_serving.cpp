#include "io/scenario_serving.h"

#include "clusterplan/sim/scenario_limits.h"
#include "io/ascii_text.h"

#include <cstdint>

namespace cp::sim {

namespace {

using scenario_io::Names;

constexpr Names<ServingEngine, 6> kEngines{{{ServingEngine::tensorrt_llm, "tensorrt-llm"},
                                            {ServingEngine::vllm, "vllm"},
                                            {ServingEngine::tgi, "tgi"},
                                            {ServingEngine::neuron, "neuron"},
                                            {ServingEngine::tensorrt, "tensorrt"},
                                            {ServingEngine::pytorch, "pytorch"}}};
constexpr Names<StorageType, 6> kWeightTypes{{{StorageType::fp32, "fp32"},
                                              {StorageType::fp16, "fp16"},
                                              {StorageType::bf16, "bf16"},
                                              {StorageType::fp8, "fp8"},
                                              {StorageType::int8, "int8"},
                                              {StorageType::int4, "int4"}}};
// The cache holds at least 8 bits per value (no published int4 KV figures to validate against).
constexpr Names<StorageType, 5> kKvTypes{{{StorageType::fp32, "fp32"},
                                          {StorageType::fp16, "fp16"},
                                          {StorageType::bf16, "bf16"},
                                          {StorageType::fp8, "fp8"},
                                          {StorageType::int8, "int8"}}};

template <class E, std::size_t N>
std::optional<E> lookup(const Names<E, N>& names, std::string_view name) {
    for (const auto& [e, n] : names)
        if (name == n) return e;
    return std::nullopt;
}

using ojson = nlohmann::ordered_json;
ojson nullable(const std::optional<int>& v) {
    return v ? ojson(*v) : ojson(nullptr);
}
ojson nullable(double v) {
    return is_known(v) ? ojson(v) : ojson(nullptr);
}

} // namespace

std::optional<ServingEngine> parse_serving_engine(std::string_view name) {
    return lookup(kEngines, name);
}
std::optional<ServingEngine> serving_engine_from_name(std::string_view name) {
    static const std::pair<std::string_view, std::string_view> aliases[] = {
        {"trtllm", "tensorrt-llm"},
        {"trt-llm", "tensorrt-llm"},
        {"tensorrt_llm", "tensorrt-llm"},
        {"nim", "tensorrt-llm"},
        {"tensorrtllm_backend", "tensorrt-llm"},
        {"optimum-nvidia", "tensorrt-llm"},
        {"text-generation-inference", "tgi"},
        // The Neuron backends of TGI and vLLM (optimum-neuron's TGI image, vLLM's Neuron worker)
        // are those servers on Neuron devices (engine_policy's Neuron server profile).
        {"tgi-neuronx", "tgi"},
        {"neuronx-tgi", "tgi"},
        {"tgi-neuron", "tgi"},
        {"vllm-neuron", "vllm"},
        {"vllm-neuronx", "vllm"},
        {"neuronx-vllm", "vllm"},
        {"sglang", "vllm"},
        {"lmdeploy", "vllm"},
        {"deepspeed-mii", "vllm"},
        {"deepspeed-fastgen", "vllm"},
        {"transformers-neuronx", "neuron"},
        {"neuronx", "neuron"},
        {"nxdi", "neuron"},
        {"optimum-neuron", "neuron"},
        {"torch-neuronx", "neuron"},
        {"neuronx-distributed", "neuron"},
        {"neuronx-distributed-inference", "neuron"},
        {"huggingface", "pytorch"},
        {"hf", "pytorch"},
        {"torch", "pytorch"},
        {"transformers", "pytorch"}};
    const std::string n = ascii_lower(name);
    for (const auto& [alias, engine] : aliases)
        if (n == alias) return parse_serving_engine(engine);
    return parse_serving_engine(n);
}

std::optional<StorageType> parse_storage_type(std::string_view name) {
    return lookup(kWeightTypes, name);
}

namespace scenario_io {

void parse_serving(Reader& r, Scenario& sc) {
    ServingSpec s;
    if (auto name = r.string("engine")) {
        s.engine = serving_engine_from_name(*name);
        if (!s.engine)
            r.fail("engine", "unknown value '" + *name +
                                 "' (expected one of tensorrt-llm, vllm, tgi, neuron, tensorrt, "
                                 "pytorch, or an engine that runs on one of these profiles: "
                                 "sglang, lmdeploy, deepspeed-mii, nim, optimum-neuron, "
                                 "transformers-neuronx, nxdi, hf)");
        if (*name != enum_name(*s.engine)) s.engine_as_given = *name;
    }
    s.weights = r.enumeration("weights", kWeightTypes);
    s.kv_cache = r.enumeration("kv_cache", kKvTypes);
    s.tp = r.integer("tp", 1, 64);
    s.pp = r.integer("pp", 1, 64);
    s.batch = r.integer("batch", 1, 1 << 16);
    s.engine_max_batch = r.integer("engine_max_batch", 1, 1 << 16);
    // The build's max batch caps the scheduler: the engine never runs more sequences than that.
    if (s.batch && s.engine_max_batch && *s.batch > *s.engine_max_batch)
        r.fail("batch", "must not exceed serving.engine_max_batch (" +
                            std::to_string(*s.engine_max_batch) + "), got " +
                            std::to_string(*s.batch));
    if (auto v = r.boolean("gqa_shared_kv_reads")) s.gqa_shared_kv_reads = *v;
    if (auto v = r.boolean("async_scheduling")) s.async_scheduling = *v;
    if (auto v = r.boolean("on_device_sampling")) s.on_device_sampling = *v;
    // 2M tokens bounds any published context window and keeps KV arithmetic far from overflow.
    if (auto v = r.integer("input_tokens", 1, 1 << 21)) s.input_tokens = *v;
    const auto output = r.integer("output_tokens", 0, 1 << 21);
    if (auto v = r.number("request_rate_per_s", 0, false, limits::kMaxRequestRatePerS)) {
        if (*v < limits::kMinRequestRatePerS) {
            std::ostringstream got;
            got << *v;
            r.fail("request_rate_per_s",
                   "must be at least 1e-06 requests/s (one request in 11.6 days), got " +
                       got.str());
        }
        s.request_rate_per_s = *v;
    }
    if (auto slo = r.object("slo")) {
        if (auto v = slo->number("ttft_ms", 0, false, limits::kMaxSloMs)) s.slo.ttft_ms = *v;
        if (auto v = slo->number("tpot_ms", 0, false, limits::kMaxSloMs)) s.slo.tpot_ms = *v;
        if (auto v = slo->number("p", 0, false)) {
            if (*v >= 1) slo->fail("p", "must be a quantile below 1 (0.5 = median, 0.99 = p99)");
            s.slo.p = *v;
        }
        slo->reject_unknown();
    }
    s.replicas = r.integer("replicas", 1, 100000);
    r.reject_unknown();
    // Encoders and CNNs generate nothing; decoders default to 128 new tokens.
    const bool generates =
        sc.workload.kind == WorkloadKind::transformer && !sc.workload.shape.encoder_only;
    s.output_tokens = output.value_or(generates ? 128 : 0);
    if (!generates && s.output_tokens > 0)
        r.fail("output_tokens",
               "must be 0: " + sc.workload.name +
                   " is an encoder or CNN (one forward pass per batch, no generation)");
    if (generates && s.output_tokens == 0)
        r.fail("output_tokens", "must be at least 1 for a decoder LLM (" + sc.workload.name + ")");
    sc.serving = s;
}

void check_serving_against_model(Scenario& sc, const std::string& origin) {
    if (!sc.serving) return;
    const ServingSpec& s = *sc.serving;
    const Workload& w = sc.workload;
    if (w.kind == WorkloadKind::generic && s.tp && *s.tp != 1)
        throw ScenarioError(origin, "serving.tp",
                            "a generic model (" + w.name +
                                ") runs on one device per replica, so tp must be 1");
    // Stages may hold unequal layer counts (vLLM get_pp_indices: DeepSeek-V3's 61 layers run on
    // pp 2 as 31 + 30, or 33 + 28 by VLLM_PP_LAYER_PARTITION); every stage needs one.
    if (w.kind == WorkloadKind::transformer && s.pp && *s.pp > w.shape.layers)
        throw ScenarioError(origin, "serving.pp",
                            "must not exceed model.layers (" + std::to_string(w.shape.layers) +
                                "), got " + std::to_string(*s.pp));
    if (w.kind == WorkloadKind::transformer && s.tp && w.shape.heads % *s.tp != 0 && *s.tp % 2 != 0)
        throw ScenarioError(origin, "serving.tp",
                            "must divide model.heads (" + std::to_string(w.shape.heads) +
                                "), got " + std::to_string(*s.tp));
    // A learned position table (BERT, GPT-2, GPT-3) holds model.seq_len positions and nothing
    // past them: a longer prompt is not a slower request but one the model cannot read.
    if (w.kind == WorkloadKind::transformer && w.shape.learned_positions &&
        std::int64_t{s.input_tokens} + s.output_tokens > w.shape.seq_len)
        throw ScenarioError(origin, "serving.input_tokens",
                            "input_tokens + output_tokens (" +
                                std::to_string(std::int64_t{s.input_tokens} + s.output_tokens) +
                                ") exceeds the " + std::to_string(w.shape.seq_len) +
                                " learned positions of " + w.name + " (model.seq_len)");
    if (!is_known(s.request_rate_per_s) && s.replicas)
        sc.notes.push_back(
            "serving.replicas without a request rate: saturated throughput of that many replicas");
}

nlohmann::ordered_json serving_spec_json(const ServingSpec& s) {
    ojson j;
    j["engine"] = !s.engine_as_given.empty() ? ojson(s.engine_as_given)
                  : s.engine                 ? ojson(enum_name(*s.engine))
                                             : ojson(nullptr);
    j["weights"] = s.weights ? ojson(enum_name(*s.weights)) : ojson(nullptr);
    j["kv_cache"] = s.kv_cache ? ojson(enum_name(*s.kv_cache)) : ojson(nullptr);
    j["tp"] = nullable(s.tp);
    j["pp"] = nullable(s.pp);
    j["batch"] = nullable(s.batch);
    if (s.engine_max_batch) j["engine_max_batch"] = *s.engine_max_batch;
    if (!s.gqa_shared_kv_reads) j["gqa_shared_kv_reads"] = false;
    if (s.async_scheduling) j["async_scheduling"] = true;
    if (!s.on_device_sampling) j["on_device_sampling"] = false;
    j["input_tokens"] = s.input_tokens;
    j["output_tokens"] = s.output_tokens;
    j["request_rate_per_s"] = nullable(s.request_rate_per_s);
    j["slo"] = ojson{
        {"ttft_ms", nullable(s.slo.ttft_ms)}, {"tpot_ms", nullable(s.slo.tpot_ms)}, {"p", s.slo.p}};
    j["replicas"] = nullable(s.replicas);
    return j;
}

} // namespace scenario_io
} // namespace cp::sim
