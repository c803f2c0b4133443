// Reading step timings out of training logs. Each framework prints its own line; the keys
// below are the ones those frameworks print (Megatron-LM training_log, NeMo's progress bar and
// metrics line, DeepSpeed's ThroughputTimer and flops profiler, torchtitan's metrics line, tqdm
// as used by the Hugging Face Trainer). Lines are scanned with plain substring searches so a
// log of a long job parses in linear time.
#include "clusterplan/sim/job_log.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <string_view>

namespace cp::sim {
namespace {

// Drops ANSI colour/cursor sequences (torchtitan colours its metrics line).
std::string strip_ansi(std::string_view line) {
    std::string out;
    out.reserve(line.size());
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] == '\x1b' && i + 1 < line.size() && line[i + 1] == '[') {
            i += 2;
            while (i < line.size() && !(line[i] >= '@' && line[i] <= '~'))
                ++i;
            continue;
        }
        out += line[i];
    }
    return out;
}

// The number that follows `key` (after spaces, ':' or '='), thousands commas allowed.
std::optional<double> number_after(std::string_view line, std::string_view key) {
    const auto pos = line.find(key);
    if (pos == std::string_view::npos) return std::nullopt;
    std::size_t i = pos + key.size();
    while (i < line.size() &&
           (line[i] == ' ' || line[i] == ':' || line[i] == '=' || line[i] == '\t'))
        ++i;
    std::string digits;
    while (i < line.size() && digits.size() < 64) {
        const char c = line[i];
        if ((c >= '0' && c <= '9') || c == '.' || c == '-' || c == '+' || c == 'e' || c == 'E') {
            digits += c;
        } else if (c != ',' || digits.empty()) {
            break;
        }
        ++i;
    }
    if (digits.empty()) return std::nullopt;
    char* end = nullptr;
    const double v = std::strtod(digits.c_str(), &end);
    if (end == digits.c_str()) return std::nullopt;
    return v;
}

struct LineHit {
    JobLogFormat format;
    JobLogMeasure measure;
    std::optional<double> step;
    double value;
    std::optional<double> global_batch;
};

std::optional<LineHit> megatron(std::string_view l) {
    auto ms = number_after(l, "elapsed time per iteration (ms)");
    if (!ms) return std::nullopt;
    return LineHit{JobLogFormat::megatron, JobLogMeasure::step_time_s, number_after(l, "iteration"),
                   *ms / 1000.0, number_after(l, "global batch size")};
}

std::optional<LineHit> nemo(std::string_view l) {
    auto s = number_after(l, "train_step_timing in s");
    if (!s) return std::nullopt;
    return LineHit{JobLogFormat::nemo, JobLogMeasure::step_time_s, number_after(l, "global_step"),
                   *s, number_after(l, "global_batch_size")};
}

std::optional<LineHit> deepspeed(std::string_view l) {
    if (auto sps = number_after(l, "CurrSamplesPerSec"))
        return LineHit{JobLogFormat::deepspeed, JobLogMeasure::samples_per_s,
                       number_after(l, "global_step"), *sps, std::nullopt};
    // Flops profiler summary: "iter latency: 2.43 s" (or ms / us).
    const auto pos = l.find("iter latency");
    if (pos == std::string_view::npos) return std::nullopt;
    auto v = number_after(l, "iter latency");
    if (!v) return std::nullopt;
    const std::string_view rest = l.substr(pos);
    double scale = 1.0;
    if (rest.find(" ms") != std::string_view::npos) scale = 1e-3;
    if (rest.find(" us") != std::string_view::npos) scale = 1e-6;
    return LineHit{JobLogFormat::deepspeed, JobLogMeasure::step_time_s, std::nullopt, *v * scale,
                   std::nullopt};
}

std::optional<LineHit> torchtitan(std::string_view l) {
    if (l.find("step:") == std::string_view::npos) return std::nullopt;
    auto tps = number_after(l, "tps");
    if (!tps) return std::nullopt;
    return LineHit{JobLogFormat::torchtitan, JobLogMeasure::tokens_per_s_per_device,
                   number_after(l, "step"), *tps, std::nullopt};
}

