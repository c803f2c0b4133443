#include "clusterplan/service/serving_study.h"

#include "clusterplan/service/scenario_input.h"
#include "clusterplan/service/serving_input.h"
#include "clusterplan/sim/presets.h"

#include <algorithm>
#include <cctype>
#include <nlohmann/json.hpp>

namespace cp::service {

namespace {

constexpr const char* kFormOrigin = "Serve page";

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

std::string trimmed(const std::string& s) {
    const auto first = s.find_first_not_of(" \t");
    if (first == std::string::npos) return {};
    return s.substr(first, s.find_last_not_of(" \t") - first + 1);
}

bool matches(const std::string& type, const std::string& pattern) {
    if (type == pattern) return true;
    // A family is the part before the dot: "g6" names g6.xlarge but not g6e.xlarge.
    return type.size() > pattern.size() && type.compare(0, pattern.size(), pattern) == 0 &&
           type[pattern.size()] == '.';
}

} // namespace

bool workload_generates(const sim::Workload& w) {
    return w.kind == sim::WorkloadKind::transformer && !w.shape.encoder_only;
}

bool preset_generates(const std::string& preset) {
    const sim::ModelPreset* p = sim::find_model_preset(preset);
    return p != nullptr && workload_generates(p->workload);
}

namespace {

// A scenario of `model` and `serving` read by the scenario parser; the catalog is not consulted,
// so the instance filter is left out.
sim::Scenario read_with_model(const nlohmann::ordered_json& model,
                              const nlohmann::ordered_json& serving) {
    using json = nlohmann::ordered_json;
    const json doc = {{"schema", "clusterplan.scenario/1"},
                      {"name", "model"},
                      {"model", model},
                      {"cluster", {{"region", "us-east-1"}}},
                      {"serving", serving}};
    return sim::parse_scenario(doc.dump(), kFormOrigin);
}

// The scenario's model section where it is not its preset's alone (no preset, or overridden
// fields), else empty: the sections the scenario writer gives the scenario and the preset.
std::string own_model_json(const sim::Scenario& sc) {
    using json = nlohmann::ordered_json;
    const json written = json::parse(sim::scenario_to_json(sc)).at("model");
    if (sim::find_model_preset(sc.preset) != nullptr) {
        // The preset as the parser fills it (fused attention on for modern presets, ...).
        sim::Scenario bare = sc;
        bare.workload = read_with_model({{"preset", sc.preset}}, json::object()).workload;
        if (json::parse(sim::scenario_to_json(bare)).at("model") == written) return {};
    }
    return written.dump();
}

// The cluster fields a serving question carries without a form field: a calibration profile
// and custom hardware, as the scenario writer gives them; empty when the file has neither.
std::string carried_cluster_json(const sim::Scenario& sc) {
    using json = nlohmann::ordered_json;
    const json cluster = json::parse(sim::scenario_to_json(sc)).at("cluster");
    json kept = json::object();
    const sim::Scenario defaults;
    if (sc.calibration != defaults.calibration) kept["calibration"] = cluster["calibration"];
    if (cluster.contains("custom")) kept["custom"] = cluster["custom"];
    return kept.empty() ? std::string() : kept.dump();
}

} // namespace

ServingQuestion serving_question(const sim::Scenario& sc) {
    ServingQuestion q;
    if (!sc.preset.empty() && (sc.serving || preset_generates(sc.preset))) q.preset = sc.preset;
    if (sc.serving) {
        q.model_json = own_model_json(sc);
        if (!q.model_json.empty()) {
            q.preset = sc.preset;
            q.model_generates = workload_generates(sc.workload);
        }
    }
    q.name = sc.serving ? sc.name : std::string();
    q.region = sc.region;
    if (sc.serving) q.cluster_json = carried_cluster_json(sc);
    q.spot = sc.pricing == sim::Pricing::spot;
    if (!sc.instance.empty())
        q.instances = {sc.instance};
    else
        q.instances = sc.constraints.instances;
    if (!sc.serving) {
        if (!preset_generates(q.preset)) q.output_tokens = 0;
        return q;
    }
    const sim::ServingSpec& s = *sc.serving;
    // The engine as the file names it (sglang runs on the vllm profile): saved as given.
    if (s.engine)
        q.engine = s.engine_as_given.empty() ? sim::enum_name(*s.engine) : s.engine_as_given;
    if (s.weights) q.weights = sim::enum_name(*s.weights);
    if (s.kv_cache) q.kv_cache = sim::enum_name(*s.kv_cache);
    q.tp = s.tp.value_or(0);
    q.batch = s.batch.value_or(0);
    q.pp = s.pp.value_or(0);
    q.replicas = s.replicas.value_or(0);
    q.engine_max_batch = s.engine_max_batch.value_or(0);
    q.gqa_shared_kv_reads = s.gqa_shared_kv_reads;
    q.async_scheduling = s.async_scheduling;
    q.on_device_sampling = s.on_device_sampling;
    q.request_rate_per_s = sim::is_known(s.request_rate_per_s) ? s.request_rate_per_s : 0;
    q.input_tokens = s.input_tokens;
    q.output_tokens = s.output_tokens;
    q.ttft_ms = sim::is_known(s.slo.ttft_ms) ? s.slo.ttft_ms : 0;
    q.tpot_ms = sim::is_known(s.slo.tpot_ms) ? s.slo.tpot_ms : 0;
    q.slo_p = s.slo.p;
    return q;
}

std::vector<std::string> match_instances(const std::vector<std::string>& patterns,
                                         const catalog::Catalog& cat, const std::string& region) {
    catalog::InstanceFilter filter;
    filter.region = region;
    std::vector<std::string> types;
    for (const auto& info : cat.instances(filter))
        types.push_back(info.instance_type);
    std::vector<std::string> out;
    for (const std::string& raw : patterns) {
        const std::string pattern = lower(trimmed(raw));
        if (pattern.empty()) continue;
        bool found = false;
        for (const std::string& type : types) {
            if (!matches(lower(type), pattern)) continue;
            found = true;
            if (std::find(out.begin(), out.end(), type) == out.end()) out.push_back(type);
        }
        if (!found)
            throw sim::ScenarioError(kFormOrigin, "constraints.instances",
                                     "'" + trimmed(raw) +
                                         "' names no catalog instance type or family in " + region);
    }
    return out;
}

namespace {

// The scenario's `serving` section as the question states it; a left-out field stays left out.
nlohmann::ordered_json serving_section(const ServingQuestion& q) {
    using json = nlohmann::ordered_json;
    json serving = json::object();
    if (!q.engine.empty()) serving["engine"] = q.engine;
    if (!q.weights.empty()) serving["weights"] = q.weights;
    if (!q.kv_cache.empty()) serving["kv_cache"] = q.kv_cache;
    if (q.tp > 0) serving["tp"] = q.tp;
    if (q.pp > 0) serving["pp"] = q.pp;
    if (q.batch > 0) serving["batch"] = q.batch;
    if (q.engine_max_batch > 0) serving["engine_max_batch"] = q.engine_max_batch;
    if (!q.gqa_shared_kv_reads) serving["gqa_shared_kv_reads"] = false;
    if (q.async_scheduling) serving["async_scheduling"] = true;
    if (!q.on_device_sampling) serving["on_device_sampling"] = false;
    serving["input_tokens"] = q.input_tokens;
    serving["output_tokens"] = q.output_tokens;
    if (q.request_rate_per_s > 0) serving["request_rate_per_s"] = q.request_rate_per_s;
    json slo = json::object();
    if (q.ttft_ms > 0) slo["ttft_ms"] = q.ttft_ms;
    if (q.tpot_ms > 0) slo["tpot_ms"] = q.tpot_ms;
    slo["p"] = q.slo_p;
    serving["slo"] = slo;
    if (q.replicas > 0) serving["replicas"] = q.replicas;
    return serving;
}

nlohmann::ordered_json model_section(const ServingQuestion& q) {
    using json = nlohmann::ordered_json;
    return q.model_json.empty() ? json{{"preset", q.preset}} : json::parse(q.model_json);
}

// The model alone: a serving field it conflicts with is the planner's sentence, not this one's.
sim::Workload model_alone(const nlohmann::ordered_json& model) {
    return read_with_model(model, nlohmann::ordered_json::object()).workload;
}

} // namespace

sim::Workload question_model(const ServingQuestion& q) {
    return model_alone(model_section(q));
}

void check_question(const ServingQuestion& q) {
    read_with_model(model_section(q), serving_section(q));
}

std::string reshaped_model_json(const ServingQuestion& q, const sim::TransformerShape& shape) {
    const sim::TransformerShape now = question_model(q).shape;
    nlohmann::ordered_json model = model_section(q);
    const struct {
        const char* key;
        int sim::TransformerShape::*field;
    } widths[] = {{"layers", &sim::TransformerShape::layers},
                  {"hidden", &sim::TransformerShape::hidden},
                  {"heads", &sim::TransformerShape::heads},
                  {"kv_heads", &sim::TransformerShape::kv_heads},
                  {"head_dim", &sim::TransformerShape::head_dim},
                  {"ffn_hidden", &sim::TransformerShape::ffn_hidden},
                  {"seq_len", &sim::TransformerShape::seq_len},
                  {"vocab", &sim::TransformerShape::vocab}};
    for (const auto& w : widths) {
        if (shape.*w.field == now.*w.field) continue;
        if (shape.*w.field <= 0 && std::string(w.key) == "head_dim")
            model.erase(w.key); // auto: hidden / heads
        else
            model[w.key] = shape.*w.field;
    }
    if (shape.gated_mlp != now.gated_mlp) model["gated_mlp"] = shape.gated_mlp;
    if (shape.tied_embeddings != now.tied_embeddings)
        model["tied_embeddings"] = shape.tied_embeddings;
    if (shape.learned_positions != now.learned_positions)
        model["learned_positions"] = shape.learned_positions;
    if (shape.flash_attention != now.flash_attention ||
        shape.flash_attention_v1 != now.flash_attention_v1) {
        // A named kernel implies fused attention; unfused is stated as flash_attention false.
        model.erase("flash_attention");
        model.erase("attention_kernel");
        if (!shape.flash_attention)
            model["flash_attention"] = false;
        else
            model["attention_kernel"] = shape.flash_attention_v1 ? "flash1" : "flash2";
    }
    const struct {
        const char* key;
        int sim::MoeShape::*field;
    } routing[] = {{"experts", &sim::MoeShape::experts},
                   {"experts_per_token", &sim::MoeShape::experts_per_token},
                   {"shared_experts", &sim::MoeShape::shared_experts},
                   {"moe_ffn_hidden", &sim::MoeShape::moe_ffn_hidden},
                   {"moe_layer_freq", &sim::MoeShape::moe_layer_freq}};
    if (shape.moe.experts == 0 && now.moe.enabled()) {
        // Dense again: the section's own routing goes; a preset's routing cannot be stated away.
        for (const char* key : {"experts", "experts_per_token", "shared_experts", "moe_ffn_hidden",
                                "moe_layer_freq", "capacity_factor"})
            model.erase(key);
        if (model_alone(model).shape.moe.enabled())
            throw sim::ScenarioError(kFormOrigin, "model.experts",
                                     "the preset '" + q.preset +
                                         "' routes experts; choose a dense model to serve one");
    } else if (shape.moe.experts > 0) {
        for (const auto& r : routing)
            if (shape.moe.*r.field != now.moe.*r.field) model[r.key] = shape.moe.*r.field;
        if (shape.moe.capacity_factor != now.moe.capacity_factor) {
            if (shape.moe.capacity_factor > 0)
                model["capacity_factor"] = shape.moe.capacity_factor;
            else
                model.erase("capacity_factor"); // absent: no cap (dropless)
        }
    }
    // With the question's serving section: a depth its pipeline degree does not divide is refused
    // here, naming serving.pp, rather than when the question is planned.
    read_with_model(model, serving_section(q));
    return model.dump();
}

sim::Scenario serving_scenario(const ServingQuestion& q, const catalog::Catalog& cat) {
    using json = nlohmann::ordered_json;
    const json serving = serving_section(q);
    json cluster = {{"region", q.region}, {"pricing", q.spot ? "spot" : "on_demand"}};
    if (!q.cluster_json.empty()) {
        const json carried = json::parse(q.cluster_json);
        for (const auto& [key, value] : carried.items())
            cluster[key] = value;
    }
    const std::vector<std::string> types = match_instances(q.instances, cat, q.region);
    json doc = {{"schema", "clusterplan.scenario/1"},
                {"name", q.name.empty()
                             ? "Serving " + (q.preset.empty() ? "a custom model" : q.preset)
                             : q.name}};
    doc["model"] = model_section(q);
    // One type is planned as that instance (with the scenario's calibration), several are ranked.
    if (types.size() == 1) cluster["instance"] = types.front();
    doc["cluster"] = cluster;
    doc["serving"] = serving;
    if (types.size() > 1) doc["constraints"] = {{"instances", types}};
    return sim::parse_scenario(doc.dump(), kFormOrigin);
}

int ServingStudy::servable() const {
    return int(std::count_if(ranked.begin(), ranked.end(),
                             [](const sim::ServingPlan& p) { return p.valid; }));
}

int ServingStudy::meeting_slo() const {
    return int(std::count_if(ranked.begin(), ranked.end(),
                             [](const sim::ServingPlan& p) { return p.valid && p.meets_slo; }));
}

ServingStudy study_serving(const sim::Scenario& sc, catalog::Catalog& cat) {
    if (!sc.serving)
        throw sim::ScenarioError(sc.origin, "serving",
                                 "required to plan serving (this scenario plans training)");
    ServingStudy out;
    out.scenario = sc;
    const std::vector<sim::NodeSpec> candidates = serving_candidates(sc, cat);
    const sim::ServingFactors& factors = fitted_serving_factors(cat);
    const sim::ServingRequest request = serving_request(sc);
    if (candidates.size() == 1) {
        const auto calibration = resolve_calibration(sc, cat);
        out.ranked.push_back(sim::plan_serving(request, candidates.front(), factors,
                                               calibration ? &*calibration : nullptr));
    } else {
        out.ranked = sim::rank_serving(request, candidates, factors);
    }
    return out;
}

} // namespace cp::service
