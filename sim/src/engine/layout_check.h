// Validity of a parallel layout for a workload on a cluster, checked before any timing.
#pragma once

#include "clusterplan/sim/result.h"
#include "clusterplan/sim/step_model.h"

#include <string>

namespace cp::sim {

// Limit::none when the layout can run, else Limit::invalid_layout. Rules: every count >= 1;
// tp*pp*dp*cp == devices; tp divides heads and ffn_hidden, and divides or is a multiple of
// kv_heads (replicated); every stage holds at least virtual_stages layers (stages may be
// uneven); 2*cp divides seq_len (ring attention), or cp divides seq_len and
// the heads of a tp rank (DeepSpeed-Ulysses); the framework offers the ZeRO stage (with
// pipelining), context parallelism and the accelerator; micro_batch*dp divides global_batch;
// virtual_stages > 1 only with the interleaved schedule and with micro-batches divisible by pp
// (Megatron's requirement), or grouped as Megatron-Core groups them (interleave_group_size); ZeRO
// stage 0..3; grad_compression in (0, 1]; parameter servers >= 1 when used; generic
// (non-transformer) workloads are data parallel only (tp = pp = 1).
Limit check_layout(const Workload& workload, const Cluster& cluster, const Layout& layout);
// The rule that check_layout finds broken, as one sentence naming it ("" when the layout runs);
// an automatic framework is resolved first, as evaluate does.
std::string layout_problem(const Workload& workload, const Cluster& cluster, const Layout& layout);

// Whether the layout's (resolved) framework runs it on this accelerator: ZeRO stage, ZeRO with
// pipeline parallelism, context parallelism (framework.h). `automatic` allows everything.
bool framework_allows(const Layout& layout, const AcceleratorSpec& accelerator);

} // namespace cp::sim
