// Scenario fields for layouts that really trained and the software they ran in:
// parallel.cp, parallel.stage_layers, the sequence-parallel search flag, training.framework,
// and the checks and defaults that tie them to the model (DESIGN.md "Frameworks").
#pragma once

#include "io/scenario_reader.h"

namespace cp::sim::scenario_io {

// Inside parse_parallel, before reject_unknown: cp, stage_layers; notes whether
// sequence_parallel was given.
void parse_parallel_layout_fields(Reader& r, ParallelSpec& p);
// Inside parse_training, before reject_unknown: framework.
void parse_training_framework(Reader& r, TrainingSpec& t);
// After every section: the framework's default attention kernel when model.flash_attention is
// not given, and the checks of tp (incl. replicated KV heads), pp / stage_layers, cp, ZeRO and
// FP8 against the model and the named framework. Throws ScenarioError naming the field.
void resolve_layout_fields(Scenario& sc, bool flash_attention_given, const std::string& origin);

} // namespace cp::sim::scenario_io
