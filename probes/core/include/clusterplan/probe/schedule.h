// What the probe measures and how often: message sizes, warm-up and timed counts, buffer
// sizes, plus the conventions its results are reported in (nccl-tests bus bandwidth) and the
// statistics of timed samples. CUDA-free so the plan can be printed and tested anywhere.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace cp::probe {

// nccl-tests' bus-bandwidth factor (doc/PERFORMANCE.md): 2(n-1)/n for all-reduce, (n-1)/n for
// all-gather, reduce-scatter and all-to-all, 1 for broadcast, reduce and send/recv.
double busbw_factor(const std::string& collective, int ranks);

// The collectives the probe times, in order.
const std::vector<std::string>& probe_collectives();

// Message sizes from `min_bytes` doubling (x8 in quick runs) up to `max_bytes`, each a whole
// number of floats divisible across `ranks` (nccl-tests rounds the same way); no duplicates.
std::vector<std::size_t> nccl_sizes(double min_bytes, double max_bytes, bool quick, int ranks);

// Largest size whose send and receive buffers (plus 10 % for NCCL's own) fit in `free_bytes`,
// halving from `max_bytes`, never below `min_bytes`.
double nccl_max_bytes(double max_bytes, double min_bytes, double free_bytes);

struct Iterations {
    int nccl_warmup = 5, nccl_timed = 20;
    // mamf-finder's counts: 50 warm-up and 100 timed calls per GEMM shape for the first
    // heuristic's algorithm and for the best one; the other candidates are screened briefly.
    int gemm_warmup = 50, gemm_timed = 100;
    int gemm_screen_warmup = 3, gemm_screen_timed = 10;
    int membw_warmup = 5, membw_timed = 20;
    int copy_warmup = 2, copy_timed = 11; // pcie and p2p
};
// `timed` = --iters (nccl/membw), `quick` lowers everything for smoke runs (and says so).
Iterations plan_iterations(int timed, bool quick);

// Device-memory bandwidth array sizes, ascending: the largest is up to 4 GiB each of three
// arrays within 80 % of free memory, then up to two more a factor 4 smaller. A copy's fixed
// start and drain cost shrinks with size (an H200 copied 1 GiB at 3.9 TB/s and 4 GiB at 4.3 in
// tests/data/calibration/), so the figure is read at several sizes. Throws std::runtime_error
// when the largest is not at least kMembwL2Ratio x L2, where the cache would inflate the figure
// (three arrays of N: at most L2/3N of the traffic hits cache); smaller sizes stop there too.
inline constexpr double kMembwL2Ratio = 16.0; // <= 2 % of the traffic can be L2 hits
std::vector<std::size_t> membw_array_sizes(double free_bytes, double l2_bytes);

// Statistics of timed samples (seconds): mean, median, min, max.
struct SampleStats {
    double mean_s = 0, median_s = 0, min_s = 0, max_s = 0;
    int count = 0;
};
SampleStats sample_stats(std::vector<double> samples_s);

} // namespace cp::probe