// tqdm: "| 50/500 [01:40<15:00,  2.00s/it]" or "3.10it/s]".
std::optional<LineHit> tqdm(std::string_view l) {
    const auto close = l.rfind(']');
    const auto open = l.rfind('[', close);
    if (close == std::string_view::npos || open == std::string_view::npos) return std::nullopt;
    const std::string_view inside = l.substr(open + 1, close - open - 1);
    const bool per_it = inside.size() >= 4 && inside.substr(inside.size() - 4) == "s/it";
    const bool it_per = inside.size() >= 4 && inside.substr(inside.size() - 4) == "it/s";
    if (!per_it && !it_per) return std::nullopt;
    const auto comma = inside.rfind(',');
    if (comma == std::string_view::npos) return std::nullopt;
    auto rate = number_after(inside.substr(comma + 1), "");
    // The step count is "n/total" just before the bracket.
    const std::string_view head = l.substr(0, open);
    const auto slash = head.rfind('/');
    if (!rate || slash == std::string_view::npos) return std::nullopt;
    std::size_t b = slash;
    while (b > 0 && head[b - 1] >= '0' && head[b - 1] <= '9')
        --b;
    if (b == slash) return std::nullopt;
    const double step = std::strtod(std::string(head.substr(b, slash - b)).c_str(), nullptr);
    const double seconds = per_it ? *rate : (*rate > 0 ? 1.0 / *rate : 0.0);
    return LineHit{JobLogFormat::hf_trainer, JobLogMeasure::step_time_s, step, seconds,
                   std::nullopt};
}

std::optional<LineHit> hf_summary(std::string_view l) {
    auto sps = number_after(l, "'train_samples_per_second'");
    if (!sps) sps = number_after(l, "\"train_samples_per_second\"");
    if (!sps) return std::nullopt;
    return LineHit{JobLogFormat::hf_trainer, JobLogMeasure::samples_per_s, std::nullopt, *sps,
                   std::nullopt};
}

[[noreturn]] void fail(const std::string& origin, const std::string& reason) {
    throw JobLogError(origin + ": " + reason);
}

std::string fmt_number(double v) {
    std::string s = std::to_string(v);
    s.erase(s.find_last_not_of('0') + 1);
    if (!s.empty() && s.back() == '.') s.pop_back();
    return s;
}

bool csv_header(std::string_view line) {
    return line.find("step") != std::string_view::npos &&
           line.find("step_time_s") != std::string_view::npos;
}

// Generic CSV "step,step_time_s" (extra columns allowed, in any order).
JobLog parse_csv(const std::vector<std::string>& lines, const std::string& origin) {
    JobLog log;
    std::vector<std::string> cols;
    std::size_t at = 0;
    for (; at < lines.size() && cols.empty(); ++at) {
        if (lines[at].find_first_not_of(" \t") == std::string::npos) continue;
        std::string cell;
        for (char c : lines[at] + ",") {
            if (c == ',') {
                cell.erase(0, cell.find_first_not_of(" \t\""));
                cell.erase(cell.find_last_not_of(" \t\"") + 1);
                cols.push_back(cell);
                cell.clear();
            } else {
                cell += c;
            }
        }
    }
    const auto col = [&](const std::string& name) {
        return static_cast<std::size_t>(std::find(cols.begin(), cols.end(), name) - cols.begin());
    };
    const std::size_t step_col = col("step"), time_col = col("step_time_s");
    if (step_col >= cols.size() || time_col >= cols.size())
        fail(origin, "CSV header must name the columns step and step_time_s");
    for (; at < lines.size(); ++at) {
        if (lines[at].find_first_not_of(" \t") == std::string::npos) continue;
        std::vector<std::string> cells;
        std::string cell;
        for (char c : lines[at] + ",") {
            if (c == ',') {
                cells.push_back(cell);
                cell.clear();
            } else {
                cell += c;
            }
        }
        if (cells.size() <= std::max(step_col, time_col))
            fail(origin, "line " + std::to_string(at + 1) + " has fewer columns than its header");
        char* e1 = nullptr;
        char* e2 = nullptr;
        const double step = std::strtod(cells[step_col].c_str(), &e1);
        const double t = std::strtod(cells[time_col].c_str(), &e2);
        if (e1 == cells[step_col].c_str() || e2 == cells[time_col].c_str())
            fail(origin, "line " + std::to_string(at + 1) + " is not a number in step/step_time_s");
        log.samples.push_back({static_cast<long>(step), t});
    }
    return log;
}

std::vector<std::string> split_lines(const std::string& text) {
    std::vector<std::string> lines;
    std::string cur;
    for (char c : text) {
        // tqdm redraws with '\r': each redraw is its own line.
        if (c == '\n' || c == '\r') {
            lines.push_back(cur);
            cur.clear();
        } else {
            cur += c;
        }
    }
    if (!cur.empty()) lines.push_back(cur);
    return lines;
}

void check_values(const JobLog& log, const std::string& origin) {
    for (const auto& s : log.samples)
        if (!std::isfinite(s.value) || s.value <= 0 || s.value > 1e12)
            fail(origin, "step " + std::to_string(s.step) + " has an impossible " +
                             job_log_measure_name(log.measure) + " of " + fmt_number(s.value));
}

} // namespace

