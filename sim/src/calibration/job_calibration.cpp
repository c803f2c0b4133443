// Fitting and applying a job calibration (clusterplan/sim/job_calibration.h).
#include "clusterplan/sim/job_calibration.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>

namespace cp::sim {
namespace {

// Below this share of the step, exposed communication cannot be told apart from compute noise
// in one run (the logs' own p10-p90 spread is a few per cent), so only compute is fitted.
constexpr double kCommShareToFit = 0.3;
// Runs whose communication shares differ by less than this cannot separate the two factors.
constexpr double kCommShareSpreadToSeparate = 0.1;
// A log further than this from the model's prediction is taken for another job or cluster.
constexpr double kMaxMismatch = 3.0;

std::string pct(double factor) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%+.1f %%", (factor - 1.0) * 100.0);
    return buf;
}

} // namespace

double compute_like_s(const StepBreakdown& b) {
    return b.compute_s + b.recompute_s + b.pp_bubble_s + b.host_overhead_s;
}
double exposed_comm_s(const StepBreakdown& b) {
    return b.tp_comm_s + b.pp_comm_s + b.dp_comm_exposed_s;
}

double measured_step_time_s(JobLogMeasure measure, double figure, double global_batch,
                            double tokens_per_sample, int devices) {
    switch (measure) {
    case JobLogMeasure::step_time_s:
        return figure;
    case JobLogMeasure::samples_per_s:
        return global_batch / figure;
    case JobLogMeasure::tokens_per_s_per_device:
        return global_batch * tokens_per_sample / (figure * devices);
    }
    return figure;
}

JobRun make_job_run(const std::string& log_name, const JobLog& log, const PlanResult& predicted,
                    double global_batch, double tokens_per_sample, int devices) {
    if (log.global_batch && static_cast<double>(*log.global_batch) != global_batch)
        throw JobLogError(log_name + ": the log ran global batch " +
                          std::to_string(*log.global_batch) + ", its scenario has " +
                          std::to_string(static_cast<long>(global_batch)) +
                          ": the log does not match its scenario");
    const JobLogSummary s = summarize_job_log(log);
    JobRun run;
    run.log_name = log_name;
    run.format = job_log_format_name(log.format);
    run.steps_used = s.steps_used;
    run.steps_skipped = s.steps_skipped;
    const auto step = [&](double figure) {
        return measured_step_time_s(log.measure, figure, global_batch, tokens_per_sample, devices);
    };
    run.measured_step_s = step(s.median);
    // A rate's low percentile is the step time's high one.
    run.measured_p10_step_s = std::min(step(s.p10), step(s.p90));
    run.measured_p90_step_s = std::max(step(s.p10), step(s.p90));
    run.predicted_step_s = predicted.step_time_s;
    run.predicted_compute_s = compute_like_s(predicted.breakdown_s);
    run.predicted_comm_s = exposed_comm_s(predicted.breakdown_s);
    const double ratio = run.measured_step_s / run.predicted_step_s;
    // Model FLOPs over the measured step cannot exceed the accelerators' peak: a log that fast
    // ran a smaller model, a smaller batch or more devices than its scenario describes.
    const double measured_mfu = predicted.mfu / ratio;
    if (predicted.mfu > 0 && measured_mfu > 1.0) {
        char buf[200];
        std::snprintf(buf, sizeof buf,
                      "measured step %.3g s would run the scenario's model at %.0f %% of the "
                      "accelerators' peak FLOP/s, which no hardware does: the log does not "
                      "match its scenario",
                      run.measured_step_s, measured_mfu * 100.0);
        throw JobLogError(log_name + ": " + buf);
    }
    if (!(ratio <= kMaxMismatch && ratio >= 1.0 / kMaxMismatch)) {
        char buf[160];
        std::snprintf(buf, sizeof buf,
                      "measured step %.3g s is %.1fx the %.3g s the model predicts for this "
                      "scenario: the log does not match its scenario",
                      run.measured_step_s, ratio, run.predicted_step_s);
        throw JobLogError(log_name + ": " + buf);
    }
    return run;
}

