// Parsers of the scenario's sections (DESIGN.md "Scenario file"): model, cluster, parallel,
// training, spot and constraints. Errors name the field through the shared Reader.
#include "clusterplan/sim/presets.h"
#include "clusterplan/sim/scenario_limits.h"
#include "io/scenario_layout_fields.h"
#include "io/scenario_pricing.h"
#include "io/scenario_reader.h"
#include "io/scenario_training_options.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

namespace cp::sim::scenario_io {
// Parameter count from the shape, for the Chinchilla default and messages (the step model does
// its own accounting). Attention: Q and O are h × heads·head_dim, K and V shrink with
// grouped-query attention.
static double approx_transformer_params(const TransformerShape& s) {
    const double h = s.hidden;
    const double attention = 2 * h * s.query_width() + 2 * h * s.kv_width();
    const double mlp = (s.gated_mlp ? 3.0 : 2.0) * h * s.ffn_hidden;
    double p = s.layers * (attention + mlp) + (s.tied_embeddings ? 1.0 : 2.0) * s.vocab * h;
    if (s.learned_positions) p += double(s.seq_len) * h;
    return p;
}

void parse_model(Reader& r, Scenario& sc) {
    Workload& w = sc.workload;
    const ModelPreset* preset = nullptr;
    if (auto id = r.string("preset")) {
        preset = find_model_preset(*id);
        if (!preset)
            r.fail("preset", "unknown preset '" + *id + "' (known: " + model_preset_ids() + ")");
        sc.preset = *id;
        w = preset->workload;
    }
    TransformerShape& s = w.shape;
    const bool shape_given = r.present("layers") || r.present("hidden");
    if (auto v = r.integer("layers", 1, limits::kMaxLayers)) s.layers = *v;
    if (auto v = r.integer("hidden", 1, limits::kMaxWidth)) s.hidden = *v;
    if (auto v = r.integer("heads", 1, limits::kMaxWidth)) s.heads = *v;
    if (auto v = r.integer("kv_heads", 1, limits::kMaxWidth)) s.kv_heads = *v;
    if (auto v = r.integer("head_dim", 1, limits::kMaxWidth)) s.head_dim = *v;
    if (auto v = r.boolean("tied_embeddings")) s.tied_embeddings = *v;
    if (auto v = r.integer("ffn_hidden", 1, limits::kMaxWidth)) s.ffn_hidden = *v;
    if (auto v = r.boolean("gated_mlp")) s.gated_mlp = *v;
    if (auto v = r.integer("seq_len", 1, limits::kMaxSeqLen)) {
        s.seq_len = *v;
        w.seq_phase_count = 0; // a length given explicitly holds for every step
    }
    if (auto v = r.integer("vocab", 1, limits::kMaxVocab)) s.vocab = *v;
    if (auto v = r.boolean("learned_positions")) s.learned_positions = *v;
    const auto flash = r.boolean("flash_attention");
    if (flash) s.flash_attention = *flash;
    if (auto kernel = r.string("attention_kernel")) {
        if (*kernel != "flash1" && *kernel != "flash2")
            r.fail("attention_kernel", "expected flash1 (FlashAttention-1 generation: Triton, "
                                       "xFormers) or flash2, got '" +
                                           *kernel + "'");
        if (flash && !*flash)
            r.fail("attention_kernel", "names a fused kernel but model.flash_attention is false");
        s.flash_attention = true;
        s.flash_attention_v1 = *kernel == "flash1";
    }
    const auto params = r.number("params", 0, false, limits::kMaxParams);
    const auto flops = r.number("flops_per_sample", 0, false, limits::kMaxFlopsPerSample);
    parse_moe_fields(r, sc);
    r.reject_unknown();

    if (shape_given || (preset && preset->workload.kind == WorkloadKind::transformer)) {
        w.kind = WorkloadKind::transformer;
        for (const char* key : {"layers", "hidden", "heads", "seq_len", "vocab"}) {
            const int value = std::string(key) == "layers"    ? s.layers
                              : std::string(key) == "hidden"  ? s.hidden
                              : std::string(key) == "heads"   ? s.heads
                              : std::string(key) == "seq_len" ? s.seq_len
                                                              : s.vocab;
            if (value <= 0) r.fail(key, "required for a transformer model (or give model.preset)");
        }
        if (s.kv_heads <= 0) s.kv_heads = s.heads;
        if (s.ffn_hidden <= 0) s.ffn_hidden = 4 * s.hidden;
        // Heads split the hidden size unless their width is given (model.head_dim).
        if (s.head_dim <= 0 && s.hidden % s.heads != 0)
            r.fail("heads", "must divide model.hidden (" + std::to_string(s.hidden) +
                                ") unless model.head_dim is given, got " + std::to_string(s.heads));
        if (s.heads % s.kv_heads != 0)
            r.fail("kv_heads", "must divide model.heads (" + std::to_string(s.heads) + "), got " +
                                   std::to_string(s.kv_heads));
        if (flops) r.fail("flops_per_sample", "only for generic models (leave out layers/hidden)");
        w.params = params ? *params : 0.0; // 0: the step model derives it from the shape
    } else {
        w.kind = WorkloadKind::generic;
        if (params) w.params = *params;
        if (flops) w.flops_per_sample = *flops;
        if (w.params <= 0)
            r.fail("params", "required for a generic model (or give layers and hidden for a "
                             "transformer, or model.preset)");
        if (w.flops_per_sample <= 0)
            r.fail("flops_per_sample",
                   "required for a generic model (forward+backward FLOPs per sample)");
        if (flash && *flash)
            r.fail("flash_attention",
                   "only for transformer models (a generic model has no attention to fuse)");
    }
    if (w.name.empty()) w.name = sc.name.empty() ? "custom model" : sc.name;
}

static void parse_custom(Reader& r, Scenario& sc) {
    CustomHardware c;
    if (auto v = r.string("accelerator")) c.accelerator = *v;
    if (auto v = r.integer("accelerators_per_node", 1, 1024)) c.accelerators_per_node = *v;
    if (auto v = r.number("intra_node_gbytes_per_s", limits::kMinGbytesPerS, true,
                          limits::kMaxGbytesPerS))
        c.intra_node_gbytes_per_s = *v;
    if (auto v = r.number("inter_node_gbps", limits::kMinGbps, true, limits::kMaxGbps))
        c.inter_node_gbps = *v;
    if (auto v = r.number("inter_node_latency_us", 0, true, limits::kMaxLatencyUs))
        c.inter_node_latency_us = *v;
    if (auto v = r.number("usd_per_node_hour", 0, true, limits::kMaxUsdPerNodeHour))
        c.usd_per_node_hour = *v;
    if (auto v =
            r.number("nvme_gbytes_per_s", limits::kMinGbytesPerS, true, limits::kMaxGbytesPerS))
        c.nvme_gbytes_per_s = *v;
    parse_custom_figures(r, c);
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
        if (v->empty())
            r.fail("calibration", "must name a calibration profile or be \"datasheet\"");
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
    parse_parallel_options(r, sc);
    parse_parallel_layout_fields(r, p);
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
            fail("parallel.tp",
                 "a generic model (" + w.name + ") trains data-parallel only, so tp must be 1");
        if (p.pp && *p.pp != 1)
            fail("parallel.pp",
                 "a generic model (" + w.name + ") trains data-parallel only, so pp must be 1");
    } else {
        const auto& s = w.shape;
        // NeuronX Distributed pads the heads up to a multiple of tp (framework.h
        // pads_attention_heads); left automatic, the framework follows the hardware and the
        // planner checks it (planner.cpp).
        const Framework named = sc.training.framework;
        const bool may_pad =
            named == Framework::automatic || framework_profile(named).pads_attention_heads;
        if (p.tp && s.heads % *p.tp != 0 && !may_pad)
            fail("parallel.tp", "must divide model.heads (" + std::to_string(s.heads) + "), got " +
                                    std::to_string(*p.tp) + " (" +
                                    std::string(framework_profile(named).name) +
                                    " does not pad heads)");
        if (p.tp && s.ffn_hidden % *p.tp != 0)
            fail("parallel.tp", "must divide model.ffn_hidden (" + std::to_string(s.ffn_hidden) +
                                    "), got " + std::to_string(*p.tp));
        // Stages may be uneven (pipeline_stages.h), but every virtual chunk needs a layer, or the
        // embedding (first chunk) or the loss (last chunk) in its place.
        const long long ends = p.pp && *p.pp > 1 ? 2 : 0;
        if (p.pp && p.virtual_stages &&
            s.layers + ends < static_cast<long long>(*p.pp) * *p.virtual_stages)
            fail("parallel.virtual_stages", "pp × virtual_stages must not exceed model.layers (" +
                                                std::to_string(s.layers) +
                                                ") plus the embedding and loss chunks");
    }
    if (p.micro_batch && *p.micro_batch > p.global_batch)
        fail("parallel.micro_batch",
             "must not exceed parallel.global_batch (" + std::to_string(p.global_batch) + ")");
    if (p.dp && *p.dp > p.global_batch)
        fail("parallel.dp", "must not exceed parallel.global_batch (" +
                                std::to_string(p.global_batch) +
                                "): each replica needs at least one sample");
    // 64-bit: each is in range, but micro_batch × dp can exceed int (it wrapped to 0: SIGFPE).
    if (p.micro_batch && p.dp) {
        const std::int64_t per_step = std::int64_t{*p.micro_batch} * *p.dp;
        if (p.global_batch % per_step != 0)
            fail("parallel.global_batch", "must be a multiple of micro_batch × dp (" +
                                              std::to_string(per_step) + "), got " +
                                              std::to_string(p.global_batch));
    }
}

