// α–β fitting of collective times: t(S) = α + S/β, piecewise by message-size regime.
#pragma once

#include "clusterplan/sim/calibration_profile.h"
#include "clusterplan/sim/calibration_samples.h"

#include <vector>

namespace cp::sim {

struct FitPoint {
    double bytes = 0;
    double time_s = 0;
};

struct FitOptions {
    // Segments are grown left to right for as long as their least-squares fit keeps every
    // sample within this relative error; a new regime starts where it no longer does.
    double max_rel_error = 0.05;
    int max_segments = 12; // beyond this the tolerance is relaxed and the fit redone
};

// One segment by relative-error least squares: minimises Σ((α + S/β − t)/t)². α ≥ 0, β > 0.
AlphaBetaSegment fit_alpha_beta(const std::vector<FitPoint>& points);

// Piecewise fit over all points (any order). Breakpoints are chosen automatically; segment i
// covers [min_bytes, max_bytes) with the first starting at 0 and the last ending at +inf.
// A latency-only regime has beta_bytes_per_s = 0 (no bandwidth term); the last regime always
// has a positive β so that extrapolation to larger messages scales with size.
std::vector<AlphaBetaSegment> fit_piecewise(std::vector<FitPoint> points,
                                            const FitOptions& options = {});

// Fit of one imported table (out-of-place times, or in-place where only those exist),
// keeping the raw table in the result.
CollectiveFit fit_collective(const CollectiveTable& table, const FitOptions& options = {});

// Time from the fitted segments alone (no raw table).
double segments_time_s(const std::vector<AlphaBetaSegment>& segments, double bytes);

// Time for `bytes`: log-log interpolation of the raw table inside the measured range, the
// fitted segments outside it (or when there is no raw table).
double collective_time_s(const CollectiveFit& fit, double bytes);

struct FitErrorStats {
    double mean_rel_error = 0;
    double max_rel_error = 0;
    double worst_bytes = 0;
    int count = 0;
};
// Error of the fitted segments (not the interpolated table) against the raw samples with
// bytes ≥ min_bytes.
FitErrorStats fit_error(const CollectiveFit& fit, double min_bytes = 0);

} // namespace cp::sim
