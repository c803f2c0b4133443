// Queries the step model makes of a CalibrationProfile: a collective's fitted cost and the
// measured GEMM throughput curve by operation size.
#pragma once

#include "clusterplan/sim/calibration_profile.h"
#include "clusterplan/sim/hardware.h"

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

// Whether a profile describes `node`: the same instance type, or an accelerator whose name holds
// the node's accelerator family as a whole word ("NVIDIA A100-SXM4-80GB" for "A100-80GB"). A
// profile without instance or accelerator is taken to match (nothing says otherwise).
bool calibration_matches(const CalibrationProfile& profile, const NodeSpec& node);

// `profile` when it matches `node`, else nullptr: figures measured on one accelerator are never
// applied to another (the datasheet values are used there).
const CalibrationProfile* calibration_for(const CalibrationProfile* profile, const NodeSpec& node);

} // namespace cp::sim
