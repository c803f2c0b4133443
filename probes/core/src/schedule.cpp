#include "clusterplan/probe/schedule.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace cp::probe {

double busbw_factor(const std::string& collective, int ranks) {
    const double n = ranks;
    if (ranks < 1) return 1.0;
    if (collective == "all_reduce") return 2.0 * (n - 1.0) / n;
    if (collective == "all_gather" || collective == "reduce_scatter" || collective == "alltoall")
        return (n - 1.0) / n;
    return 1.0;
}

const std::vector<std::string>& probe_collectives() {
    static const std::vector<std::string> kCollectives = {
        "all_reduce", "all_gather", "reduce_scatter", "broadcast", "sendrecv"};
    return kCollectives;
}

std::vector<std::size_t> nccl_sizes(double min_bytes, double max_bytes, bool quick, int ranks) {
    std::vector<std::size_t> out;
    if (ranks < 1 || !(min_bytes > 0) || !(max_bytes >= min_bytes)) return out;
    const std::size_t unit = sizeof(float) * static_cast<std::size_t>(ranks);
    for (double b = min_bytes; b <= max_bytes; b *= quick ? 8 : 2) {
        const std::size_t bytes = static_cast<std::size_t>(b) / unit * unit;
        if (bytes == 0 || (!out.empty() && out.back() == bytes)) continue;
        out.push_back(bytes);
    }
    return out;
}

double nccl_max_bytes(double max_bytes, double min_bytes, double free_bytes) {
    double b = max_bytes;
    while (b > min_bytes && 2.2 * b > free_bytes)
        b /= 2;
    return std::max(b, min_bytes);
}

Iterations plan_iterations(int timed, bool quick) {
    Iterations it;
    it.nccl_timed = it.membw_timed = std::max(1, timed);
    if (quick) {
        it.nccl_warmup = it.membw_warmup = 2;
        it.nccl_timed = it.membw_timed = std::min(it.nccl_timed, 5);
        it.gemm_warmup = 10;
        it.gemm_timed = 20;
        it.gemm_screen_warmup = 1;
        it.gemm_screen_timed = 3;
        it.copy_warmup = 1;
        it.copy_timed = 3;
    }
    return it;
}

std::vector<std::size_t> membw_array_sizes(double free_bytes, double l2_bytes) {
    std::size_t largest = std::size_t{4} << 30;
    while (largest > (std::size_t{16} << 20) &&
           3.0 * static_cast<double>(largest) > 0.8 * free_bytes)
        largest /= 2;
    const double smallest_bytes = kMembwL2Ratio * l2_bytes;
    if (3.0 * static_cast<double>(largest) > 0.8 * free_bytes ||
        static_cast<double>(largest) < smallest_bytes)
        throw std::runtime_error("free device memory allows " + std::to_string(largest >> 20) +
                                 " MiB arrays, not the " +
                                 std::to_string(static_cast<long long>(kMembwL2Ratio)) + "x L2 (" +
                                 std::to_string(static_cast<long long>(l2_bytes) >> 20) +
                                 " MiB) needed to measure memory rather than cache");
    std::vector<std::size_t> sizes;
    for (std::size_t s = largest; sizes.size() < 3 && static_cast<double>(s) >= smallest_bytes;
         s /= 4)
        sizes.insert(sizes.begin(), s);
    return sizes;
}

SampleStats sample_stats(std::vector<double> s) {
    SampleStats st;
    if (s.empty()) return st;
    std::sort(s.begin(), s.end());
    st.count = static_cast<int>(s.size());
    st.min_s = s.front();
    st.max_s = s.back();
    st.mean_s = std::accumulate(s.begin(), s.end(), 0.0) / static_cast<double>(s.size());
    const std::size_t mid = s.size() / 2;
    st.median_s = s.size() % 2 ? s[mid] : 0.5 * (s[mid - 1] + s[mid]);
    return st;
}

} // namespace cp::probe
