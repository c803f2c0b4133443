// Parsing and validation of `clusterplan.scenario/1` (DESIGN.md "Scenario file"). Every error is
// a ScenarioError naming the origin, the field and the reason; unknown fields are errors.
#include "clusterplan/sim/scenario.h"

#include "clusterplan/sim/presets.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <set>
#include <sstream>
#include <utility>

namespace cp::sim {
namespace {

using nlohmann::json;

template <class E, std::size_t N>
using Names = std::array<std::pair<E, const char*>, N>;

constexpr Names<Precision, 5> kPrecisions{{{Precision::fp32, "fp32"},
                                           {Precision::tf32, "tf32"},
                                           {Precision::fp16, "fp16"},
                                           {Precision::bf16, "bf16"},
                                           {Precision::fp8, "fp8"}}};
constexpr Names<Recompute, 3> kRecomputes{
    {{Recompute::none, "none"}, {Recompute::selective, "selective"}, {Recompute::full, "full"}}};
constexpr Names<Schedule, 3> kSchedules{{{Schedule::gpipe, "gpipe"},
                                         {Schedule::one_f_one_b, "1f1b"},
                                         {Schedule::interleaved, "interleaved"}}};
constexpr Names<DpComm, 4> kDpComms{{{DpComm::ring, "ring"},
                                     {DpComm::tree, "tree"},
                                     {DpComm::hierarchical, "hierarchical"},
                                     {DpComm::parameter_server, "parameter_server"}}};
constexpr Names<PsSync, 2> kPsSyncs{{{PsSync::sync, "sync"}, {PsSync::async, "async"}}};
constexpr Names<Pricing, 2> kPricings{{{Pricing::on_demand, "on_demand"}, {Pricing::spot, "spot"}}};
constexpr Names<Objective, 4> kObjectives{{{Objective::cost, "cost"},
                                           {Objective::time, "time"},
                                           {Objective::cost_under_deadline, "cost_under_deadline"},
                                           {Objective::time_under_budget, "time_under_budget"}}};

template <class E, std::size_t N>
const char* name_of(const Names<E, N>& names, E value) {
    for (const auto& [e, n] : names)
        if (e == value) return n;
    return "?";
}

// One JSON object being read: remembers which keys were consumed so the rest can be reported as
// unknown fields, and turns every type or range problem into a ScenarioError naming the field.
class Reader {
public:
    Reader(const json& obj, std::string path, const std::string& origin)
        : obj_(obj), path_(std::move(path)), origin_(origin) {}

    [[noreturn]] void fail(const std::string& key, const std::string& reason) const {
        throw ScenarioError(origin_, field(key), reason);
    }
    std::string field(const std::string& key) const {
        return path_.empty() ? key : path_ + "." + key;
    }

    // The value at `key`, or nullptr when absent or JSON null (both mean "default").
    const json* get(const std::string& key) {
        seen_.insert(key);
        auto it = obj_.find(key);
        if (it == obj_.end() || it->is_null()) return nullptr;
        return &*it;
    }
    bool present(const std::string& key) const {
        auto it = obj_.find(key);
        return it != obj_.end() && !it->is_null();
    }

