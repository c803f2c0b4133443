#include "serving/serving_model.h"

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

} // namespace cp::sim