JobCalibration fit_job_calibration(std::vector<JobRun> runs) {
    JobCalibration job;
    job.runs = std::move(runs);
    if (job.runs.empty()) return job;
    // Relative residual of run i: (C_i f_c + M_i f_m + R_i - T_i) / T_i, R_i the rest of the step.
    const auto n = static_cast<Eigen::Index>(job.runs.size());
    Eigen::MatrixXd a(n, 2);
    Eigen::VectorXd b(n);
    double share_min = 1.0, share_max = 0.0;
    for (Eigen::Index i = 0; i < n; ++i) {
        const JobRun& r = job.runs[static_cast<std::size_t>(i)];
        const double rest = r.predicted_step_s - r.predicted_compute_s - r.predicted_comm_s;
        a(i, 0) = r.predicted_compute_s / r.measured_step_s;
        a(i, 1) = r.predicted_comm_s / r.measured_step_s;
        b(i) = (r.measured_step_s - rest) / r.measured_step_s;
        const double share = r.predicted_comm_s / r.predicted_step_s;
        share_min = std::min(share_min, share);
        share_max = std::max(share_max, share);
    }
    if (n >= 2 && share_max - share_min >= kCommShareSpreadToSeparate) {
        const Eigen::Vector2d f = a.colPivHouseholderQr().solve(b);
        if (f(0) > 0 && f(1) > 0) {
            job.compute_factor = f(0);
            job.comm_factor = f(1);
            job.fit = "separate";
            return job;
        }
    }
    if (share_max >= kCommShareToFit) {
        // One factor for both columns: least squares of (a0 + a1) f = b.
        const Eigen::VectorXd both = a.col(0) + a.col(1);
        job.compute_factor = job.comm_factor = both.dot(b) / both.squaredNorm();
        job.fit = "tied";
        return job;
    }
    const Eigen::VectorXd c = a.col(0);
    // Communication stays as modelled: subtract it from the target.
    const Eigen::VectorXd target = b - a.col(1);
    job.compute_factor = c.dot(target) / c.squaredNorm();
    job.fit = "compute";
    return job;
}

void apply_job_calibration(PlanResult& r, const JobCalibration& job) {
    if (job.empty() || !r.valid() || r.step_time_s <= 0) return;
    StepBreakdown& b = r.breakdown_s;
    const double before = r.step_time_s;
    const double fc = job.compute_factor, fm = job.comm_factor;
    const double added = (fc - 1.0) * compute_like_s(b) + (fm - 1.0) * exposed_comm_s(b);
    b.compute_s *= fc;
    b.recompute_s *= fc;
    b.pp_bubble_s *= fc;
    b.host_overhead_s *= fc;
    b.tp_comm_s *= fm;
    b.pp_comm_s *= fm;
    b.dp_comm_exposed_s *= fm;
    r.step_time_s = before + added;
    const double speed = before / r.step_time_s;
    r.samples_per_s *= speed;
    r.tokens_per_s *= speed;
    r.model_tflops_per_device *= speed;
    r.hardware_tflops_per_device *= speed;
    r.mfu *= speed;
    r.pp_bubble_fraction = b.pp_bubble_s / r.step_time_s;
    r.calibration_used.job = true;
}

std::vector<std::string> describe_job_calibration(const JobCalibration& job) {
    std::vector<std::string> lines;
    if (job.empty()) return lines;
    std::string runs;
    for (const JobRun& r : job.runs)
        runs += (runs.empty() ? "" : "; ") + r.log_name + " (" + r.format + ", " +
                std::to_string(r.steps_used) + " steps on " + std::to_string(r.nodes) + " x " +
                r.instance_type + ")";
    lines.push_back("compute efficiency factor " + pct(1.0 / job.compute_factor) +
                    " (compute time x" + std::to_string(job.compute_factor).substr(0, 5) + ")");
    if (job.fit == "compute")
        lines.push_back("exposed communication unchanged: too small a share of the measured "
                        "steps to fit");
    else
        lines.push_back("exposed communication x" + std::to_string(job.comm_factor).substr(0, 5) +
                        (job.fit == "tied" ? " (one factor for both: a single run cannot "
                                             "separate them)"
                                           : " (fitted separately over runs)"));
    lines.push_back("fitted on " + runs);
    return lines;
}

} // namespace cp::sim
