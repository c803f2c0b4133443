#include "clusterplan/sim/presets.h"

#include "sim_embedded.h"

#include <nlohmann/json.hpp>
#include <stdexcept>

namespace cp::sim {
namespace {

using nlohmann::json;

std::vector<ModelPreset> parse_presets(std::string_view text) {
    const json doc = json::parse(text.begin(), text.end());
    if (doc.value("schema", "") != "clusterplan.presets/1")
        throw std::runtime_error("models.json: schema: expected clusterplan.presets/1");
    std::vector<ModelPreset> out;
    for (const auto& [id, p] : doc.at("presets").items()) {
        ModelPreset preset;
        preset.id = id;
        preset.title = p.value("title", id);
        preset.workload.name = id;
        if (p.value("kind", "transformer") == "generic") {
            preset.workload.kind = WorkloadKind::generic;
            preset.workload.params = p.at("params").get<double>();
            preset.workload.flops_per_sample = p.at("flops_per_sample").get<double>();
        } else {
            TransformerShape& s = preset.workload.shape;
            s.layers = p.at("layers").get<int>();
            s.hidden = p.at("hidden").get<int>();
            s.heads = p.at("heads").get<int>();
            s.kv_heads = p.value("kv_heads", s.heads);
            s.head_dim = p.value("head_dim", 0);
            s.tied_embeddings = p.value("tied_embeddings", true);
            s.ffn_hidden = p.value("ffn_hidden", 4 * s.hidden);
            s.gated_mlp = p.value("gated_mlp", false);
            s.seq_len = p.at("seq_len").get<int>();
            s.vocab = p.at("vocab").get<int>();
            s.learned_positions = p.value("learned_positions", false);
            s.flash_attention = p.value("flash_attention", false);
            s.moe.experts = p.value("experts", 0);
            s.moe.experts_per_token = p.value("experts_per_token", 0);
            s.moe.shared_experts = p.value("shared_experts", 0);
            s.moe.moe_ffn_hidden = p.value("moe_ffn_hidden", 0);
            s.moe.moe_layer_freq = p.value("moe_layer_freq", 1);
            s.encoder_only = p.value("encoder_only", false);
            // The published recipe's sequence-length phases (BERT: 90 % of steps at 128).
            if (auto phases = p.find("seq_phases"); phases != p.end()) {
                for (const auto& ph : *phases) {
                    if (preset.workload.seq_phase_count == kMaxSeqPhases)
                        throw std::runtime_error("models.json: " + id + ": too many seq_phases");
                    preset.workload
                        .seq_phases[static_cast<std::size_t>(preset.workload.seq_phase_count++)] =
                        SeqPhase{ph.at("step_fraction").get<double>(), ph.at("seq_len").get<int>()};
                }
            }
        }
        preset.params_published = p.value("params_published", preset.workload.params);
        preset.global_batch = p.value("global_batch", 0);
        if (auto t = p.find("training"); t != p.end()) {
            preset.training_tokens = t->value("tokens", 0.0);
            preset.training_samples = t->value("samples", 0.0);
            preset.training_epochs = t->value("epochs", 0.0);
            preset.training_dataset_samples = t->value("dataset_samples", 0.0);
        }
        preset.note = p.value("note", "");
        preset.source = p.at("source").get<std::string>();
        out.push_back(std::move(preset));
    }
    return out;
}

} // namespace

const std::vector<ModelPreset>& model_presets() {
    // nlohmann's object keeps keys sorted; that order is stable and is what the GUI lists.
    static const std::vector<ModelPreset> presets = parse_presets(embedded::model_presets_json);
    return presets;
}

const ModelPreset* find_model_preset(std::string_view id) {
    for (const auto& p : model_presets())
        if (p.id == id) return &p;
    return nullptr;
}

std::string model_preset_ids() {
    std::string out;
    for (const auto& p : model_presets()) {
        if (!out.empty()) out += ", ";
        out += p.id;
    }
    return out;
}

} // namespace cp::sim
