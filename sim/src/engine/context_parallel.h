// Context parallelism (ring attention; Liu et al. 2023 "Ring Attention", Megatron-Core and NeMo
// `context_parallel_size`, torchtitan CP): cp ranks share one sequence, each holding s/cp of its
// tokens. Everything but attention runs on the local tokens; each rank's queries attend to all s
// keys, whose K/V chunks travel around the cp ring (cp - 1 steps per pass), each step overlapped
// with the attention of the chunk already there. The backward pass sends K/V and their gradients.
#pragma once

#include "clusterplan/sim/plan.h"
#include "clusterplan/sim/workload.h"
#include "engine/collectives.h"
#include "engine/compute_rates.h"
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

// Host-issue work the P2P ring adds to one layer and micro-batch, in layer passes
// (HostIssue::per_layer_pass_s units): Transformer Engine's ring issues a handful of operations
// per step where the unsplit attention runs one kernel per pass (model_constants.h).
// `forward_passes` counts the forward and a fully recomputed forward.
double cp_ring_host_passes(int cp, int forward_passes);

// DeepSpeed-Ulysses (FrameworkProfile::ulysses_cp): one layer's forward all-to-alls on one (tp,
// cp) rank, not overlapped (DistributedAttention waits for each before the attention runs):
// Q, K and V of the local tokens to whole sequences of heads / cp heads, and the attention output
// back. K/V carry at least one head per rank (fewer KV heads than tp x cp are repeated). The
// backward pass moves the same bytes (dO in, dQ/dK/dV out).
double ulysses_forward_s(const TransformerShape& shape, const Layout& layout, const Network& net,
                         double bytes_per_element);

// PyTorch's context_parallel (torch.distributed.tensor.experimental._attention, Dec 2024 nightly
// as torchtitan 9dec370 runs it): the step time one layer's ring attention adds beyond the
// attention kernels, given the attention core's forward and backward time on this rank.
// - K/V are all-gathered once per pass (rotate method "allgather", torchtitan's default) and,
//   eager, waited for after the local chunk's attention, so only that 1/cp of the kernels hides
//   them; traced by torch.compile every collective is waited for where it is issued;
//   the K/V are the ones SDPA sees, every query head's copy when the model code repeats GQA's
//   K/V before SDPA (torchtitan model.py repeat_kv).
// - Backward gathers K/V again and hands dK/dV in fp32 (convert_to_f32) to the next rank after
//   every step (all-to-all permute), eager each hidden behind the next step but the last.
// - Every step after the first merges its output into an fp32 running output and log-sum-exp
//   (_SDPAMerger), and every backward step accumulates dQ/dK/dV in fp32 and concatenates dK/dV
//   for the next send: memory-bound kernels beside the attention (fused under torch.compile).
// `forward_passes` counts the forward and a fully recomputed forward.
double cp_all_gather_ring_s(const TransformerShape& shape, const Layout& layout, const Network& net,
                            const ComputeRates& rates, double bytes_per_element,
                            double core_forward_s, double core_backward_s, int forward_passes);

} // namespace cp::sim
