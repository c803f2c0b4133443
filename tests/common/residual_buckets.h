// Checks a committed residual-bucket table (prediction_interval.h) against one computed afresh
// from the fixtures, and prints the fresh table in the committed source's form, to paste when
// the fixtures or the model change.
#pragma once

#include "clusterplan/sim/prediction_interval.h"
#include "tolerance.h"

#include <cstdio>
#include <string>
#include <vector>

namespace cp::test {

// Same buckets in the same order: counts exactly, ratios within 0.5 %.
inline bool same_buckets(const std::vector<sim::ResidualBucket>& fresh,
                         const std::vector<sim::ResidualBucket>& committed) {
    if (fresh.size() != committed.size()) return false;
    for (std::size_t i = 0; i < fresh.size(); ++i) {
        const auto &a = fresh[i], &b = committed[i];
        const bool same = a.family == b.family && a.generation == b.generation &&
                          a.runs == b.runs && a.sources == b.sources &&
                          within_rel(a.ratio_p10, b.ratio_p10, 0.005) &&
                          within_rel(a.ratio_p90, b.ratio_p90, 0.005) &&
                          within_rel(a.ratio_min, b.ratio_min, 0.005) &&
                          within_rel(a.ratio_max, b.ratio_max, 0.005);
        if (!same) return false;
    }
    return true;
}

inline void print_buckets(const std::vector<sim::ResidualBucket>& fresh) {
    for (const auto& b : fresh)
        std::printf("        {\"%s\", G::%s, %d, %d, %.4f, %.4f, %.4f, %.4f},\n",
                    std::string(b.family).c_str(),
                    std::string(sim::enum_name(b.generation)).c_str(), b.runs, b.sources,
                    b.ratio_p10, b.ratio_p90, b.ratio_min, b.ratio_max);
}

} // namespace cp::test
