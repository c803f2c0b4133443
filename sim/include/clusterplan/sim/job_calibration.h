// Calibration from the user's own training job: a log's measured step time against the model's
// prediction for the scenario that ran, turned into two named factors (compute efficiency and
// exposed communication) that then apply to other node counts, layouts and instances with the
// same accelerator.
#pragma once

#include "clusterplan/sim/job_log.h"
#include "clusterplan/sim/result.h"

#include <string>
#include <vector>

namespace cp::sim {

// One imported run: what its log measured and what the uncalibrated model predicted for it.
struct JobRun {
    std::string log_name;
    std::string format; // job_log_format_name()
    std::string scenario_name;
    std::string instance_type;
    std::string layout; // "tp 1, pp 1, dp 8, micro-batch 4"
    int nodes = 0;
    int steps_used = 0;
    int steps_skipped = 0;
    double measured_step_s = 0; // median after warm-up
    double measured_p10_step_s = 0;
    double measured_p90_step_s = 0;
    double predicted_step_s = 0;
    double predicted_compute_s = 0; // compute, recompute, pipeline bubble, host issue
    double predicted_comm_s = 0;    // exposed tensor-, pipeline- and data-parallel communication
};

// Compute-bound time is multiplied by compute_factor, exposed communication by comm_factor.
struct JobCalibration {
    double compute_factor = 1.0;
    double comm_factor = 1.0;
    // How the runs decided the factors: "compute" (communication too small to tell, kept at 1),
    // "tied" (one factor for both: a single run with much communication), "separate" (runs with
    // different communication shares fitted both by least squares).
    std::string fit = "compute";
    std::vector<JobRun> runs;
    bool empty() const { return runs.empty(); }
};

// The parts of a step the two factors scale: compute, recompute, pipeline bubble and host issue;
// exposed tensor-, pipeline- and data-parallel communication.
double compute_like_s(const StepBreakdown& breakdown);
double exposed_comm_s(const StepBreakdown& breakdown);

// A measured step time from a log's figure: step times as they are; global samples/s and
// per-device tokens/s through the scenario's global batch, tokens per sample and device count.
double measured_step_time_s(JobLogMeasure measure, double figure, double global_batch,
                            double tokens_per_sample, int devices);

// The run a log describes, checked against the prediction of its scenario: the log's global
// batch (when it states one) must equal the scenario's, and the measured step must lie within 3x
// of the prediction either way; otherwise JobLogError says the log does not match its scenario.
JobRun make_job_run(const std::string& log_name, const JobLog& log, const PlanResult& predicted,
                    double global_batch, double tokens_per_sample, int devices);

// Factors reproducing the runs (least squares on relative error, Eigen); see JobCalibration::fit.
JobCalibration fit_job_calibration(std::vector<JobRun> runs);

// Applies the factors to an evaluated plan: breakdown, step time and every throughput figure.
void apply_job_calibration(PlanResult& r, const JobCalibration& job);

// Plain-language lines: which factors changed, by how much, on which runs.
std::vector<std::string> describe_job_calibration(const JobCalibration& job);

} // namespace cp::sim
