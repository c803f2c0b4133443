// Published training runs as validation fixtures: one uniform CSV schema
// (tests/data/validation/README.md, "training_runs.csv"), a Qt-free reader, the evaluation of one
// row by the step model, and the fit of the frameworks' compute efficiencies over rows (Eigen
// least squares), with leave-one-source-out refits.
#pragma once

#include "clusterplan/sim/framework.h"
#include "clusterplan/sim/framework_factors.h"
#include "clusterplan/sim/plan.h"
#include "clusterplan/sim/result.h"
#include "clusterplan/sim/step_model.h"
#include "clusterplan/sim/workload.h"

#include <string>
#include <vector>

namespace cp::sim {

// What a row's `value` measures.
enum class RunMetric {
    step_time_s, // seconds per optimizer step
    tokens_per_s_per_device,
    samples_per_s,              // whole cluster
    model_tflops_per_device,    // no recompute counted, full s*s attention (Megatron convention)
    hardware_tflops_per_device, // recompute counted (Megatron's 96·B·s·l·h² formula)
};

struct ValidationRun {
    std::string id;
    std::string source; // one citation per source; the unit of leave-one-source-out
    Framework framework = Framework::megatron_core;
    Workload workload;
    Cluster cluster;
    Layout layout;
    Precision precision = Precision::bf16;
    bool micro_batch_searched = false;    // not published: best-throughput plan that fits
    bool virtual_stages_searched = false; // not published but interleaved: searched 1..8
    RunMetric metric = RunMetric::step_time_s;
    double measured = 0;
    std::string note;
    // false: a held-out source, predicted with the factors fitted on the other rows and never
    // fitted on itself (column `fit`), so its error stays an estimate for runs the model has not
    // seen.
    bool in_fit = true;
};

// Parses the CSV text (header row first). Throws std::runtime_error naming the row and column.
std::vector<ValidationRun> parse_validation_runs(const std::string& csv_text,
                                                 const std::string& origin);

struct RunPrediction {
    bool valid = false; // timed: a valid plan, or one predicted not to fit
    bool fits = false;  // the memory model says it fits
    PlanResult result;
    Layout layout;        // with searched fields filled
    double predicted = 0; // in the row's metric
    double error = 0;     // predicted / measured - 1
};

// Evaluates the row with `factors` (the built-in fitted table when null).
RunPrediction predict_run(const ValidationRun& run, const FactorTable* factors = nullptr);

// Fits one compute efficiency per (framework, generation, precision class) cell that has rows,
// and pooled cells per (framework, generation) and per framework, each source weighted equally
// (Eigen least squares on the relative step-time error, linearised, two Gauss-Newton passes).
// Held-out runs (`in_fit` false) are skipped.
FactorTable fit_framework_factors(const std::vector<ValidationRun>& runs);

// The runs with Transformer Engine's fused-attention share on Hopper set to `fraction`.
std::vector<ValidationRun> with_te_attention(std::vector<ValidationRun> runs, double fraction);
// Mean over sources of the runs' mean absolute error at that share, the framework factors
// refitted at it.
double te_attention_mean_error(const std::vector<ValidationRun>& runs, double fraction);
// Mean over sources of the runs' mean absolute error, the framework factors refitted over them
// (held-out runs are not counted).
double fitted_mean_error(const std::vector<ValidationRun>& runs);
// The runs with the compute slowdown beside a collective on Hopper set to `slowdown`.
std::vector<ValidationRun> with_overlap_slowdown(std::vector<ValidationRun> runs, double slowdown);
// The slowdown (OverlapContention::hopper_slowdown) with the lowest fitted_mean_error, searched
// over the bracket the published measurements set (overlap_contention.h).
double fit_hopper_overlap_slowdown(const std::vector<ValidationRun>& runs);
// The share (TeAttention::hopper_fraction) with the lowest such error, searched over the bracket
// the published kernel rates set (te_attention.h); held-out runs are not counted.
double fit_te_attention_fraction(const std::vector<ValidationRun>& runs);

// The metric's value from a plan result.
double metric_value(RunMetric metric, const PlanResult& result, int devices);
std::string_view enum_name(RunMetric metric);

} // namespace cp::sim