JobLog parse_job_log(const std::string& text, const std::string& origin) {
    const std::vector<std::string> lines = split_lines(text);
    const auto first = std::find_if(lines.begin(), lines.end(), [](const std::string& l) {
        return l.find_first_not_of(" \t") != std::string::npos;
    });
    if (first != lines.end() && csv_header(*first)) {
        JobLog log = parse_csv(lines, origin);
        if (log.samples.empty()) fail(origin, "the CSV has a header but no step rows");
        check_values(log, origin);
        return log;
    }

    JobLog log;
    std::optional<JobLogFormat> format;
    std::optional<LineHit> summary;
    long implicit_step = 0;
    for (std::size_t n = 0; n < lines.size(); ++n) {
        const std::string line = strip_ansi(lines[n]);
        std::optional<LineHit> hit = megatron(line);
        if (!hit) hit = nemo(line);
        if (!hit) hit = deepspeed(line);
        if (!hit) hit = torchtitan(line);
        if (!hit) hit = tqdm(line);
        if (!hit) {
            if (auto s = hf_summary(line)) summary = s;
            continue;
        }
        if (format && *format != hit->format)
            fail(origin, std::string("mixes ") + job_log_format_name(*format) + " and " +
                             job_log_format_name(hit->format) + " step lines (line " +
                             std::to_string(n + 1) + "): import one job's log at a time");
        if (!log.samples.empty() && hit->measure != log.measure)
            fail(origin,
                 "mixes step times and throughput lines (line " + std::to_string(n + 1) + ")");
        format = hit->format;
        log.format = hit->format;
        log.measure = hit->measure;
        const long step = hit->step ? static_cast<long>(*hit->step) : ++implicit_step;
        if (!log.samples.empty()) {
            const long prev = log.samples.back().step;
            if (step < prev)
                fail(origin, "holds more than one run: step " + std::to_string(step) +
                                 " follows step " + std::to_string(prev) + " (line " +
                                 std::to_string(n + 1) + ")");
            if (step == prev) { // a progress bar redrawn at the same step
                log.samples.back().value = hit->value;
                continue;
            }
        }
        if (hit->global_batch) {
            const long gb = static_cast<long>(*hit->global_batch);
            if (log.global_batch && *log.global_batch != gb)
                fail(origin,
                     "the global batch size changes from " + std::to_string(*log.global_batch) +
                         " to " + std::to_string(gb) + " (line " + std::to_string(n + 1) +
                         "; batch ramp-up or mixed runs): import a stretch at one batch size");
            log.global_batch = gb;
        }
        log.samples.push_back({step, hit->value});
    }
    if (log.samples.empty() && summary) {
        log.format = JobLogFormat::hf_trainer;
        log.measure = summary->measure;
        log.samples.push_back({1, summary->value});
        log.summary_only = true;
    }
    if (log.samples.empty())
        fail(origin, "no step timing found (expected Megatron 'elapsed time per iteration (ms)', "
                     "NeMo 'train_step_timing in s', DeepSpeed 'CurrSamplesPerSec', torchtitan "
                     "'tps', a tqdm s/it bar, Hugging Face 'train_samples_per_second', or a CSV "
                     "with step,step_time_s)");
    check_values(log, origin);
    return log;
}

JobLogSummary summarize_job_log(const JobLog& log) {
    JobLogSummary s;
    s.steps_total = static_cast<int>(log.samples.size());
    const int warmup = std::max(2, (s.steps_total + 9) / 10);
    s.steps_skipped = std::clamp(s.steps_total - 3, 0, warmup);
    std::vector<double> v;
    for (std::size_t i = static_cast<std::size_t>(s.steps_skipped); i < log.samples.size(); ++i)
        v.push_back(log.samples[i].value);
    s.steps_used = static_cast<int>(v.size());
    std::sort(v.begin(), v.end());
    // Linear interpolation between order statistics (the "type 7" quantile).
    const auto quantile = [&](double q) {
        const double pos = q * static_cast<double>(v.size() - 1);
        const auto lo = static_cast<std::size_t>(std::floor(pos));
        const std::size_t hi = std::min(lo + 1, v.size() - 1);
        return v[lo] + (pos - static_cast<double>(lo)) * (v[hi] - v[lo]);
    };
    if (!v.empty()) {
        s.median = quantile(0.5);
        s.p10 = quantile(0.1);
        s.p90 = quantile(0.9);
    }
    return s;
}

const char* job_log_format_name(JobLogFormat format) {
    switch (format) {
    case JobLogFormat::megatron:
        return "megatron";
    case JobLogFormat::nemo:
        return "nemo";
    case JobLogFormat::deepspeed:
        return "deepspeed";
    case JobLogFormat::torchtitan:
        return "torchtitan";
    case JobLogFormat::hf_trainer:
        return "hf-trainer";
    case JobLogFormat::csv:
        return "csv";
    }
    return "?";
}

const char* job_log_measure_name(JobLogMeasure measure) {
    switch (measure) {
    case JobLogMeasure::step_time_s:
        return "step time (s)";
    case JobLogMeasure::samples_per_s:
        return "samples/s";
    case JobLogMeasure::tokens_per_s_per_device:
        return "tokens/s per device";
    }
    return "?";
}

} // namespace cp::sim
