// Scenario-level purchase arithmetic: the checkpoint storage line and the sentences that state
// how spot, Capacity Block and reserved prices were read and applied.
#pragma once

#include "clusterplan/sim/hardware.h"
#include "clusterplan/sim/purchase_options.h"
#include "clusterplan/sim/scenario.h"

#include <string>
#include <vector>

namespace cp::sim {

// Mixed-precision Adam checkpoint: fp32 master weights (4 B), two fp32 moments (8 B) and the
// 16-bit model weights (2 B) per parameter (Rajbhandari et al. 2020, "ZeRO", section 3.1;
// the fp16 gradients are not saved).
inline constexpr double kCheckpointBytesPerParam = 14.0;
// Published us-east-1 list prices per GB-month: S3 Standard, first 50 TB
// (aws.amazon.com/s3/pricing); FSx for Lustre persistent SSD, 125 MB/s per TiB
// (aws.amazon.com/fsx/lustre/pricing).
inline constexpr double kS3UsdPerGbMonth = 0.023;
inline constexpr double kFsxLustreUsdPerGbMonth = 0.145;
inline constexpr double kStorageHoursPerMonth = 730.0; // 8760 h / 12, AWS GB-month convention

// Storage cost of the scenario's checkpoints held for `wall_time_h` (not priced when the
// storage section is absent).
StorageCost storage_cost(const Scenario& scenario, double wall_time_h);

// Whether an option of `kind` may be ranked for this scenario (pricing and allow_spot).
bool purchase_allowed(const Scenario& scenario, PurchaseKind kind);

// The sentences behind spot, Capacity Block and reserved costs for the assumptions list.
std::vector<std::string> purchase_assumptions(const Scenario& scenario, const NodeSpec& node,
                                              int nodes);

} // namespace cp::sim
