// Optimizer and parameter offload (ZeRO-Offload, Ren et al. USENIX ATC'21; ZeRO-Infinity,
// Rajbhandari et al. SC'21; PyTorch FSDP CPU offload): the time the transfers between device,
// host memory and NVMe and the host-side optimizer step add to a training step, given the
// instance's PCIe, host memory and NVMe figures, and what of it overlaps the GPU's work.
#pragma once

#include "clusterplan/sim/hardware.h"
#include "clusterplan/sim/plan.h"
#include "clusterplan/sim/workload.h"

namespace cp::sim {

struct OffloadTimes {
    double total_s = 0;   // all transfers and the host optimizer step, per step
    double exposed_s = 0; // the part the GPU waits for
};

// What the GPU does per micro-batch while transfers can run beside it.
struct OffloadWindows {
    double forward_s = 0;
    double backward_s = 0;
    int micro_batches = 1;
};

// Returns false (and leaves `out` empty) when a figure the offload needs is unknown.
bool offload_times(const Workload& workload, const Layout& layout, const NodeSpec& node,
                   Precision precision, const OffloadWindows& windows, OffloadTimes& out);

} // namespace cp::sim