    std::optional<double> number(const std::string& key, double min, bool min_inclusive) {
        const json* v = get(key);
        if (!v) return std::nullopt;
        if (!v->is_number()) fail(key, "must be a number, got " + type_of(*v));
        const double x = v->get<double>();
        if (!std::isfinite(x)) fail(key, "must be a finite number");
        if (x < min || (!min_inclusive && x == min)) {
            std::ostringstream s;
            s << "must be " << (min_inclusive ? "at least " : "greater than ") << min << ", got "
              << v->dump();
            fail(key, s.str());
        }
        return x;
    }
    std::optional<int> integer(const std::string& key, int min, int max = 1 << 30) {
        const json* v = get(key);
        if (!v) return std::nullopt;
        if (!v->is_number()) fail(key, "must be an integer, got " + type_of(*v));
        const double x = v->get<double>();
        if (!std::isfinite(x) || std::floor(x) != x) fail(key, "must be an integer, got " + v->dump());
        if (x < min || x > max)
            fail(key, "must be an integer from " + std::to_string(min) + " to " +
                          std::to_string(max) + ", got " + v->dump());
        return static_cast<int>(x);
    }
    std::optional<bool> boolean(const std::string& key) {
        const json* v = get(key);
        if (!v) return std::nullopt;
        if (!v->is_boolean()) fail(key, "must be true or false, got " + type_of(*v));
        return v->get<bool>();
    }
    std::optional<std::string> string(const std::string& key) {
        const json* v = get(key);
        if (!v) return std::nullopt;
        if (!v->is_string()) fail(key, "must be a string, got " + type_of(*v));
        return v->get<std::string>();
    }
    template <class E, std::size_t N>
    std::optional<E> enumeration(const std::string& key, const Names<E, N>& names) {
        auto s = string(key);
        if (!s) return std::nullopt;
        std::string allowed;
        for (const auto& [e, n] : names) {
            if (*s == n) return e;
            allowed += (allowed.empty() ? "" : ", ") + std::string(n);
        }
        fail(key, "unknown value '" + *s + "' (expected one of " + allowed + ")");
    }
    // A nested object, or nullopt when absent/null.
    std::optional<Reader> object(const std::string& key) {
        const json* v = get(key);
        if (!v) return std::nullopt;
        if (!v->is_object()) fail(key, "must be an object, got " + type_of(*v));
        return Reader(*v, field(key), origin_);
    }
    // Call after reading every known key.
    void reject_unknown() const {
        for (const auto& [key, value] : obj_.items())
            if (!seen_.count(key)) fail(key, "unknown field");
    }