void parse_training(Reader& r, Scenario& sc) {
    TrainingSpec& t = sc.training;
    if (auto v = r.number("tokens", 0, false, limits::kMaxTrainingTokens)) t.tokens = *v;
    if (auto v = r.number("samples", 0, false, limits::kMaxTrainingSamples)) t.samples = *v;
    if (auto v = r.number("epochs", 0, false, limits::kMaxEpochs)) t.epochs = *v;
    if (auto v = r.number("dataset_samples", 0, false, limits::kMaxTrainingSamples))
        t.dataset_samples = *v;
    if (auto v = r.integer("trials", 1, 1000000)) t.trials = *v;
    if (auto v = r.integer("max_parallel_trials", 1, 1000000)) t.max_parallel_trials = *v;
    parse_training_options(r, sc);
    parse_seq_phases(r, sc);
    parse_training_framework(r, t);
    r.reject_unknown();
    const int given = (t.tokens > 0) + (t.samples > 0) + (t.epochs > 0 || t.examples > 0);
    if (given > 1)
        r.fail("tokens", "give only one of tokens, samples, or epochs with dataset_samples or "
                         "examples");
    if (t.examples > 0 && t.dataset_samples > 0)
        r.fail("examples", "give examples or dataset_samples, not both");
    if (t.epochs > 0 && t.dataset_samples <= 0 && t.examples <= 0)
        r.fail("dataset_samples", "required with training.epochs (or give training.examples)");
    if (t.dataset_samples > 0 && t.epochs <= 0)
        r.fail("epochs", "required with training.dataset_samples");
    if (t.tokens > 0 && sc.workload.kind == WorkloadKind::generic)
        r.fail("tokens",
               "a generic model counts samples: give samples, or epochs with dataset_samples");
}

