// Prediction intervals of single plans (plan_interval.h).
#include "clusterplan/sim/plan_interval.h"

#include "clusterplan/sim/job_calibration.h"

#include <algorithm>
#include <cmath>

namespace cp::sim {
namespace {

struct Spread {
    double low = 1.0;
    double high = 1.0;
    double max_comm_share = 0.0; // of the runs, as predicted before calibration
};

// The step-to-step spread of the calibrating runs (their p10 and p90 over the median) and what
// the fitted factors leave unexplained of each median: together the range the job itself shows.
Spread job_spread(const JobCalibration& job) {
    Spread s;
    for (const JobRun& r : job.runs) {
        if (!(r.measured_step_s > 0) || !(r.predicted_step_s > 0)) continue;
        const double rest = r.predicted_step_s - r.predicted_compute_s - r.predicted_comm_s;
        const double calibrated = r.predicted_compute_s * job.compute_factor +
                                  r.predicted_comm_s * job.comm_factor + rest;
        const double residual = calibrated > 0 ? r.measured_step_s / calibrated : 1.0;
        s.low =
            std::min(s.low, r.measured_p10_step_s / r.measured_step_s * std::min(1.0, residual));
        s.high =
            std::max(s.high, r.measured_p90_step_s / r.measured_step_s * std::max(1.0, residual));
        s.max_comm_share = std::max(s.max_comm_share, r.predicted_comm_s / r.predicted_step_s);
    }
    return s;
}

// The share of the plan's step whose factor no log measured: all exposed communication when only
// compute was fitted; what exceeds the runs' share when one factor was tied to both.
double unmeasured_share(const JobCalibration& job, const PlanResult& r, const Spread& s) {
    const double share = exposed_comm_s(r.breakdown_s) / r.step_time_s;
    if (job.fit == "separate") return 0.0;
    if (job.fit == "tied") return std::clamp(share - s.max_comm_share, 0.0, 1.0);
    return std::clamp(share, 0.0, 1.0);
}

bool known(double v) {
    return is_known(v) && std::isfinite(v);
}

} // namespace

PredictionInterval plan_interval(const PlanResult& r, const Layout& layout,
                                 const AcceleratorSpec& accelerator,
                                 const CalibrationProfile* calibration) {
    const Framework framework = resolve_framework(layout.framework, accelerator, layout.zero);
    PredictionInterval bucket = prediction_interval(framework, accelerator_generation(accelerator));
    if (!calibration || !r.calibration_used.job || !(r.step_time_s > 0)) return bucket;
    const JobCalibration& job = calibration->job;
    const Spread s = job_spread(job);
    const double u = unmeasured_share(job, r, s);
    PredictionInterval out;
    out.low_factor = (1.0 - u) * s.low + u * bucket.low_factor;
    out.high_factor = (1.0 - u) * s.high + u * bucket.high_factor;
    out.confidence = kIntervalConfidence;
    out.validated = true;
    out.runs = static_cast<int>(job.runs.size());
    out.sources = 1;
    out.bucket = "job log '" + calibration->name + "'";
    out.basis = IntervalBasis::job_log;
    return out;
}

FigureRange time_range(double value, const PredictionInterval& iv) {
    if (!known(value)) return {kUnknown, kUnknown};
    return {value * iv.low_factor, value * iv.high_factor};
}

FigureRange rate_range(double value, const PredictionInterval& iv) {
    if (!known(value)) return {kUnknown, kUnknown};
    return {value / iv.high_factor, value / iv.low_factor};
}

bool ranges_overlap(const FigureRange& a, const FigureRange& b) {
    return a.low <= b.high && b.low <= a.high;
}

std::string range_phrase(const PredictionInterval& iv, const std::string& low,
                         const std::string& high) {
    // "6.01–7.42 s" rather than "6.01 s–7.42 s" when both ends carry the same unit.
    const std::size_t lo_space = low.rfind(' '), hi_space = high.rfind(' ');
    const bool same_unit = lo_space != std::string::npos && hi_space != std::string::npos &&
                           low.substr(lo_space) == high.substr(hi_space);
    const std::string span = (same_unit ? low.substr(0, lo_space) : low) + "–" + high;
    const std::string share = std::to_string(static_cast<int>(std::lround(iv.confidence * 100)));
    if (!iv.validated) return "unvalidated: the model's error on any measured run spans " + span;
    if (iv.basis == IntervalBasis::job_log) return share + " % range from your job log: " + span;
    return share + " % of comparable runs within " + span;
}

} // namespace cp::sim
