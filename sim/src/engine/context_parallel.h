// Context parallelism (ring attention; Liu et al. 2023 "Ring Attention", Megatron-Core and NeMo
// `context_parallel_size`, torchtitan CP): cp ranks share one sequence, each holding s/cp of its
// tokens. Everything but attention runs on the local tokens; each rank's queries attend to all s
// keys, whose K/V chunks travel around the cp ring (cp - 1 steps per pass), each step overlapped
// with the attention of the chunk already there. The backward pass sends K/V and their gradients.
#pragma once

#include "clusterplan/sim/plan.h"
#include "clusterplan/sim/workload.h"
#include "engine/collectives.h"
#include "engine/transformer_work.h"

namespace cp::sim {

// The shape one cp rank works on: seq_len / cp tokens (the rest of the shape unchanged).
TransformerShape cp_local_shape(const TransformerShape& shape, int cp);

// One layer's forward work on one (tp, cp) rank: the local tokens' GEMMs and memory-bound
// kernels, with the attention core against the whole sequence (scores s/cp x s).
LayerWork cp_layer_work(const TransformerShape& shape, const Layout& layout,
                        double bytes_per_element);

// Activation bytes one layer keeps per micro-batch on one (tp, cp) rank (layer_activation_bytes
// of the local tokens; materialised scores span s/cp x s).
double cp_layer_activation_bytes(const TransformerShape& shape, const Layout& layout,
                                 Recompute recompute, bool fp8_gemm_inputs = false);

// Time of the K/V ring of one layer's forward pass (cp - 1 sends of one rank's K/V chunk) over
// the cp group's links, before overlap. The backward pass moves twice the bytes.
double cp_ring_forward_s(const TransformerShape& shape, const Layout& layout, const Network& net,
                         double bytes_per_element);

} // namespace cp::sim