// Training length when the file gives none: the preset's published figure, else the
// Chinchilla rule for transformers (stated), else an error for generic models.
void default_training(Scenario& sc, const std::string& origin) {
    TrainingSpec& t = sc.training;
    // Fine-tuning examples are a training length of their own (training_samples).
    if (t.tokens > 0 || t.samples > 0 || t.epochs > 0 || t.examples > 0) return;
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
    throw ScenarioError(
        origin, "training",
        "give tokens, samples, or epochs with dataset_samples (a custom generic model "
        "has no default training length)");
}

void parse_spot(Reader& r, Scenario& sc) {
    if (auto v = r.number("checkpoint_write_s", 0, true, limits::kMaxSpotSeconds))
        sc.spot.checkpoint_write_s = *v;
    if (auto v = r.number("restart_s", 0, true, limits::kMaxSpotSeconds)) sc.spot.restart_s = *v;
    if (auto v = r.boolean("checkpoint_on_notice")) sc.spot.checkpoint_on_notice = *v;
    parse_spot_price_rule(r, sc.spot);
    r.reject_unknown();
    if (sc.spot.checkpoint_on_notice && sc.spot.checkpoint_write_s > 120)
        r.fail("checkpoint_on_notice",
               "needs checkpoint_write_s of at most 120 s (the 2-minute notice)");
}

void parse_constraints(Reader& r, Scenario& sc) {
    Constraints& c = sc.constraints;
    if (auto v = r.integer("max_nodes", 1, kMaxScenarioNodes)) {
        c.max_nodes = *v;
        c.max_nodes_given = true;
    }
    if (auto v = r.number("deadline_hours", 0, false, limits::kMaxDeadlineHours))
        c.deadline_hours = *v;
    if (auto v = r.number("budget_usd", 0, false, limits::kMaxBudgetUsd)) c.budget_usd = *v;
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
    // Below half the memory no published run trains; above 1 is more memory than the device has.
    if (auto v = r.number("max_memory_fraction", 0.5, true, 1.0)) c.max_memory_fraction = *v;
    r.reject_unknown();
    if (c.objective == Objective::cost_under_deadline && !is_known(c.deadline_hours))
        r.fail("deadline_hours", "required by objective cost_under_deadline");
    if (c.objective == Objective::time_under_budget && !is_known(c.budget_usd))
        r.fail("budget_usd", "required by objective time_under_budget");
}

} // namespace cp::sim::scenario_io
