// Validity of a parallel layout for a workload on a cluster, checked before any timing.
#pragma once

#include "clusterplan/sim/result.h"
#include "clusterplan/sim/step_model.h"

namespace cp::sim {

// Limit::none when the layout can run, else Limit::invalid_layout. Rules: every count >= 1;
// tp*pp*dp == devices; tp divides heads, kv_heads and ffn_hidden; pp*virtual_stages divides
// layers (uneven stages are not supported); micro_batch*dp divides global_batch; virtual_stages
// > 1 only with the interleaved schedule and with micro-batches divisible by pp (Megatron's
// requirement); ZeRO stage 0..3; grad_compression in (0, 1]; parameter servers >= 1 when used;
// generic (non-transformer) workloads are data parallel only (tp = pp = 1).
Limit check_layout(const Workload& workload, const Cluster& cluster, const Layout& layout);

} // namespace cp::sim
