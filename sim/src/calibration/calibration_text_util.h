// Small helpers shared by the calibration parsers (private to sim/src).
#pragma once

#include "clusterplan/sim/calibration_samples.h"
#include "clusterplan/sim/scenario_limits.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace cp::sim::detail {

inline std::vector<std::string> split_ws(std::string_view line) {
    std::vector<std::string> out;
    std::istringstream in{std::string(line)};
    for (std::string tok; in >> tok;)
        out.push_back(tok);
    return out;
}

inline std::vector<std::string_view> split_lines(std::string_view text) {
    std::vector<std::string_view> lines;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        lines.push_back(line);
        if (end == text.size()) break;
        pos = end + 1;
    }
    return lines;
}

// Whole-token number; false for trailing junk, empty, inf/nan.
inline bool parse_number(const std::string& tok, double& out) {
    if (tok.empty()) return false;
    const char* begin = tok.c_str();
    char* end = nullptr;
    errno = 0;
    out = std::strtod(begin, &end);
    return end == begin + tok.size() && errno == 0 && std::isfinite(out);
}

inline std::string fmt_line(const std::string& source, std::size_t line_no) {
    return source + " line " + std::to_string(line_no);
}

// "22703" -> "2.27.3" (NCCL_VERSION_CODE since 2.9: major*10000 + minor*100 + patch).
inline std::string nccl_version_from_code(long long code) {
    if (code <= 0) return "";
    if (code >= 10000)
        return std::to_string(code / 10000) + "." + std::to_string((code / 100) % 100) + "." +
               std::to_string(code % 100);
    return std::to_string(code / 1000) + "." + std::to_string((code / 100) % 10) + "." +
           std::to_string(code % 100);
}

// Ranks from the measured busbw/algbw ratio, 0 when the collective's factor is 1 or the
// ratio is unusable.
inline int ranks_from_ratio(const std::string& collective, double ratio) {
    double n = 0;
    if (collective == "all_reduce" && ratio < 2.0)
        n = 2.0 / (2.0 - ratio);
    else if ((collective == "all_gather" || collective == "reduce_scatter" ||
              collective == "alltoall") &&
             ratio < 1.0)
        n = 1.0 / (1.0 - ratio);
    if (!(n >= 1.5) || n > 1e6) return 0;
    return static_cast<int>(std::lround(n));
}

// Sorts by size and rejects duplicate sizes, fractional sizes and empty tables.
inline void finish_table(CollectiveTable& t, const std::string& source) {
    if (t.samples.empty())
        throw CalibrationInputError(source + ": no measurement rows found (expected nccl-tests "
                                             "rows of size, count, type, time, algbw, busbw)");
    // A message is whole bytes; a fractional size (a denormal 1.7e-313 was found by fuzzing)
    // made the alpha-beta fit return negative times.
    for (const CollectiveSample& s : t.samples) {
        if (s.bytes != std::floor(s.bytes))
            throw CalibrationInputError(source + ": size " + std::to_string(s.bytes) +
                                        " is not a whole number of bytes");
        // No collective moves a petabyte in one message: a larger size is a corrupt row.
        if (!(s.bytes <= 1125899906842624.0))
            throw CalibrationInputError(source + ": a size beyond 2^50 bytes is beyond any "
                                                 "collective (a corrupt row)");
        // Size over time is the algorithmic bandwidth, at most the fastest link's (NVLink 5,
        // 1,800 GB/s per GPU; limits::kMaxGbytesPerS leaves 55x): a time of 1e-16 us was
        // accepted and stored a fit of 1e19 GB/s.
        for (const double t_us : {s.time_us, s.in_place_time_us})
            if (t_us > 0 && s.bytes / (t_us * 1e3) > limits::kMaxGbytesPerS) {
                std::ostringstream why;
                why << source << ": size " << static_cast<long long>(s.bytes) << " bytes in "
                    << t_us << " us is beyond any link's bandwidth (at most 1e5 GB/s): a corrupt "
                    << "row";
                throw CalibrationInputError(why.str());
            }
    }
    std::sort(
        t.samples.begin(), t.samples.end(),
        [](const CollectiveSample& a, const CollectiveSample& b) { return a.bytes < b.bytes; });
    for (std::size_t i = 1; i < t.samples.size(); ++i) {
        if (t.samples[i].bytes == t.samples[i - 1].bytes)
            // Sizes beyond long long are printed as doubles: that cast is undefined (fuzzing).
            throw CalibrationInputError(
                source + ": size " +
                (t.samples[i].bytes < 9.0e18
                     ? std::to_string(static_cast<long long>(t.samples[i].bytes))
                     : std::to_string(t.samples[i].bytes)) +
                " bytes appears twice; import one run per file");
    }
    std::set<std::string> hosts(t.hosts.begin(), t.hosts.end());
    t.hosts.assign(hosts.begin(), hosts.end());
    if (!t.hosts.empty()) t.nodes = static_cast<int>(t.hosts.size());
}

} // namespace cp::sim::detail
