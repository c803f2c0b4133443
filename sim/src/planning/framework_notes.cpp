#include "planning/framework_notes.h"

#include "clusterplan/sim/framework_factors.h"
#include "engine/gaudi_rates.h"
#include "engine/pipeline_stages.h"

#include <cstdio>

namespace cp::sim {

std::vector<std::string> framework_assumptions(const Scenario& sc, const AcceleratorSpec& acc,
                                               const Layout& layout) {
    std::vector<std::string> out;
    const Framework fw = resolve_framework(layout.framework, acc, layout.zero);
    const FrameworkProfile& p = framework_profile(fw);
    std::string line = "framework " + std::string(p.name);
    if (layout.framework == Framework::automatic)
        line += layout.zero > 1 && acc.vendor == "NVIDIA"
                    ? " (training.framework not given: ZeRO-" + std::to_string(layout.zero) +
                          " sharded data parallelism runs in PyTorch FSDP)"
                    : " (training.framework not given: the default for " + acc.id + ")";
    std::string mechanisms;
    auto add = [&](bool on, const char* what) {
        if (on) mechanisms += (mechanisms.empty() ? "" : ", ") + std::string(what);
    };
    add(p.tp_comm_overlap && layout.sequence_parallel && layout.tp > 1,
        "TP communication overlapped with GEMMs");
    add(p.te_attention && acc.is_hopper(), "cuDNN fused attention");
    add(p.dp_overlap && layout.overlap_dp, "gradient reduce overlapped with backward");
    add(!p.dp_overlap, "gradient reduce after the backward pass");
    const TransformerShape& shape = sc.workload.shape;
    const bool transformer = sc.workload.kind == WorkloadKind::transformer;
    add(transformer && shape.flash_attention_v1,
        "FlashAttention-1-generation kernel at half FlashAttention-2's rate (Dao 2023)");
    add(transformer && shape.eager_elementwise,
        "eager PyTorch pointwise kernels (RMSNorm, RoPE, repeat_kv, SwiGLU one kernel per op)");
    add(acc.eager_kernel_issue, "eager kernel issue (host-issue floor)");
    add(!acc.eager_kernel_issue, "compiled graphs (no host-issue floor)");
    if (!mechanisms.empty()) line += ": " + mechanisms;
    out.push_back(line);
    const double gaudi_cnn = gaudi_generic_compute_fraction(acc, sc.precision);
    if (!transformer && is_known(gaudi_cnn)) {
        // The general assumption lines quote NVIDIA's CNN fraction; Gaudi has its own.
        char buf[96];
        std::snprintf(buf, sizeof buf, "%.0f %% of its bf16 rate (%.1f TFLOP/s)", 100.0 * gaudi_cnn,
                      gaudi_cnn * acc.peak(sc.precision));
        out.push_back("generic (CNN) models on " + acc.id + ": " + buf +
                      " over a whole step, fitted on Habana's published single-card ResNet-50 "
                      "training throughput (not NVIDIA's fraction); no framework factor");
    } else if (rate_measured_derived(acc)) {
        out.push_back("no framework compute efficiency factor: " + acc.id +
                      "'s rate was fitted on its own measured runs and carries its software stack");
    } else {
        out.push_back(describe_factor(
            fitted_factor_table().lookup(fw, accelerator_generation(acc), sc.precision)));
    }
    if (transformer && shape.flash_attention && !has_fused_attention_kernel(acc))
        out.push_back(acc.id +
                      " has no fused attention kernel (Habana's FusedSDPA does not run "
                      "on Gaudi1): attention is planned unfused, its scores written to HBM");
    if (transformer && layout.pp > 1) {
        const StageSplit s = stage_split(shape.layers, layout);
        if (s.first != s.last || (layout.pp > 2 && s.middle != s.first))
            out.push_back(
                "pipeline stages hold " + std::to_string(s.first) + " (first), up to " +
                std::to_string(s.middle) + " (middle) and " + std::to_string(s.last) +
                " (last) layers; the slowest stage sets the pace, the fullest the memory");
    }
    if (layout.cp > 1)
        out.push_back("context parallelism " + std::to_string(layout.cp) +
                      ": ring attention over the sequence, K/V chunks passed between cp ranks and "
                      "hidden behind each chunk's attention where it is long enough");
    return out;
}

} // namespace cp::sim
