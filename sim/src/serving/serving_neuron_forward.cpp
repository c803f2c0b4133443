#include "engine/transformer_work.h"
#include "serving/serving_model.h"

#include <algorithm>

namespace cp::sim {

// A NeuronCore's tensor engine is one 128 x 128 systolic array fed from its on-chip SBUF (24 MiB
// on NeuronCore-v2; aws-neuron-sdk nki/guides/architecture/trainium_inferentia2_arch.rst): a
// sequence's 128 or more rows fill it, so its matmul rate does not grow with the GEMM's size as a
// GPU's waves of thread blocks do, and the compiler streams the next weights into SBUF behind the
// running matmuls. The published encoder passes show it (neuron-encoder-history): beyond a fixed
// cost per layer and pass, a sequence costs the same at batch 1 as at batch 16.
double neuron_encoder_matmul_s(const ServingSetup& st, double tokens) {
    const TransformerShape& s = st.workload->shape;
    const double h = s.hidden, f = s.ffn_width() / st.tp;
    const double q = heads_per_rank(s, st.tp) * s.attention_head_dim();
    const double kv_cols = 2.0 * kv_heads_per_rank(st) * s.attention_head_dim();
    const double flops_per_token = 2.0 * h * (q + kv_cols + q + (s.gated_mlp ? 3.0 : 2.0) * f);
    return tokens * flops_per_token / st.rates.peak_flops;
}

// A forward pass reads each of its weights from device memory once: a lower bound on the pass
// where the memory is slow beside the compute. Inferentia1 keeps parameters and intermediate state
// in 8 GiB of DRAM at 50 GiB/s shared by its four NeuronCore-v1 (aws-neuron-sdk @ 968e5724,
// general/arch/neuron-hardware/inferentia.rst), and caches on chip only about 5 M weights per core
// (neuroncore-pipeline.rst: 4 x round(weights / 2e7) cores cache a whole model), so a
// data-parallel copy of BERT base (85 M layer weights) streams them every pass; four copies share
// the DRAM. An encoder gathers only its tokens' rows of the embedding table, which is not counted.
double forward_weight_stream_s(const ServingSetup& st) {
    const Workload& w = *st.workload;
    const double gathered_bytes =
        w.kind == WorkloadKind::generic ? 0.0 : transformer_embedding_params(w.shape) * 2.0;
    const double bytes =
        (serving_weight_bytes(w, st.weights) - gathered_bytes) * stage_weight_share(st) / st.tp;
    return st.rates.hbm_bytes_per_s > 0 ? std::max(0.0, bytes) / st.rates.hbm_bytes_per_s : 0.0;
}

} // namespace cp::sim
