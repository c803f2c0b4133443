// Scenario fields of fine-tuning, optimizers, offload and Mixture-of-Experts (DESIGN.md
// "Fine-tuning, optimizers, offload, Mixture-of-Experts"): model.experts..., parallel.ep/etp/
// offload, training.method/optimizer/lora/examples/seq_len/example_tokens/packing. Read inside
// the model, parallel and training sections (before their unknown-field check), validated once
// the whole file is read, and written back by write_training_options.
#include "io/scenario_training_options.h"

#include <string>

namespace cp::sim::scenario_io {

namespace {

[[noreturn]] void fail(const Scenario& sc, const std::string& field, const std::string& reason) {
    throw ScenarioError(sc.origin, field, reason);
}

} // namespace

void parse_moe_fields(Reader& r, Scenario& sc) {
    MoeShape& m = sc.workload.shape.moe;
    if (auto v = r.integer("experts", 1, 1 << 16)) m.experts = *v;
    if (auto v = r.integer("experts_per_token", 1, 1 << 16)) m.experts_per_token = *v;
    if (auto v = r.integer("shared_experts", 0, 1 << 16)) m.shared_experts = *v;
    if (auto v = r.integer("moe_ffn_hidden", 1)) m.moe_ffn_hidden = *v;
    if (auto v = r.integer("moe_layer_freq", 1, 1 << 16)) m.moe_layer_freq = *v;
    if (auto v = r.number("capacity_factor", 0, false)) m.capacity_factor = *v;
}

void parse_parallel_options(Reader& r, Scenario& sc) {
    ParallelSpec& p = sc.parallel;
    p.ep = r.integer("ep", 1, 1 << 16);
    p.etp = r.integer("etp", 1, 4096);
    if (auto v = r.enumeration("ep_dispatcher", kEpDispatchers)) p.ep_dispatcher = *v;
    if (auto v = r.boolean("moe_a2a_overlap")) p.moe_a2a_overlap = *v;
    if (auto o = r.object("offload")) {
        if (auto v = o->enumeration("optimizer", kOffloadTargets)) p.offload.optimizer = *v;
        if (auto v = o->enumeration("params", kOffloadTargets)) p.offload.params = *v;
        o->reject_unknown();
    }
}

void parse_training_options(Reader& r, Scenario& sc) {
    TrainingSpec& t = sc.training;
    FineTuning& ft = sc.workload.finetune;
    if (auto v = r.enumeration("method", kMethods)) ft.method = *v;
    if (auto v = r.enumeration("optimizer", kOptimizers)) t.optimizer = *v;
    if (auto l = r.object("lora")) {
        if (auto v = l->integer("rank", 1, 65536)) ft.lora.rank = *v;
        if (auto v = l->number("alpha", 0, false)) ft.lora.alpha = *v;
        if (auto v = l->enumeration("targets", kLoraTargets)) ft.lora.targets = *v;
        l->reject_unknown();
        if (!ft.adapters()) r.fail("lora", "only with method \"lora\" or \"qlora\"");
    }
    if (auto v = r.number("examples", 0, false)) t.examples = *v;
    if (auto v = r.integer("seq_len", 1, 1 << 24)) t.seq_len = *v;
    if (auto v = r.number("example_tokens", 0, false)) t.example_tokens = *v;
    if (auto v = r.boolean("packing")) t.packing = *v;
}

void validate_training_options(Scenario& sc) {
    Workload& w = sc.workload;
    TransformerShape& s = w.shape;
    MoeShape& m = s.moe;
    const ParallelSpec& p = sc.parallel;
    const TrainingSpec& t = sc.training;
    const bool generic = w.kind == WorkloadKind::generic;
    if (generic && (m.experts > 0 || m.experts_per_token > 0 || m.moe_ffn_hidden > 0))
        fail(sc, "model.experts", "only for transformer models");
    if (m.experts > 0 || m.experts_per_token > 0 || m.shared_experts > 0 || m.moe_ffn_hidden > 0) {
        if (m.experts < 2)
            fail(sc, "model.experts", "a Mixture-of-Experts model needs at least 2 experts");
        if (m.experts_per_token < 1)
            fail(sc, "model.experts_per_token", "required with model.experts (top-k routing)");
        if (m.experts_per_token > m.experts)
            fail(sc, "model.experts_per_token",
                 "must not exceed model.experts (" + std::to_string(m.experts) + "), got " +
                     std::to_string(m.experts_per_token));
        if (m.moe_ffn_hidden <= 0) m.moe_ffn_hidden = s.ffn_hidden;
        if (m.moe_layer_freq > s.layers)
            fail(sc, "model.moe_layer_freq",
                 "must not exceed model.layers (" + std::to_string(s.layers) + ")");
    }
    if (p.ep && *p.ep > 1) {
        if (!m.enabled())
            fail(sc, "parallel.ep",
                 "expert parallelism needs a Mixture-of-Experts model (model.experts)");
        if (m.experts % *p.ep != 0)
            fail(sc, "parallel.ep",
                 "must divide model.experts (" + std::to_string(m.experts) + "), got " +
                     std::to_string(*p.ep));
    }
    if (p.etp && *p.etp > 1) {
        if (!m.enabled())
            fail(sc, "parallel.etp", "expert tensor parallelism needs a Mixture-of-Experts model");
        if (m.moe_ffn_hidden % *p.etp != 0)
            fail(sc, "parallel.etp",
                 "must divide model.moe_ffn_hidden (" + std::to_string(m.moe_ffn_hidden) +
                     "), got " + std::to_string(*p.etp));
    }
    if (p.offload.params != OffloadTarget::none && p.zero && *p.zero < 3)
        fail(sc, "parallel.offload.params",
             "needs ZeRO stage 3 (parallel.zero 3 or left out): parameters are "
             "fetched shard by shard");
    if (generic && w.finetune.adapters())
        fail(sc, "training.method",
             "LoRA and QLoRA need a transformer model (a generic model has no linear layers to "
             "adapt)");
    if (w.finetune.adapters() && w.finetune.lora.rank >= s.hidden)
        fail(sc, "training.lora.rank",
             "must be below model.hidden (" + std::to_string(s.hidden) + ")");
    if (t.seq_len > 0) {
        if (generic) fail(sc, "training.seq_len", "only for transformer models");
        if (t.seq_len != s.seq_len)
            sc.notes.push_back("training.seq_len " + std::to_string(t.seq_len) +
                               " replaces model.seq_len " + std::to_string(s.seq_len) +
                               " for this run");
        s.seq_len = t.seq_len;
    }
    if ((t.example_tokens > 0 || !t.packing) && t.examples <= 0)
        fail(sc, "training.examples", "required with example_tokens or packing");
    if (t.example_tokens > s.seq_len && !generic)
        fail(sc, "training.example_tokens",
             "must not exceed the training sequence length (" + std::to_string(s.seq_len) + ")");
    // Packed examples attend only within themselves under a fused kernel (workload.h).
    if (t.packing && t.example_tokens > 0 && !generic) s.packed_example_tokens = t.example_tokens;
}

void write_training_options(const Scenario& sc, nlohmann::ordered_json& model,
                            nlohmann::ordered_json& parallel, nlohmann::ordered_json& training) {
    using ojson = nlohmann::ordered_json;
    const MoeShape& m = sc.workload.shape.moe;
    if (m.enabled()) {
        model["experts"] = m.experts;
        model["experts_per_token"] = m.experts_per_token;
        model["shared_experts"] = m.shared_experts;
        model["moe_ffn_hidden"] = m.moe_ffn_hidden;
        model["moe_layer_freq"] = m.moe_layer_freq;
        model["capacity_factor"] =
            m.capacity_factor > 0 ? ojson(m.capacity_factor) : ojson(nullptr);
    }
    const ParallelSpec& p = sc.parallel;
    parallel["ep"] = p.ep ? ojson(*p.ep) : ojson(nullptr);
    parallel["etp"] = p.etp ? ojson(*p.etp) : ojson(nullptr);
    // Optional MoE communication fields, written when set so older scenarios read back unchanged.
    if (p.ep_dispatcher != EpDispatcher::alltoall)
        parallel["ep_dispatcher"] = name_of(kEpDispatchers, p.ep_dispatcher);
    if (p.moe_a2a_overlap) parallel["moe_a2a_overlap"] = true;
    parallel["offload"] = ojson{{"optimizer", name_of(kOffloadTargets, p.offload.optimizer)},
                                {"params", name_of(kOffloadTargets, p.offload.params)}};
    const TrainingSpec& t = sc.training;
    const FineTuning& ft = sc.workload.finetune;
    training["method"] = name_of(kMethods, ft.method);
    training["optimizer"] = name_of(kOptimizers, t.optimizer);
    if (ft.adapters())
        training["lora"] = ojson{{"rank", ft.lora.rank},
                                 {"alpha", ft.lora.alpha},
                                 {"targets", name_of(kLoraTargets, ft.lora.targets)}};
    if (t.examples > 0) {
        training["examples"] = t.examples;
        if (t.example_tokens > 0) training["example_tokens"] = t.example_tokens;
        training["packing"] = t.packing;
    }
    if (t.seq_len > 0) training["seq_len"] = t.seq_len;
}

} // namespace cp::sim::scenario_io

namespace cp::sim {

const char* enum_name(TrainingMethod m) {
    return scenario_io::name_of(scenario_io::kMethods, m);
}
const char* enum_name(LoraTargets t) {
    return scenario_io::name_of(scenario_io::kLoraTargets, t);
}
const char* enum_name(Optimizer o) {
    return scenario_io::name_of(scenario_io::kOptimizers, o);
}
const char* enum_name(OffloadTarget t) {
    return scenario_io::name_of(scenario_io::kOffloadTargets, t);
}

} // namespace cp::sim
