#include "engine/layer_training.h"

#include "engine/memory_model.h"
#include "engine/model_constants.h"
#include "engine/model_state.h"
#include "engine/moe.h"
#include "engine/pipeline_stages.h"

#include <algorithm>

namespace cp::sim {
namespace {

// One LoRA adapter beside a weight of `in` x `out` for `tokens` rows: x*A then (xA)*B, forward.
double adapter_s(const ComputeRates& rates, double tokens, double in, double out, double rank,
                 double e) {
    return gemm_time_s(rates, {tokens, rank, in, 1}, e) +
           gemm_time_s(rates, {tokens, out, rank, 1}, e);
}

double adapters_forward_s(const TransformerShape& s, const Layout& l, const FineTuning& ft,
                          const ComputeRates& rates, double moe_fraction, double e) {
    if (!ft.adapters()) return 0;
    const double r = ft.lora.rank, tp = std::max(1, l.tp), h = s.hidden;
    const double tokens = double(l.micro_batch) * s.seq_len;
    const double kv_dim = s.kv_width(), q = s.query_width();
    const double f = s.ffn_width();
    double t = 0;
    if (ft.lora.targets != LoraTargets::mlp)
        t += adapter_s(rates, tokens, h, q / tp, r, e) + adapter_s(rates, tokens, q / tp, h, r, e) +
             2.0 * adapter_s(rates, tokens, h, kv_dim / tp, r, e);
    if (ft.lora.targets != LoraTargets::attention) {
        const double up = s.gated_mlp ? 2.0 : 1.0;
        const double dense = up * adapter_s(rates, tokens, h, f / tp, r, e) +
                             adapter_s(rates, tokens, f / tp, h, r, e);
        double moe = 0;
        if (s.moe.enabled()) {
            const MoeLayerWork w = moe_layer_work(s, l, e);
            const double rows = w.tokens_per_expert * w.expert_up.batch,
                         fe = static_cast<double>(s.moe.moe_ffn_hidden) / std::max(1, l.etp);
            moe = up * adapter_s(rates, rows, h, fe, r, e) + adapter_s(rates, rows, fe, h, r, e);
        }
        t += (1.0 - moe_fraction) * dense + moe_fraction * moe;
    }
    return t;
}

} // namespace

LayerAdjust layer_adjust(const TransformerShape& s, const FineTuning& ft, const Layout& l,
                         const Network& net, const ComputeRates& rates, const LayerWork& dense,
                         double e, int expert_gemm_streams) {
    LayerAdjust a;
    Workload workload;
    workload.shape = s;
    workload.finetune = ft;
    const LayerPieces pieces = layer_pieces(s, ft);
    const double moe = pieces.moe_fraction;
    // The dense layer's weight GEMMs: all but the attention core (scores and context), whose
    // operands are activations; the last two are the MLP's up and down projections.
    const std::size_t core = static_cast<std::size_t>(dense.attention_core_begin);
    const std::size_t count = static_cast<std::size_t>(dense.gemm_count);
    double weight_gemm_s = 0, dense_mlp_gemm_s = 0;
    for (std::size_t i = 0; i < count; ++i) {
        if (i == core || i == core + 1) continue;
        const double t = gemm_time_s(rates, dense.gemms[i], e);
        weight_gemm_s += t;
        if (i + 2 >= count) dense_mlp_gemm_s += t;
    }
    if (moe > 0) {
        const MoeLayerTimes mt = moe_layer_times(s, l, net, rates, e, expert_gemm_streams);
        const double dense_mlp_s =
            dense_mlp_gemm_s + memory_time_s(rates, dense.sharded_bytes, dense.sharded_kernels);
        a.forward_s += moe * (mt.forward_s - dense_mlp_s);
        weight_gemm_s += moe * (mt.weight_gemm_s - dense_mlp_gemm_s);
        a.ep_comm_forward_s = moe * (mt.all_to_all_s + mt.etp_comm_s);
        a.ep_comm_s = 2.0 * a.ep_comm_forward_s; // backward sends the gradients the same way
    }
    a.forward_s += adapters_forward_s(s, l, ft, rates, moe, e);
    if (ft.adapters()) {
        // Frozen weights need input gradients but no weight gradients: backward runs one GEMM
        // per weight instead of two.
        a.backward_s -= weight_gemm_s;
    }
    if (ft.method == TrainingMethod::qlora) {
        // bitsandbytes dequantises each NF4 weight to bf16 before its GEMM, in forward and again
        // for the input gradient in backward: read 4.127 bits, write 16 bits per weight.
        const DeviceParams one = device_params(workload, l);
        const double layers = std::max(1, stage_split(s.layers, l).fullest());
        const double quantized = (one.quantizable + one.expert) / layers;
        const double dequant_s = memory_time_s(rates, quantized * (kNf4BytesPerParam + e), 7);
        a.forward_s += dequant_s;
        a.backward_s -= dequant_s; // 2 x forward would count it twice; backward needs it once
    }
    return a;
}

double lora_host_passes(const TransformerShape& s, const FineTuning& ft, const Layout& l,
                        bool fused_projections, int forward_passes) {
    if (!ft.adapters()) return 0;
    double adapters = 0;
    if (ft.lora.targets != LoraTargets::mlp) adapters += fused_projections ? 2.0 : 4.0;
    if (ft.lora.targets != LoraTargets::attention)
        adapters += fused_projections ? 2.0 : (s.gated_mlp ? 3.0 : 2.0);
    // With tensor parallelism each adapter moves its activations once per pass.
    const double comm = l.tp > 1 ? 1.0 : 0.0;
    const double ops =
        forward_passes * (model::kLoraHostOpsForward + comm) + model::kLoraHostOpsBackward + comm;
    return adapters * ops / model::kHostOpsPerLayerPass;
}

FlopsAdjust flops_adjust_per_sample(const Workload& workload, Recompute recompute) {
    FlopsAdjust f;
    const TransformerShape& s = workload.shape;
    const LayerPieces p = layer_pieces(s, workload.finetune);
    const double tokens = s.seq_len, layers = s.layers, moe_layers = layers * p.moe_fraction;
    const double moe_delta = moe_forward_flops_delta_per_token(s) * tokens * moe_layers;
    const double passes = 3.0 + (recompute == Recompute::full ? 1.0 : 0.0);
    f.model += 3.0 * moe_delta;
    f.hardware += passes * moe_delta;
    if (workload.finetune.adapters()) {
        // Weights used per token: attention, the dense MLPs, and in MoE layers the router, the
        // k routed and the shared experts.
        const double active =
            layers * p.attention_linear + (layers - moe_layers) * p.dense_mlp_linear +
            moe_layers * (p.router + s.moe.experts_per_token * p.expert + p.shared);
        // The frozen output layer skips its weight gradient too (transformer_stage.cpp).
        const double wgrad = 2.0 * (active + double(s.hidden) * s.vocab) * tokens;
        const double adapters =
            layers * p.attention_adapters + (layers - moe_layers) * p.mlp_adapters +
            moe_layers * (s.moe.experts_per_token + s.moe.shared_experts) * p.expert_adapters;
        f.model += 6.0 * adapters * tokens - wgrad;
        f.hardware += passes * 2.0 * adapters * tokens - wgrad;
    }
    return f;
}

} // namespace cp::sim
