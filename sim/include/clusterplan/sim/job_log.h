// Step timings read from a real training job's log, for calibrating the model to that job:
// Megatron-LM / Megatron-Core, NeMo, DeepSpeed, torchtitan, Hugging Face Trainer (tqdm and its
// closing metrics) and a generic `step,step_time_s` CSV (PyTorch Lightning, custom loops).
#pragma once

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cp::sim {

enum class JobLogFormat { megatron, nemo, deepspeed, torchtitan, hf_trainer, csv };

// What the log's lines measure. Rates become step times only with the scenario's batch and
// device count, so the calibration converts them, not the parser.
enum class JobLogMeasure {
    step_time_s,            // seconds per optimizer step (Megatron, NeMo, CSV, tqdm s/it)
    samples_per_s,          // global samples per second (DeepSpeed, HF's closing metrics)
    tokens_per_s_per_device // torchtitan's `tps`
};

struct JobLogSample {
    long step = 0;
    double value = 0; // in the unit of JobLog::measure
};

struct JobLog {
    JobLogFormat format = JobLogFormat::csv;
    JobLogMeasure measure = JobLogMeasure::step_time_s;
    std::vector<JobLogSample> samples; // in log order
    std::optional<long> global_batch;  // when the log states it (Megatron)
    bool summary_only = false;         // one closing figure, warm-up included (HF train_*)
};

// The robust figure of a log: warm-up steps skipped (the first 10 %, at least 2 and only while
// 3 remain: allocator, autotuning and compilation run in the first steps), median and the 10th
// and 90th percentiles of the rest.
struct JobLogSummary {
    int steps_total = 0;
    int steps_skipped = 0;
    int steps_used = 0;
    double median = 0;
    double p10 = 0;
    double p90 = 0;
};

class JobLogError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Parses a log's text. Throws JobLogError naming `origin` when no step line is found, when the
// log mixes formats or runs (iterations restart, the global batch changes) or holds an
// impossible value.
JobLog parse_job_log(const std::string& text, const std::string& origin);
JobLogSummary summarize_job_log(const JobLog& log);
const char* job_log_format_name(JobLogFormat format);
const char* job_log_measure_name(JobLogMeasure measure);

} // namespace cp::sim
