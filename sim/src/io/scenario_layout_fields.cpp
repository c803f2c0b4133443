#include "io/scenario_layout_fields.h"

#include "engine/pipeline_stages.h"

namespace cp::sim::scenario_io {

void parse_parallel_layout_fields(Reader& r, ParallelSpec& p) {
    p.sequence_parallel_given = r.present("sequence_parallel");
    p.cp = r.integer("cp", 1, 4096);
    if (auto v = r.boolean("distribute_saved_activations")) p.distribute_saved_activations = *v;
    if (const json* v = r.get("stage_layers")) {
        if (!v->is_array())
            r.fail("stage_layers", "must be a list of layer counts, first stage first");
        if (v->size() > 4096) r.fail("stage_layers", "lists more than 4096 stages");
        for (const auto& item : *v) {
            if (!item.is_number_integer() || item.get<long long>() < 1 ||
                item.get<long long>() > 100000)
                r.fail("stage_layers",
                       "must hold whole layer counts from 1 to 100000, got " + item.dump());
            p.stage_layers.push_back(item.get<int>());
        }
        if (p.stage_layers.empty()) r.fail("stage_layers", "must list at least one stage");
    }
}

void parse_training_framework(Reader& r, TrainingSpec& t) {
    t.torch_compile = r.boolean("torch_compile");
    if (auto v = r.boolean("fp8_weights")) t.fp8_weights = *v;
    if (auto v = r.boolean("fp32_grad_reduce")) t.fp32_grad_reduce = *v;
    if (auto name = r.string("framework")) {
        const auto fw = framework_from_name(*name);
        if (!fw)
            r.fail("framework", "unknown framework '" + *name + "' (expected one of " +
                                    std::string(framework_names()) + ")");
        t.framework = *fw;
    }
}

void resolve_layout_fields(Scenario& sc, bool flash_attention_given, const std::string& origin) {
    ParallelSpec& p = sc.parallel;
    const Framework named = sc.training.framework;
    auto fail = [&](const std::string& field, const std::string& reason) {
        throw ScenarioError(origin, field, reason);
    };
    if (sc.training.fp8_weights) {
        if (sc.precision != Precision::fp8 && !sc.precision_auto)
            fail("training.fp8_weights", "needs precision \"fp8\" (or \"auto\")");
        if (sc.workload.finetune.method == TrainingMethod::qlora)
            fail("training.fp8_weights", "QLoRA stores its frozen linear weights as NF4");
        if (sc.workload.kind == WorkloadKind::generic)
            fail("training.fp8_weights", "a generic model has no linear layers to store as FP8");
    }
    if (sc.workload.kind == WorkloadKind::generic) {
        if (p.cp && *p.cp != 1)
            fail("parallel.cp", "a generic model has no sequence to split, so cp must be 1");
        if (!p.stage_layers.empty())
            fail("parallel.stage_layers", "a generic model trains data-parallel only");
        return;
    }
    TransformerShape& s = sc.workload.shape;
    // A named framework decides the attention kernel; automatic ones (Megatron-Core, FSDP,
    // NeuronX) all fuse it.
    if (!flash_attention_given)
        s.flash_attention =
            named == Framework::automatic || framework_profile(named).fused_attention;
    if (sc.training.torch_compile && !*sc.training.torch_compile) {
        // Counted for the Llama reference block as eager PyTorch writes it (transformer_work.h);
        // DeepSpeed's engine trains the module it is given, eager unless compiled.
        if (named != Framework::pytorch_fsdp && named != Framework::deepspeed)
            fail("training.torch_compile",
                 "false is modelled for training.framework pytorch-fsdp or deepspeed only (the "
                 "other frameworks run fused kernels)");
        if (!s.gated_mlp)
            fail("training.torch_compile",
                 "false is modelled for Llama-style blocks (model.gated_mlp true) only");
    }
    s.eager_elementwise = eager_pointwise_kernels(sc);
    if (p.tp && s.kv_heads % *p.tp != 0 && *p.tp % s.kv_heads != 0)
        fail("parallel.tp", "must divide model.kv_heads (" + std::to_string(s.kv_heads) +
                                ") or be a multiple of it (KV heads replicated), got " +
                                std::to_string(*p.tp));
    if (p.pp && *p.pp > s.layers)
        fail("parallel.pp", "must not exceed model.layers (" + std::to_string(s.layers) +
                                "), got " + std::to_string(*p.pp));
    if (!p.stage_layers.empty()) {
        if (!p.pp) p.pp = static_cast<int>(p.stage_layers.size());
        if (const std::string why = stage_layers_problem(p.stage_layers, *p.pp, s.layers);
            !why.empty())
            fail("parallel.stage_layers", why);
    }
    // Megatron splits only a fully recomputed layer's input, which sequence parallelism
    // already splits: both must be stated, not left to the search.
    if (p.distribute_saved_activations) {
        if (p.recompute != Recompute::full)
            fail("parallel.distribute_saved_activations",
                 "needs parallel.recompute \"full\" (only a fully recomputed layer's input is "
                 "split over the tensor-parallel ranks)");
        if (!p.sequence_parallel_given || p.sequence_parallel)
            fail("parallel.distribute_saved_activations",
                 "needs parallel.sequence_parallel false (sequence parallelism already splits "
                 "the layer input)");
    }
    // DeepSpeed-Ulysses (framework.h ulysses_cp) splits each sequence into cp chunks and hands
    // each rank whole heads; ring attention splits it into 2·cp chunks.
    const bool ulysses = named != Framework::automatic && framework_profile(named).ulysses_cp;
    if (p.cp && *p.cp > 1 && ulysses) {
        const int tp = p.tp.value_or(1);
        if (s.seq_len % *p.cp != 0)
            fail("parallel.cp", "cp must divide model.seq_len (" + std::to_string(s.seq_len) +
                                    "), got " + std::to_string(*p.cp));
        if (s.heads % tp == 0 && (s.heads / tp) % *p.cp != 0)
            fail("parallel.cp", "cp must divide the heads of a tensor-parallel rank (" +
                                    std::to_string(s.heads / tp) +
                                    ": Ulysses gives each rank whole heads), got " +
                                    std::to_string(*p.cp));
    } else if (p.cp && *p.cp > 1 && s.seq_len % (2 * *p.cp) != 0) {
        fail("parallel.cp", "2 × cp must divide model.seq_len (" + std::to_string(s.seq_len) +
                                ": ring attention splits each sequence into 2·cp chunks), got " +
                                std::to_string(*p.cp));
    }
    if (named == Framework::automatic) return;
    const FrameworkProfile& fw = framework_profile(named);
    const std::string who = "training.framework " + std::string(fw.name);
    if (p.zero && *p.zero > fw.max_zero)
        fail("parallel.zero", who + " offers ZeRO up to stage " + std::to_string(fw.max_zero) +
                                  ", got " + std::to_string(*p.zero));
    if (p.zero && p.pp && *p.pp > 1 && *p.zero > fw.max_zero_with_pp)
        fail("parallel.zero", who + " combines pipeline parallelism with ZeRO up to stage " +
                                  std::to_string(fw.max_zero_with_pp) + " only, got " +
                                  std::to_string(*p.zero));
    if (p.cp && *p.cp > 1 && !fw.context_parallel)
        fail("parallel.cp", who + " has no context parallelism");
    if (sc.precision == Precision::fp8 && !fw.fp8) fail("precision", who + " has no FP8 training");
}

} // namespace cp::sim::scenario_io

namespace cp::sim {

bool eager_pointwise_kernels(const Scenario& sc) {
    const Framework fw = sc.training.framework;
    return sc.training.torch_compile == false &&
           (fw == Framework::pytorch_fsdp || fw == Framework::deepspeed) &&
           sc.workload.shape.gated_mlp;
}

} // namespace cp::sim
