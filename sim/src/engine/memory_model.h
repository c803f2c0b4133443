// Memory per device (Rajbhandari et al. "ZeRO"; Korthikanti et al. 2022): weights, gradients and
// optimizer state sharded by tp*pp and by ZeRO stage over dp; activations by recompute mode and
// the pipeline schedule's micro-batches in flight. The fullest pipeline stage is reported.
#pragma once

#include "clusterplan/sim/hardware.h"
#include "clusterplan/sim/plan.h"
#include "clusterplan/sim/result.h"
#include "clusterplan/sim/workload.h"

namespace cp::sim {

// Bytes of one weight / gradient element for a training precision (fp8 keeps bf16 copies).
double weight_bytes_per_param(Precision precision);

// Parameters held by one device of the fullest stage (first or last), after tp*pp sharding.
double transformer_params_per_device(const TransformerShape& shape, const Layout& layout);

MemoryGib transformer_memory(const Workload& workload, const Layout& layout, Precision precision,
                             double capacity_gib);
// The same for full training with AdamW (no fine-tuning method, no offload).
MemoryGib transformer_memory(const TransformerShape& shape, const Layout& layout,
                             Precision precision, double capacity_gib);
MemoryGib generic_memory(const Workload& workload, const Layout& layout, Precision precision,
                         double capacity_gib);

} // namespace cp::sim
