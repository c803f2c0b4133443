// Raw collective measurements as imported from nccl-tests (text or -J JSON), the validation
// CSV tables or a clusterplan-probe document, before any fitting.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace cp::sim {

// One nccl-tests row. Times are in microseconds and bandwidths in GB/s (1e9 bytes/s), the
// units nccl-tests prints; NaN where a column is absent (e.g. no in-place run).
struct CollectiveSample {
    double bytes = 0;
    double count = 0;
    std::string type;   // element type, e.g. "float"
    double time_us = 0; // out-of-place (or the only) time
    double algbw_gbytes_per_s = 0;
    double busbw_gbytes_per_s = 0;
    double in_place_time_us = 0; // NaN when not measured
    double in_place_algbw_gbytes_per_s = 0;
    double in_place_busbw_gbytes_per_s = 0;
    long long wrong = 0; // #wrong elements reported (-1 = not checked)
};

struct CollectiveTable {
    std::string collective; // "all_reduce", "all_gather", "reduce_scatter", "broadcast",
                            // "reduce", "sendrecv", "alltoall"
    int ranks = 0;
    int nodes = 1; // distinct hosts taking part
    std::vector<std::string> hosts;
    std::string device; // GPU name when the log says
    std::string nccl_version;
    std::string source_format;             // "nccl-tests-text", "nccl-tests-json", "csv", "probe"
    double avg_busbw_gbytes_per_s = 0;     // "# Avg bus bandwidth" line, 0 if absent
    std::vector<CollectiveSample> samples; // ascending bytes
};

// Bad calibration input: the message is one sentence naming file, line/field and reason.
class CalibrationInputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Canonical collective name from nccl-tests program names ("all_reduce_perf"), probe names or
// loose spellings ("allreduce", "AllReduce"); empty when unrecognised.
std::string canonical_collective(const std::string& name);

// nccl-tests' bus-bandwidth factor for `ranks` (doc/PERFORMANCE.md): 2(n-1)/n for all-reduce,
// (n-1)/n for all-gather, reduce-scatter and all-to-all, 1 for broadcast, reduce, send/recv.
double busbw_factor(const std::string& collective, int ranks);

} // namespace cp::sim
