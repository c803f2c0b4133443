// Queries the step model makes of a CalibrationProfile: a collective's fitted cost and the
// measured GEMM throughput curve by operation size.
#pragma once

#include "clusterplan/sim/calibration_profile.h"
#include "clusterplan/sim/hardware.h"

#include <string>
#include <string_view>

namespace cp::sim {

// The fit for `collective` on the intra- or inter-node tier, or nullptr when not measured.
// With several fits of one collective (different rank counts) the one closest to `ranks` wins.
const CollectiveFit* find_collective_fit(const CalibrationProfile& profile,
                                         std::string_view collective, bool inter_node,
                                         int ranks = 0);

// Achieved TFLOP/s for a GEMM of `flops` at `precision` ("bf16", ...): linear in log(flops)
// between measured sizes, held at the nearest measured size outside them. NaN when the profile
// has no curve for that precision (the caller keeps its datasheet efficiency curve).
double gemm_tflops_at(const CalibrationProfile& profile, std::string_view precision, double flops);

// Whether a profile describes `node`. When both name an instance type, they must be the same
// (p4de's A100 80GB is not p4d's 40GB; p5.48xlarge's 8 GPUs and 3,200 Gbps EFA are not
// p5.4xlarge's 1 GPU and 100 Gbps). Otherwise: the profile must not have seen more GPUs in one
// host than the node has, and its accelerator name must hold the node's family as a whole word
// ("NVIDIA A100-SXM4-80GB" for "A100-80GB") with the same memory size where both state one. A
// profile without instance or accelerator is taken to match (nothing says otherwise).
// calibration_mismatch says why not ("" when it matches).
std::string calibration_mismatch(const CalibrationProfile& profile, const NodeSpec& node);
bool calibration_matches(const CalibrationProfile& profile, const NodeSpec& node);

// `profile` when it matches `node`, else nullptr: figures measured on one accelerator are never
// applied to another (the datasheet values are used there).
const CalibrationProfile* calibration_for(const CalibrationProfile* profile, const NodeSpec& node);

// Whether the profile's inter-node fits describe `node`'s network: not when NCCL fell back to
// TCP sockets during the measurement and the node has EFA.
bool inter_node_calibration_applies(const CalibrationProfile& profile, const NodeSpec& node);

} // namespace cp::sim
