// Serialisation of a Scenario back to `clusterplan.scenario/1` JSON (the GUI saves with it).
#include "clusterplan/sim/scenario.h"
#include "io/scenario_pricing.h"
#include "io/scenario_reader.h"
#include "io/scenario_serving.h"
#include "io/scenario_training_options.h"

#include <nlohmann/json.hpp>

namespace cp::sim {
namespace {

using ojson = nlohmann::ordered_json;
ojson nullable(const std::optional<int>& v) {
    return v ? ojson(*v) : ojson(nullptr);
}
ojson nullable(double v) {
    return is_known(v) ? ojson(v) : ojson(nullptr);
}

} // namespace

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
        if (s.head_dim > 0) model["head_dim"] = s.head_dim;
        model["tied_embeddings"] = s.tied_embeddings;
        model["ffn_hidden"] = s.ffn_hidden;
        model["gated_mlp"] = s.gated_mlp;
        model["seq_len"] = s.seq_len;
        model["vocab"] = s.vocab;
        model["learned_positions"] = s.learned_positions;
        model["flash_attention"] = s.flash_attention;
        if (s.flash_attention_v1) model["attention_kernel"] = "flash1";
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
        if (is_known(c.intra_node_gbytes_per_s))
            custom["intra_node_gbytes_per_s"] = c.intra_node_gbytes_per_s;
        if (is_known(c.inter_node_gbps)) custom["inter_node_gbps"] = c.inter_node_gbps;
        if (is_known(c.inter_node_latency_us))
            custom["inter_node_latency_us"] = c.inter_node_latency_us;
        if (is_known(c.usd_per_node_hour)) custom["usd_per_node_hour"] = c.usd_per_node_hour;
        if (is_known(c.nvme_gbytes_per_s)) custom["nvme_gbytes_per_s"] = c.nvme_gbytes_per_s;
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
    // Not given = searched (null), as for the other searched fields.
    par["sequence_parallel"] = p.sequence_parallel_given || p.sequence_parallel
                                   ? ojson(p.sequence_parallel)
                                   : ojson(nullptr);
    par["zero"] = (nullable(p.zero));
    par["recompute"] = p.recompute ? ojson(enum_name(*p.recompute)) : ojson(nullptr);
    par["dp_comm"] = enum_name(p.dp_comm);
    par["parameter_servers"] = p.parameter_servers;
    par["ps_sync"] = enum_name(p.ps_sync);
    par["overlap_dp"] = p.overlap_dp;
    par["grad_compression"] = p.grad_compression;
    par["cp"] = nullable(p.cp);
    if (!p.stage_layers.empty()) par["stage_layers"] = p.stage_layers;
    if (p.distribute_saved_activations) par["distribute_saved_activations"] = true;
    doc["parallel"] = par;
    doc["precision"] = enum_name(sc.precision);

    const TrainingSpec& t = sc.training;
    ojson training;
    if (t.tokens > 0) training["tokens"] = t.tokens;
    if (t.samples > 0) training["samples"] = t.samples;
    if (t.epochs > 0) {
        training["epochs"] = t.epochs;
        if (t.dataset_samples > 0) training["dataset_samples"] = t.dataset_samples;
    }
    training["trials"] = t.trials;
    training["max_parallel_trials"] = t.max_parallel_trials;
    if (t.framework != Framework::automatic) training["framework"] = enum_name(t.framework);
    if (t.torch_compile) training["torch_compile"] = *t.torch_compile;
    if (t.fp8_weights) training["fp8_weights"] = true;
    if (t.fp32_grad_reduce) training["fp32_grad_reduce"] = *t.fp32_grad_reduce;
    scenario_io::write_training_options(sc, doc["model"], par, training);
    doc["parallel"] = par;
    if (sc.workload.seq_phase_count > 0) {
        ojson phases = ojson::array();
        for (int i = 0; i < sc.workload.seq_phase_count; ++i) {
            const SeqPhase& ph = sc.workload.seq_phases[static_cast<std::size_t>(i)];
            phases.push_back({{"step_fraction", ph.step_fraction}, {"seq_len", ph.seq_len}});
        }
        training["seq_phases"] = phases;
    }
    if (sc.serving)
        doc["serving"] = scenario_io::serving_spec_json(*sc.serving);
    else
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
    cons["max_memory_fraction"] = c.max_memory_fraction;
    doc["constraints"] = cons;
    scenario_io::write_pricing_fields(sc, doc);
    return doc.dump(2) + "\n";
}

} // namespace cp::sim
