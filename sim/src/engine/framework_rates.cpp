#include "engine/framework_rates.h"

namespace cp::sim {
namespace {

// Fused attention in cuDNN / Transformer Engine on Hopper (FlashAttention-3-class kernels using
// the asynchronous tensor-core instructions): FlashAttention-3 reaches 740 TFLOP/s forward in
// BF16 (75 % of H100's 989) and its backward runs 1.5-1.75x FlashAttention-2's (Shah et al. 2024,
// arXiv:2407.08608, sec. 4); FlashAttention-2's backward on H100 sits near its 335 TFLOP/s
// whole-kernel figure (model_constants.h). The backward does 2.5x the forward's FLOPs, so
// forward + backward reach 3.5 / (1/0.75 + 2.5/0.56) = 0.60 of the peak.
constexpr double kTeFusedAttentionFractionHopper = 0.60;

} // namespace

void apply_framework(ComputeRates& rates, const FrameworkProfile& framework,
                     const AcceleratorSpec& accelerator, Precision precision, double efficiency) {
    rates.framework_efficiency = efficiency;
    rates.hbm_bytes_per_s *= efficiency;
    if (framework.te_attention && accelerator.is_hopper())
        rates.fused_attention_fraction = kTeFusedAttentionFractionHopper;
    const double half = accelerator.peak(Precision::bf16);
    if (precision == Precision::fp8 && is_known(half) && half > 0)
        rates.attention_peak_flops = half * 1e12;
}

int neuron_cores_per_device(const AcceleratorSpec& accelerator) {
    if (accelerator.id.starts_with("Trainium2")) return 4;
    if (accelerator.id.starts_with("Trainium")) return 2;
    return 1;
}

bool neuron_core_view(const Cluster& cluster, const Layout& layout, Cluster& cores) {
    const int c = neuron_cores_per_device(cluster.node.accelerator);
    if (c <= 1 || layout.devices() != cluster.devices() * c) return false;
    cores = cluster;
    AcceleratorSpec& a = cores.node.accelerator;
    for (double& peak : a.peak_tflops)
        peak /= c;
    a.hbm_gbytes_per_s /= c;
    a.memory_gib /= c;
    a.link_gbytes_per_s /= c;
    cores.node.accelerators_per_node *= c;
    cores.node.intra_node_gbytes_per_s /= c;
    return true;
}

} // namespace cp::sim
