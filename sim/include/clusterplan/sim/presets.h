// Model presets (resources/presets/models.json, embedded in the library): published model
// shapes with their sources, used by `model.preset` in scenario files and by the GUI.
#pragma once

#include "clusterplan/sim/workload.h"

#include <string>
#include <string_view>
#include <vector>

namespace cp::sim {

struct ModelPreset {
    std::string id;              // "gpt3-175b"
    std::string title;           // "GPT-3 175B"
    Workload workload;           // shape (transformer) or params + FLOPs/sample (generic)
    double params_published = 0; // the headline parameter count the source gives
    int global_batch = 0;        // samples per optimizer step used by the source
    // Training length the source reports (0 = not published).
    double training_tokens = 0;
    double training_samples = 0;
    double training_epochs = 0;
    double training_dataset_samples = 0;
    std::string note; // approximations and assumptions
    std::string source;
};

// All presets sorted by id (parsed once; throws std::runtime_error if the embedded file is bad).
const std::vector<ModelPreset>& model_presets();
// nullptr when `id` is not a preset.
const ModelPreset* find_model_preset(std::string_view id);
// "bert-large, gpt2-1.5b, ..." for error messages.
std::string model_preset_ids();

} // namespace cp::sim