    static std::string type_of(const json& v) {
        if (v.is_string()) return "the string " + v.dump();
        if (v.is_boolean()) return v.dump();
        if (v.is_array()) return "a list";
        if (v.is_object()) return "an object";
        return v.dump();
    }

private:
    const json& obj_;
    std::string path_;
    const std::string& origin_;
    std::set<std::string> seen_;
};

// Parameter count from the shape, for the Chinchilla default and messages (the step model does
// its own accounting). Attention: Q and O are h×h, K and V shrink with grouped-query attention.
double approx_transformer_params(const TransformerShape& s) {
    const double h = s.hidden;
    const double kv_dim = h * s.kv_heads / s.heads;
    const double attention = 2 * h * h + 2 * h * kv_dim;
    const double mlp = (s.gated_mlp ? 3.0 : 2.0) * h * s.ffn_hidden;
    double p = s.layers * (attention + mlp) + double(s.vocab) * h;
    if (s.learned_positions) p += double(s.seq_len) * h;
    return p;
}

void parse_model(Reader& r, Scenario& sc) {
    Workload& w = sc.workload;
    const ModelPreset* preset = nullptr;
    if (auto id = r.string("preset")) {
        preset = find_model_preset(*id);
        if (!preset) r.fail("preset", "unknown preset '" + *id + "' (known: " + model_preset_ids() + ")");
        sc.preset = *id;
        w = preset->workload;
    }
    TransformerShape& s = w.shape;
    const bool shape_given = r.present("layers") || r.present("hidden");
    if (auto v = r.integer("layers", 1)) s.layers = *v;
    if (auto v = r.integer("hidden", 1)) s.hidden = *v;
    if (auto v = r.integer("heads", 1)) s.heads = *v;
    if (auto v = r.integer("kv_heads", 1)) s.kv_heads = *v;
    if (auto v = r.integer("ffn_hidden", 1)) s.ffn_hidden = *v;
    if (auto v = r.boolean("gated_mlp")) s.gated_mlp = *v;
    if (auto v = r.integer("seq_len", 1)) s.seq_len = *v;
    if (auto v = r.integer("vocab", 1)) s.vocab = *v;
    if (auto v = r.boolean("learned_positions")) s.learned_positions = *v;
    const auto flash = r.boolean("flash_attention");
    if (flash) s.flash_attention = *flash;
    const auto params = r.number("params", 0, false);
    const auto flops = r.number("flops_per_sample", 0, false);
    r.reject_unknown();

    if (shape_given || (preset && preset->workload.kind == WorkloadKind::transformer)) {
        w.kind = WorkloadKind::transformer;
        for (const char* key : {"layers", "hidden", "heads", "seq_len", "vocab"}) {
            const int value = std::string(key) == "layers"   ? s.layers
                              : std::string(key) == "hidden" ? s.hidden
                              : std::string(key) == "heads"  ? s.heads
                              : std::string(key) == "seq_len" ? s.seq_len
                                                              : s.vocab;
            if (value <= 0) r.fail(key, "required for a transformer model (or give model.preset)");
        }
        if (s.kv_heads <= 0) s.kv_heads = s.heads;
        if (s.ffn_hidden <= 0) s.ffn_hidden = 4 * s.hidden;
        if (s.hidden % s.heads != 0)
            r.fail("heads", "must divide model.hidden (" + std::to_string(s.hidden) + "), got " +
                                std::to_string(s.heads));
        if (s.heads % s.kv_heads != 0)
            r.fail("kv_heads", "must divide model.heads (" + std::to_string(s.heads) + "), got " +
                                   std::to_string(s.kv_heads));
        if (flops) r.fail("flops_per_sample", "only for generic models (leave out layers/hidden)");
        w.params = params ? *params : 0.0;  // 0: the step model derives it from the shape
    } else {
        w.kind = WorkloadKind::generic;
        if (params) w.params = *params;
        if (flops) w.flops_per_sample = *flops;
        if (w.params <= 0)
            r.fail("params", "required for a generic model (or give layers and hidden for a "
                             "transformer, or model.preset)");
        if (w.flops_per_sample <= 0)
            r.fail("flops_per_sample", "required for a generic model (forward+backward FLOPs per sample)");
        if (flash && *flash)
            r.fail("flash_attention", "only for transformer models (a generic model has no attention to fuse)");
    }
    if (w.name.empty()) w.name = sc.name.empty() ? "custom model" : sc.name;
}

void parse_custom(Reader& r, Scenario& sc) {
    CustomHardware c;
    if (auto v = r.string("accelerator")) c.accelerator = *v;
    if (auto v = r.integer("accelerators_per_node", 1, 1024)) c.accelerators_per_node = *v;
    if (auto v = r.number("intra_node_gbytes_per_s", 0, false)) c.intra_node_gbytes_per_s = *v;
    if (auto v = r.number("inter_node_gbps", 0, false)) c.inter_node_gbps = *v;
    if (auto v = r.number("inter_node_latency_us", 0, true)) c.inter_node_latency_us = *v;
    if (auto v = r.number("usd_per_node_hour", 0, true)) c.usd_per_node_hour = *v;
    r.reject_unknown();
    sc.custom = c;
}

void parse_cluster(Reader& r, Scenario& sc) {
    if (auto v = r.string("instance")) {
        if (v->empty()) r.fail("instance", "must not be empty (leave it out to search instances)");
        sc.instance = *v;
    }
    sc.nodes = r.integer("nodes", 1, kMaxScenarioNodes);
    if (auto v = r.string("region")) {
        if (v->empty()) r.fail("region", "must not be empty (leave it out for us-east-1)");
        sc.region = *v;
    }
    if (auto v = r.enumeration("pricing", kPricings)) sc.pricing = *v;
    if (auto v = r.string("calibration")) {
        if (v->empty()) r.fail("calibration", "must name a calibration profile or be \"datasheet\"");
        sc.calibration = *v;
    }
    if (auto c = r.object("custom")) parse_custom(*c, sc);
    r.reject_unknown();
    if (sc.custom && sc.instance.empty() && sc.custom->accelerator.empty())
        r.fail("custom.accelerator", "required when cluster.instance is not given");
}

void parse_parallel(Reader& r, Scenario& sc) {
    ParallelSpec& p = sc.parallel;
    p.tp = r.integer("tp", 1, 4096);
    p.pp = r.integer("pp", 1, 4096);
    p.dp = r.integer("dp", 1, 1 << 20);
    p.micro_batch = r.integer("micro_batch", 1, 1 << 20);
    if (auto v = r.integer("global_batch", 1, 1 << 26)) p.global_batch = *v;
    if (auto v = r.enumeration("schedule", kSchedules)) p.schedule = *v;
    p.virtual_stages = r.integer("virtual_stages", 1, 1024);
    if (auto v = r.boolean("sequence_parallel")) p.sequence_parallel = *v;
    p.zero = r.integer("zero", 0, 3);
    p.recompute = r.enumeration("recompute", kRecomputes);
    if (auto v = r.enumeration("dp_comm", kDpComms)) p.dp_comm = *v;
    const auto servers = r.integer("parameter_servers", 0, 1 << 16);
    if (servers) p.parameter_servers = *servers;
    if (auto v = r.enumeration("ps_sync", kPsSyncs)) p.ps_sync = *v;
    if (auto v = r.boolean("overlap_dp")) p.overlap_dp = *v;
    if (auto v = r.number("grad_compression", 0, false)) {
        if (*v > 1) r.fail("grad_compression", "must be in (0, 1] (bytes sent per gradient byte)");
        p.grad_compression = *v;
    }
    r.reject_unknown();

    if (p.dp_comm == DpComm::parameter_server) {
        if (servers && *servers == 0)
            r.fail("parameter_servers", "must be at least 1 when dp_comm is parameter_server");
        if (!servers) {
            p.parameter_servers = 1;
            sc.notes.push_back("parallel.parameter_servers not given: 1 server shard assumed");
        }
    }
    if (p.virtual_stages && *p.virtual_stages > 1 && p.schedule != Schedule::interleaved)
        r.fail("virtual_stages", "more than 1 needs schedule \"interleaved\"");
}

// Cross-field checks that need the model (the device-count check needs hardware: planner).
void validate_layout_against_model(const Scenario& sc, const std::string& origin) {
    const ParallelSpec& p = sc.parallel;
    const Workload& w = sc.workload;
    auto fail = [&](const std::string& field, const std::string& reason) {
        throw ScenarioError(origin, field, reason);
    };
    if (w.kind == WorkloadKind::generic) {
        if (p.tp && *p.tp != 1)
            fail("parallel.tp", "a generic model (" + w.name + ") trains data-parallel only, so tp must be 1");
        if (p.pp && *p.pp != 1)
            fail("parallel.pp", "a generic model (" + w.name + ") trains data-parallel only, so pp must be 1");
    } else {
        const auto& s = w.shape;
        if (p.tp && s.heads % *p.tp != 0)
            fail("parallel.tp", "must divide model.heads (" + std::to_string(s.heads) + "), got " +
                                    std::to_string(*p.tp));
        if (p.tp && s.kv_heads % *p.tp != 0)
            fail("parallel.tp", "must divide model.kv_heads (" + std::to_string(s.kv_heads) + "), got " +
                                    std::to_string(*p.tp));
        if (p.tp && s.ffn_hidden % *p.tp != 0)
            fail("parallel.tp", "must divide model.ffn_hidden (" + std::to_string(s.ffn_hidden) + "), got " +
                                    std::to_string(*p.tp));
        // Pipeline stages hold equal numbers of whole layers (uneven stages are not modelled).
        if (p.pp && s.layers % *p.pp != 0)
            fail("parallel.pp", "must divide model.layers (" + std::to_string(s.layers) + "), got " +
                                    std::to_string(*p.pp));
        if (p.pp && p.virtual_stages && s.layers % (*p.pp * *p.virtual_stages) != 0)
            fail("parallel.virtual_stages", "pp × virtual_stages must divide model.layers (" +
                                                std::to_string(s.layers) + ")");
    }
    if (p.micro_batch && *p.micro_batch > p.global_batch)
        fail("parallel.micro_batch", "must not exceed parallel.global_batch (" +
                                         std::to_string(p.global_batch) + ")");
    if (p.dp && *p.dp > p.global_batch)
        fail("parallel.dp", "must not exceed parallel.global_batch (" + std::to_string(p.global_batch) +
                                "): each replica needs at least one sample");
    if (p.micro_batch && p.dp && p.global_batch % (*p.micro_batch * *p.dp) != 0)
        fail("parallel.global_batch", "must be a multiple of micro_batch × dp (" +
                                          std::to_string(*p.micro_batch * *p.dp) + "), got " +
                                          std::to_string(p.global_batch));
}

void parse_training(Reader& r, Scenario& sc) {
    TrainingSpec& t = sc.training;
    if (auto v = r.number("tokens", 0, false)) t.tokens = *v;
    if (auto v = r.number("samples", 0, false)) t.samples = *v;
    if (auto v = r.number("epochs", 0, false)) t.epochs = *v;
    if (auto v = r.number("dataset_samples", 0, false)) t.dataset_samples = *v;
    if (auto v = r.integer("trials", 1, 1000000)) t.trials = *v;
    if (auto v = r.integer("max_parallel_trials", 1, 1000000)) t.max_parallel_trials = *v;
    r.reject_unknown();
    const int given = (t.tokens > 0) + (t.samples > 0) + (t.epochs > 0);
    if (given > 1) r.fail("tokens", "give only one of tokens, samples, or epochs with dataset_samples");
    if (t.epochs > 0 && t.dataset_samples <= 0) r.fail("dataset_samples", "required with training.epochs");
    if (t.dataset_samples > 0 && t.epochs <= 0) r.fail("epochs", "required with training.dataset_samples");
    if (t.tokens > 0 && sc.workload.kind == WorkloadKind::generic)
        r.fail("tokens", "a generic model counts samples: give samples, or epochs with dataset_samples");
}

// Training length when the file gives none: the preset's published figure, else the
// Chinchilla rule for transformers (stated), else an error for generic models.
void default_training(Scenario& sc, const std::string& origin) {
    TrainingSpec& t = sc.training;
    if (t.tokens > 0 || t.samples > 0 || t.epochs > 0) return;
    if (const ModelPreset* p = find_model_preset(sc.preset)) {
        t.tokens = p->training_tokens;
        t.samples = p->training_samples;
        t.epochs = p->training_epochs;
        t.dataset_samples = p->training_dataset_samples;
        if (t.tokens > 0 || t.samples > 0 || t.epochs > 0) {
            sc.notes.push_back("training length not given: the " + p->title +
                               " published training length is used");
            return;
        }
    }
    if (sc.workload.kind == WorkloadKind::transformer) {
        const double params = sc.workload.params > 0 ? sc.workload.params
                                                     : approx_transformer_params(sc.workload.shape);
        t.tokens = 20.0 * params;
        sc.notes.push_back("training.tokens not given: 20 tokens per parameter assumed "
                           "(Chinchilla, Hoffmann et al. 2022)");
        return;
    }
    throw ScenarioError(origin, "training",
                        "give tokens, samples, or epochs with dataset_samples (a custom generic model "
                        "has no default training length)");
}

void parse_spot(Reader& r, Scenario& sc) {
    if (auto v = r.number("checkpoint_write_s", 0, true)) sc.spot.checkpoint_write_s = *v;
    if (auto v = r.number("restart_s", 0, true)) sc.spot.restart_s = *v;
    if (auto v = r.boolean("checkpoint_on_notice")) sc.spot.checkpoint_on_notice = *v;
    r.reject_unknown();
    if (sc.spot.checkpoint_on_notice && sc.spot.checkpoint_write_s > 120)
        r.fail("checkpoint_on_notice", "needs checkpoint_write_s of at most 120 s (the 2-minute notice)");
}

void parse_constraints(Reader& r, Scenario& sc) {
    Constraints& c = sc.constraints;
    if (auto v = r.integer("max_nodes", 1, kMaxScenarioNodes)) c.max_nodes = *v;
    if (auto v = r.number("deadline_hours", 0, false)) c.deadline_hours = *v;
    if (auto v = r.number("budget_usd", 0, false)) c.budget_usd = *v;
    if (const json* v = r.get("instances")) {
        if (!v->is_array()) r.fail("instances", "must be a list of instance types");
        for (const auto& item : *v) {
            if (!item.is_string() || item.get<std::string>().empty())
                r.fail("instances", "must hold instance type names, got " + item.dump());
            c.instances.push_back(item.get<std::string>());
        }
    }
    if (auto v = r.boolean("allow_spot")) c.allow_spot = *v;
    if (auto v = r.enumeration("objective", kObjectives)) c.objective = *v;
    r.reject_unknown();
    if (c.objective == Objective::cost_under_deadline && !is_known(c.deadline_hours))
        r.fail("deadline_hours", "required by objective cost_under_deadline");
    if (c.objective == Objective::time_under_budget && !is_known(c.budget_usd))
        r.fail("budget_usd", "required by objective time_under_budget");
}

using ojson = nlohmann::ordered_json;
ojson nullable(const std::optional<int>& v) { return v ? ojson(*v) : ojson(nullptr); }
ojson nullable(double v) { return is_known(v) ? ojson(v) : ojson(nullptr); }

} // namespace

const char* enum_name(Precision p) { return name_of(kPrecisions, p); }
const char* enum_name(Recompute r) { return name_of(kRecomputes, r); }
const char* enum_name(Schedule s) { return name_of(kSchedules, s); }
const char* enum_name(DpComm d) { return name_of(kDpComms, d); }
const char* enum_name(PsSync s) { return name_of(kPsSyncs, s); }
const char* enum_name(Pricing p) { return name_of(kPricings, p); }
const char* enum_name(Objective o) { return name_of(kObjectives, o); }

Scenario parse_scenario(const std::string& json_text, const std::string& origin) {
    json doc;
    try {
        doc = json::parse(json_text);
    } catch (const json::parse_error& e) {
        // nlohmann's message carries the byte position; keep it, drop the exception prefix.
        std::string what = e.what();
        if (auto pos = what.find("parse error"); pos != std::string::npos) what = what.substr(pos);
        throw ScenarioError(origin, "(file)", "not valid JSON: " + what);
    } catch (const json::exception& e) {
        // e.g. out_of_range 406 for a number beyond double range ("1e309"); found by fuzzing.
        throw ScenarioError(origin, "(file)", "not valid JSON: " + std::string(e.what()));
    }
    if (!doc.is_object()) throw ScenarioError(origin, "(file)", "must hold a JSON object");

    Scenario sc;
    sc.origin = origin;
    Reader top(doc, "", origin);
    if (auto v = top.string("schema"); v && *v != "clusterplan.scenario/1")
        top.fail("schema", "unsupported schema '" + *v + "' (expected clusterplan.scenario/1)");
    if (auto v = top.string("name")) sc.name = *v;

    auto model = top.object("model");
    if (!model) top.fail("model", "required (a preset or a shape)");
    parse_model(*model, sc);
    auto cluster = top.object("cluster");
    if (!cluster) top.fail("cluster", "required (an instance type, or custom hardware)");
    parse_cluster(*cluster, sc);
    if (auto p = top.object("parallel")) parse_parallel(*p, sc);
    if (auto v = top.enumeration("precision", kPrecisions)) sc.precision = *v;
    if (auto t = top.object("training")) parse_training(*t, sc);
    if (auto s = top.object("spot")) parse_spot(*s, sc);
    if (auto c = top.object("constraints")) parse_constraints(*c, sc);
    top.reject_unknown();

    if (sc.parallel.global_batch == 0) {
        const ModelPreset* preset = find_model_preset(sc.preset);
        if (preset && preset->global_batch > 0) {
            sc.parallel.global_batch = preset->global_batch;
        } else {
            sc.parallel.global_batch = sc.workload.kind == WorkloadKind::transformer ? 512 : 256;
            sc.notes.push_back("parallel.global_batch not given: " +
                               std::to_string(sc.parallel.global_batch) + " samples assumed");
        }
    }
    validate_layout_against_model(sc, origin);
    const auto& allowed = sc.constraints.instances;
    if (!sc.instance.empty() && !allowed.empty() &&
        std::find(allowed.begin(), allowed.end(), sc.instance) == allowed.end()) {
        std::string list;
        for (const auto& type : allowed) list += (list.empty() ? "" : ", ") + type;
        throw ScenarioError(origin, "cluster.instance",
                            "'" + sc.instance + "' is not in constraints.instances (" + list +
                                "): the two contradict; add it to the list or leave one of them out");
    }
    default_training(sc, origin);
    if (sc.nodes && *sc.nodes > sc.constraints.max_nodes)
        throw ScenarioError(origin, "cluster.nodes",
                            "exceeds constraints.max_nodes (" + std::to_string(sc.constraints.max_nodes) + ")");
    return sc;
}

std::string scenario_to_json(const Scenario& sc) {
    ojson doc;
    doc["schema"] = "clusterplan.scenario/1";
    doc["name"] = sc.name;
    ojson model;
    if (!sc.preset.empty()) model["preset"] = sc.preset;
    const Workload& w = sc.workload;
    if (w.kind == WorkloadKind::transformer) {
        const auto& s = w.shape;
        model["layers"] = s.layers;
        model["hidden"] = s.hidden;
        model["heads"] = s.heads;
        model["kv_heads"] = s.kv_heads;
        model["ffn_hidden"] = s.ffn_hidden;
        model["gated_mlp"] = s.gated_mlp;
        model["seq_len"] = s.seq_len;
        model["vocab"] = s.vocab;
        model["learned_positions"] = s.learned_positions;
        model["flash_attention"] = s.flash_attention;
        model["params"] = w.params > 0 ? ojson(w.params) : ojson(nullptr);
    } else {
        model["params"] = w.params;
        model["flops_per_sample"] = w.flops_per_sample;
    }
    doc["model"] = model;

    ojson cluster;
    cluster["instance"] = sc.instance.empty() ? ojson(nullptr) : ojson(sc.instance);
    cluster["nodes"] = (nullable(sc.nodes));
    cluster["region"] = sc.region;
    cluster["pricing"] = enum_name(sc.pricing);
    cluster["calibration"] = sc.calibration;
    if (sc.custom) {
        const CustomHardware& c = *sc.custom;
        ojson custom;
        if (!c.accelerator.empty()) custom["accelerator"] = c.accelerator;
        if (c.accelerators_per_node > 0) custom["accelerators_per_node"] = c.accelerators_per_node;
        if (is_known(c.intra_node_gbytes_per_s)) custom["intra_node_gbytes_per_s"] = c.intra_node_gbytes_per_s;
        if (is_known(c.inter_node_gbps)) custom["inter_node_gbps"] = c.inter_node_gbps;
        if (is_known(c.inter_node_latency_us)) custom["inter_node_latency_us"] = c.inter_node_latency_us;
        if (is_known(c.usd_per_node_hour)) custom["usd_per_node_hour"] = c.usd_per_node_hour;
        cluster["custom"] = custom;
    }
    doc["cluster"] = cluster;

    const ParallelSpec& p = sc.parallel;
    ojson par;
    par["tp"] = (nullable(p.tp));
    par["pp"] = (nullable(p.pp));
    par["dp"] = (nullable(p.dp));
    par["micro_batch"] = (nullable(p.micro_batch));
    par["global_batch"] = p.global_batch;
    par["schedule"] = enum_name(p.schedule);
    par["virtual_stages"] = (nullable(p.virtual_stages));
    par["sequence_parallel"] = p.sequence_parallel;
    par["zero"] = (nullable(p.zero));
    par["recompute"] = p.recompute ? ojson(enum_name(*p.recompute)) : ojson(nullptr);
    par["dp_comm"] = enum_name(p.dp_comm);
    par["parameter_servers"] = p.parameter_servers;
    par["ps_sync"] = enum_name(p.ps_sync);
    par["overlap_dp"] = p.overlap_dp;
    par["grad_compression"] = p.grad_compression;
    doc["parallel"] = par;
    doc["precision"] = enum_name(sc.precision);

    const TrainingSpec& t = sc.training;
    ojson training;
    if (t.tokens > 0) training["tokens"] = t.tokens;
    if (t.samples > 0) training["samples"] = t.samples;
    if (t.epochs > 0) {
        training["epochs"] = t.epochs;
        training["dataset_samples"] = t.dataset_samples;
    }
    training["trials"] = t.trials;
    training["max_parallel_trials"] = t.max_parallel_trials;
    doc["training"] = training;
    doc["spot"] = ojson{{"checkpoint_write_s", sc.spot.checkpoint_write_s},
                        {"restart_s", sc.spot.restart_s},
                        {"checkpoint_on_notice", sc.spot.checkpoint_on_notice}};
    const Constraints& c = sc.constraints;
    ojson cons;
    cons["max_nodes"] = c.max_nodes;
    cons["deadline_hours"] = (nullable(c.deadline_hours));
    cons["budget_usd"] = (nullable(c.budget_usd));
    cons["instances"] = c.instances;
    cons["allow_spot"] = c.allow_spot;
    cons["objective"] = enum_name(c.objective);
    doc["constraints"] = cons;
    return doc.dump(2) + "\n";
}

} // namespace cp::sim
