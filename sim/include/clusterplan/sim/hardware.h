// Hardware description used by the step model: one accelerator type, one node type and the
// networks between accelerators. Built from a catalog instance or from a scenario's
// cluster.custom block; values are datasheet defaults unless a calibration replaces them.
#pragma once

#include "clusterplan/sim/host_issue.h"
#include "clusterplan/sim/overlap_contention.h"
#include "clusterplan/sim/purchase_options.h"
#include "clusterplan/sim/te_attention.h"

#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

namespace cp::sim {

inline constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
inline bool is_known(double v) {
    return !std::isnan(v);
}

enum class Precision { fp32, tf32, fp16, bf16, fp8 };
inline constexpr int kPrecisionCount = 5;

enum class IntraNodeLink { none, nvswitch, nvlink, pcie, neuronlink, rocem };

struct AcceleratorSpec {
    std::string id;        // canonical id, e.g. "A100-80GB"
    std::string vendor;    // "NVIDIA", "AWS", "Habana Labs (Intel)"
    bool is_gpu = true;    // Neuron and Gaudi are accelerators, not GPUs
    bool can_train = true; // false for Inferentia (inference-only)
    // Highest ZeRO stage its training software offers. The Neuron SDK (Trainium) shards only the
    // optimizer state: NxD Training and optimum-neuron document ZeRO-1 and no stage 2/3
    // (awsdocs-neuron.readthedocs-hosted.com, "ZeRO-1 Tutorial";
    // huggingface.co/docs/optimum-neuron, "Distributed Training"). Plans beyond it are not offered.
    int max_zero_stage = 3;
    // Whether its framework issues kernels one by one from the host (eager PyTorch on GPUs), so
    // small layers can wait for the host (the host-issue floor). Neuron (Trainium) compiles the
    // whole step ahead of time through XLA, and Gaudi's lazy mode runs accumulated graphs.
    bool eager_kernel_issue = true;
    HostIssue host_issue{};     // the floor's size when eager_kernel_issue (host_issue.h)
    TeAttention te_attention{}; // Transformer Engine's fused attention rate (te_attention.h)
    OverlapContention overlap_contention{}; // compute slowed beside a collective
    // Dense peak FLOP/s per precision, indexed by Precision; NaN = not published / unsupported.
    std::array<double, kPrecisionCount> peak_tflops{kUnknown, kUnknown, kUnknown, kUnknown,
                                                    kUnknown};
    // Dense int8 peak, TOP/s (TensorRT int8 kernels, Neuron int8 matmuls); NaN = not published.
    double int8_tops = kUnknown;
    double memory_gib = kUnknown;
    double hbm_gbytes_per_s = kUnknown;
    double link_gbytes_per_s = kUnknown; // per device, unidirectional, intra-node fabric
    // True where the part has no such math (T4 bf16): the plan gets Limit::cannot_train rather
    // than Limit::unknown_hardware, which a NaN peak alone means.
    std::array<bool, kPrecisionCount> precision_unsupported{};
    // Figures that are published estimates rather than datasheet values (A10G tensor peaks,
    // B200 memory ...): stated as such in every plan that uses them.
    std::array<bool, kPrecisionCount> peak_estimated{};
    bool memory_estimated = false;
    bool hbm_estimated = false;
    std::string estimate_source;
    // Board power the datasheet peaks are specified at (TDP), and the power limit the part runs
    // under when set below it (nvidia-smi -pl); NaN = not known / not set.
    double tdp_w = kUnknown;
    double power_limit_w = kUnknown;

    double peak(Precision p) const { return peak_tflops[static_cast<int>(p)]; }
    // Dense 16-bit peak: bf16 where the part has it, else fp16.
    double peak_16bit() const {
        return is_known(peak(Precision::bf16)) ? peak(Precision::bf16) : peak(Precision::fp16);
    }
    // The generations model_constants.h carries measured efficiencies for (by catalog id).
    bool is_hopper() const {
        return id.starts_with("H100") || id.starts_with("H200") || id.starts_with("GH200");
    }
    bool is_a100() const { return id.starts_with("A100"); }
};

struct NodeSpec {
    std::string instance_type; // "p4d.24xlarge", or "custom"
    AcceleratorSpec accelerator;
    int accelerators_per_node = 1;
    IntraNodeLink intra_link = IntraNodeLink::none;
    double intra_node_gbytes_per_s = kUnknown; // per accelerator, unidirectional
    // Devices along each side of a 2D torus of links (trn1/trn2: 16 chips as 4 x 4), 0 where the
    // devices form a ring or hang off a switch.
    int intra_torus_side = 0;
    // Whether the devices of a PCIe node can address each other's memory (CUDA peer access).
    // Without it NCCL's ring goes through host memory (its SHM transport): each hop is a copy
    // into a host buffer and a read back out of it, not one GPU-to-GPU write.
    bool pcie_peer_access = true;
    // CPU sockets the accelerators are spread over, evenly (g5.48xlarge: 2). A collective group
    // larger than one socket's share crosses the inter-socket link.
    int accelerator_sockets = 1;
    double inter_node_gbps = kUnknown; // node total (all NICs)
    double inter_node_latency_us = 5.0;
    // Elastic Fabric Adapter (RDMA) between nodes; empty when the catalog does not say. Without
    // it NCCL falls back to TCP sockets, which the datasheet network model does not capture.
    std::optional<bool> efa;
    // Host side, for optimizer/parameter offload: the instance's memory, each accelerator's
    // host link (PCIe, unidirectional) and the node's local NVMe read bandwidth.
    double host_memory_gib = kUnknown;
    double host_link_gbytes_per_s = kUnknown;
    double nvme_gbytes_per_s = kUnknown;
    double usd_per_node_hour_on_demand = kUnknown;
    double usd_per_node_hour_spot = kUnknown;
    int spot_interruption_bucket = -1; // Spot Advisor bucket 0..4, -1 unknown
    std::string price_as_of;           // date of the on-demand price, for provenance
    // How the spot price was read from the catalog's history (statistic, zone, range).
    std::string spot_price_basis;
    double usd_per_node_hour_spot_min = kUnknown; // range over the region's zones
    double usd_per_node_hour_spot_max = kUnknown;
    std::string spot_as_of;
    bool spot_advisor_known = false; // the bucket came from Spot Advisor data
    CommittedPrices committed;       // Capacity Block and reserved rates
};

} // namespace cp::sim
