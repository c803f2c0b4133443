// How sure a prediction is: the spread of the model's error over the published runs that are
// comparable to a plan (the same framework family and accelerator generation), measured with
// each run's own source left out of the fit (leave-one-source-out), so the range reflects how
// the model does on runs it was not fitted to.
#pragma once

#include "clusterplan/sim/framework.h"

#include <string>
#include <string_view>
#include <vector>

namespace cp::sim {

struct ValidationRun;

// measured step time / predicted step time over one bucket's runs (leave-one-source-out).
struct ResidualBucket {
    std::string_view family; // FrameworkProfile::family ("megatron", "fsdp", ...)
    AcceleratorGeneration generation = AcceleratorGeneration::other;
    int runs = 0;
    int sources = 0;
    double ratio_p10 = 1.0;
    double ratio_p90 = 1.0;
    double ratio_min = 1.0;
    double ratio_max = 1.0;
};

// The share of comparable runs an interval covers (10th to 90th percentile).
inline constexpr double kIntervalConfidence = 0.8;
// A bucket validates a plan only with this many runs from at least two independent sources:
// one publisher's runs share its software, cluster and counting conventions.
inline constexpr int kMinValidatingRuns = 5;
inline constexpr int kMinValidatingSources = 2;

// What a range rests on: published runs of the plan's bucket, the user's own job logs
// (plan_interval.h), or, unvalidated, the worst residual of any bucket.
enum class IntervalBasis { published_runs, job_log, unvalidated };
// "published_runs", "job_log", "unvalidated" (the JSON spelling).
std::string_view enum_name(IntervalBasis basis);

struct PredictionInterval {
    // Multipliers of a predicted time (step, time to train, cost); a throughput's interval is
    // its prediction divided by them (high, low).
    double low_factor = 1.0;
    double high_factor = 1.0;
    double confidence = kIntervalConfidence;
    bool validated = false;
    int runs = 0; // comparable runs behind the range (0 when none)
    int sources = 0;
    std::string bucket; // "megatron / ampere"
    IntervalBasis basis = IntervalBasis::unvalidated;
};

// What an unvalidated plan says wherever it is shown (CLI, recommend, GUI, report).
inline constexpr std::string_view kUnvalidatedLine =
    "no measured run supports this estimate; calibrate with clusterplan-probe or a job log";

// The committed table (prediction_interval_table.cpp), regenerated and checked by the
// validation test from tests/data/validation/training_runs.csv.
const std::vector<ResidualBucket>& residual_buckets();

// The interval for a plan of `framework` on an accelerator of `generation`. Without a bucket
// that validates it, the interval spans the worst residuals seen across every bucket.
PredictionInterval prediction_interval(Framework framework, AcceleratorGeneration generation);

// Leave-one-source-out residual buckets of `runs` (what the committed table holds).
std::vector<ResidualBucket> compute_residual_buckets(const std::vector<ValidationRun>& runs);

// The shared rule behind every interval, training and serving (serving_interval.h):
// One bucket from its measured/predicted time ratios (10th and 90th percentile, extremes).
ResidualBucket make_residual_bucket(std::string_view family, AcceleratorGeneration generation,
                                    std::vector<double> ratios, int sources);
// The interval of `family` on `generation` among `buckets`: the bucket's p10-p90 when it has
// kMinValidatingRuns runs from kMinValidatingSources sources, else the worst residuals of all.
PredictionInterval interval_from_buckets(const std::vector<ResidualBucket>& buckets,
                                         std::string_view family, AcceleratorGeneration generation);

} // namespace cp::sim
