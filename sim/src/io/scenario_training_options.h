// Private to sim/src/io: the fine-tuning, optimizer, offload and Mixture-of-Experts fields of a
// scenario (scenario_training_options.cpp).
#pragma once

#include "io/scenario_reader.h"

namespace cp::sim::scenario_io {

inline constexpr Names<TrainingMethod, 4> kMethods{{{TrainingMethod::pretrain, "pretrain"},
                                                    {TrainingMethod::full, "full"},
                                                    {TrainingMethod::lora, "lora"},
                                                    {TrainingMethod::qlora, "qlora"}}};
inline constexpr Names<LoraTargets, 3> kLoraTargets{
    {{LoraTargets::attention, "attention"}, {LoraTargets::mlp, "mlp"}, {LoraTargets::all, "all"}}};
inline constexpr Names<Optimizer, 6> kOptimizers{{{Optimizer::adamw, "adamw"},
                                                  {Optimizer::adamw_8bit, "adamw-8bit"},
                                                  {Optimizer::adafactor, "adafactor"},
                                                  {Optimizer::sgd, "sgd"},
                                                  {Optimizer::lion, "lion"},
                                                  {Optimizer::adamw_bf16, "adamw-bf16"}}};
inline constexpr Names<OffloadTarget, 3> kOffloadTargets{
    {{OffloadTarget::none, "none"}, {OffloadTarget::cpu, "cpu"}, {OffloadTarget::nvme, "nvme"}}};

inline constexpr Names<EpDispatcher, 2> kEpDispatchers{
    {{EpDispatcher::alltoall, "alltoall"}, {EpDispatcher::hybrid, "hybrid"}}};

// Each reads its fields from the section being parsed (before its unknown-field check).
void parse_moe_fields(Reader& r, Scenario& sc); // model.experts ... capacity_factor
void parse_parallel_options(
    Reader& r, Scenario& sc); // parallel.ep, etp, ep_dispatcher, moe_a2a_overlap, offload
void parse_training_options(Reader& r, Scenario& sc); // training.method ... packing
// Cross-field checks once the whole file is read; applies training.seq_len to the model.
void validate_training_options(Scenario& sc);
void write_training_options(const Scenario& sc, nlohmann::ordered_json& model,
                            nlohmann::ordered_json& parallel, nlohmann::ordered_json& training);

} // namespace cp::sim::scenario_io
