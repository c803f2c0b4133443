#include "engine/offload.h"

#include "engine/memory_model.h"
#include "engine/model_constants.h"
#include "engine/model_state.h"
#include "engine/optimizer_state.h"
#include "engine/training_constants.h"

#include <algorithm>

namespace cp::sim {

bool offload_times(const Workload& workload, const Layout& l, const NodeSpec& node,
                   Precision precision, const OffloadWindows& win, OffloadTimes& out) {
    out = {};
    if (!l.offload.any()) return true;
    const bool nvme =
        l.offload.optimizer == OffloadTarget::nvme || l.offload.params == OffloadTarget::nvme;
    if (!is_known(node.host_link_gbytes_per_s) || node.host_link_gbytes_per_s <= 0) return false;
    if (nvme && !(is_known(node.nvme_gbytes_per_s) && node.nvme_gbytes_per_s > 0)) return false;
    const double per_node = std::max(1, node.accelerators_per_node);
    // Pinned copies over each device's PCIe link at the bus efficiency the collectives use.
    const double pcie = node.host_link_gbytes_per_s * 1e9 * model::kPcieBusEfficiency;
    const double host_mem =
        model::kHostMemoryGbytesPerS * 1e9 / per_node; // shared by the node's devices
    const double nvme_bw = nvme ? node.nvme_gbytes_per_s * 1e9 / per_node : 0.0;
    const double w = weight_bytes_per_param(precision);
    const DeviceParams d = device_params(workload, l);
    const double m = std::max(1, win.micro_batches);
    const int dp = dense_data_parallel(l), edp = expert_data_parallel(l);
    const double shard = d.trainable_dense() / (l.zero >= 1 ? dp : 1) +
                         d.trainable_expert() / (l.zero >= 1 ? edp : 1);

    if (l.offload.optimizer != OffloadTarget::none) {
        // Gradients leave in buckets as backward produces them, every micro-batch (DeepSpeed
        // accumulates them in host fp32 buffers); the fp32 step runs on the CPU (CPU-Adam), and
        // the updated 16-bit parameters return while it runs (chunked copy, Ren et al. sec. 5.1).
        const double grads_s = shard * w / pcie;
        const double step_s =
            shard * optimizer_traffic_bytes_per_param(l.optimizer, precision) / host_mem;
        const double params_s = shard * w / pcie;
        double host_s = std::max(step_s, params_s);
        if (l.offload.optimizer == OffloadTarget::nvme) {
            // ZeRO-Infinity streams the state in from NVMe and back out around the CPU step.
            const double state = optimizer_state_bytes_per_param(l.optimizer, precision);
            host_s = std::max(host_s, 2.0 * shard * state / nvme_bw);
        }
        out.total_s += m * grads_s + host_s;
        out.exposed_s += m * std::max(0.0, grads_s - win.backward_s) + host_s;
    }
    if (l.offload.params != OffloadTarget::none) {
        // Each micro-batch fetches the device's parameter shard for forward and again for
        // backward, prefetching the next layer while the current one computes.
        const double weights = (d.dense / dp + d.expert / edp) * w;
        const double bw = l.offload.params == OffloadTarget::nvme ? std::min(pcie, nvme_bw) : pcie;
        const double fetch_s = weights / bw;
        out.total_s += 2.0 * m * fetch_s;
        out.exposed_s +=
            m * (std::max(0.0, fetch_s - win.forward_s) + std::max(0.0, fetch_s - win.backward_s));
    }
    return true;
}

} // namespace cp::sim
