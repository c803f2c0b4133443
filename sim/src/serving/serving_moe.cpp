#include "serving/serving_model.h"

#include <algorithm>
#include <cmath>

namespace cp::sim {

// Share of the layers whose MLP is a Mixture-of-Experts block.
double moe_layer_share(const TransformerShape& s) {
    return s.layers > 0 ? double(s.moe.moe_layers(s.layers)) / s.layers : 0.0;
}

// Width of the MLP rows one token writes in a layer (the activation's elementwise traffic): the
// dense MLP's f, or in a MoE layer its k routed experts' and the shared experts' widths.
double mlp_width(const TransformerShape& s) {
    const double moe = moe_layer_share(s);
    return (1.0 - moe) * s.ffn_width() +
           moe * (s.moe.experts_per_token + s.moe.shared_experts) * double(s.moe.moe_ffn_hidden);
}

namespace {

// Neuron graphs have static shapes, so NxD's expert MLPs (neuronx-distributed
// modules/moe/expert_mlps_v2.py ExpertMLPsV2.forward @ fecfe75, which NxD Inference and
// optimum-neuron's backend call) do not run only the experts a batch reached. Where the tokens x
// top-k rows are fewer than the experts (the selective-loading threshold, 1.0) each row loads its
// own expert: T x k single-row GEMMs. Otherwise a decode step runs every expert over every token,
// and so does a context encoding of fewer than one 512-token block of rows. A longer one packs
// each expert's rows into 512-row blocks, every expert holding at least one, padding included:
// ceil((T k - (E - 1)) / 512) + E - 1 blocks (forward_blockwise; DEFAULT_BLOCK_SIZE,
// moe/model_utils.py).
constexpr double kNeuronExpertBlockRows = 512;

void neuron_expert_blocks(double tokens, double k, double experts, bool context_encoding,
                          double& gemms, double& rows) {
    constexpr double kBlockRows = kNeuronExpertBlockRows;
    const double routed = tokens * k;
    if (routed < experts) {
        gemms = routed;
        rows = 1;
    } else if (!context_encoding || routed < kBlockRows) {
        gemms = experts;
        rows = tokens;
    } else {
        gemms = std::ceil((routed - (experts - 1)) / kBlockRows) + experts - 1;
        rows = kBlockRows;
    }
}

} // namespace

// Mixture-of-Experts MLP for `tokens` rows on one TP rank (Mixtral, Qwen3-MoE). Serving engines
// shard every expert over the TP ranks (TensorRT-LLM's default MoE tensor parallelism, vLLM's
// fused_moe) and run only the experts that received tokens: with each token routed to k of E
// experts at random, a batch of T tokens reaches E (1 - (1 - k/E)^T) of them (the chance that
// none of T tokens picks a given expert is (1 - k/E)^T), and a step reads those experts' weights
// once. So a small decode batch reads about k/E of the expert weights; a large one all of them.
void add_moe_gemms(const ServingSetup& st, double tokens, double count, ServingTerms& t,
                   bool context_encoding) {
    const TransformerShape& s = st.workload->shape;
    const double h = s.hidden, tp = st.tp, fe = s.moe.moe_ffn_hidden;
    const double experts = s.moe.experts, k = s.moe.experts_per_token;
    const double up = s.gated_mlp ? 2.0 : 1.0, wb = storage_bytes(st.weights);
    add_weight_gemm(st, {tokens, experts, h, 1}, 2.0, count, t); // router, kept at 16 bit
    // One GEMM per expert reached, each reading that expert's weights.
    double gemms = experts * (1.0 - std::pow(1.0 - std::min(1.0, k / experts), tokens));
    double rows = tokens * k / gemms;
    if (neuron_devices(st.hw)) {
        neuron_expert_blocks(tokens, k, experts, context_encoding, gemms, rows);
        if (rows == kNeuronExpertBlockRows) {
            // Every TP rank gathers each block's rows over the whole hidden width and adds the
            // block's whole-width output into its copy of the layer output (read and write):
            // TP shards the experts' intermediate width, not these rows (blockwise_mm's
            // hidden_states and output are (T + 1, H) on each rank; the torch path's
            // hidden_states[block_token_indices] and output[...] += block_output,
            // expert_mlps_v2.py torch_blockwise_matmul_inference @ fecfe75).
            const double block_bytes = rows * h * 2.0;
            t[ServingTerm::weights] += count * hbm_s(st, 3.0 * gemms * block_bytes, block_bytes);
        }
    }
    add_weight_gemm(st, {rows, up * fe / tp, h, gemms}, wb, count, t,
                    ServingTerm::expert_compute); // up(+gate)
    add_weight_gemm(st, {rows, h, fe / tp, gemms}, wb, count, t,
                    ServingTerm::expert_compute); // down
    if (s.moe.shared_experts > 0) {
        const double shared = s.moe.shared_experts * fe;
        add_weight_gemm(st, {tokens, up * shared / tp, h, 1}, wb, count, t);
        add_weight_gemm(st, {tokens, h, shared / tp, 1}, wb, count, t);
    }
}

} // namespace cp::sim
