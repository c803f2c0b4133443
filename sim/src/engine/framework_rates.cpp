#include "engine/framework_rates.h"

namespace cp::sim {

void apply_framework(ComputeRates& rates, const FrameworkProfile& framework,
                     const AcceleratorSpec& accelerator, Precision precision, double efficiency) {
    rates.framework_efficiency = efficiency;
    rates.hbm_bytes_per_s *= efficiency;
    if (framework.te_attention && accelerator.is_hopper())
        rates.fused_attention_fraction = accelerator.te_attention.hopper_fraction;
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
