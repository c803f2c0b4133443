// nccl-tests prints algbw = size / time and busbw = algbw x a per-collective factor
// (NVIDIA/nccl-tests@a0b82b2 doc/PERFORMANCE.md; src/*.cu *GetBw): all_reduce 2(n-1)/n,
// all_gather, reduce_scatter and alltoall (n-1)/n, broadcast, reduce and sendrecv 1. Each
// number is printed with at most 2 decimals in a 6- or 7-wide column (src/util.cu getFloatStr),
// so the checks allow the rounding of the digits actually printed.
#include "calibration_printed_bw.h"

#include "calibration_text_util.h"
#include "clusterplan/sim/calibration_import.h"

#include <charconv>
#include <cmath>
#include <sstream>
#include <system_error>

namespace cp::sim::detail {
namespace {

bool factor_needs_ranks(const std::string& collective) {
    return collective == "all_reduce" || collective == "all_gather" ||
           collective == "reduce_scatter" || collective == "alltoall";
}

} // namespace

std::string shortest_decimal(double value) {
    // Fixed notation of any finite double fits: 309 integer digits, or 0. and 1074 decimals at
    // most for a subnormal (whose shortest form stops at 324).
    char buf[512];
    const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value, std::chars_format::fixed);
    return ec == std::errc{} ? std::string(buf, end) : std::string();
}

double printed_half_unit(const std::string& token) {
    const std::size_t e = token.find_first_of("eE");
    const std::string mantissa = token.substr(0, e);
    const std::size_t dot = mantissa.find('.');
    const int decimals = dot == std::string::npos ? 0 : int(mantissa.size() - dot - 1);
    int exponent = 0;
    if (e != std::string::npos) {
        double v = 0;
        if (parse_number(token.substr(e + 1), v)) exponent = int(v);
    }
    return 0.5 * std::pow(10.0, exponent - decimals);
}

void check_printed_bandwidths(double bytes, const PrintedTiming& t, const std::string& collective,
                              int ranks, const std::string& at) {
    double time_us = 0, algbw = 0, busbw = 0;
    if (!parse_number(t.time_us, time_us) || !parse_number(t.algbw, algbw) ||
        !parse_number(t.busbw, busbw) || !(time_us > 0))
        return; // the field checks name these
    const double alg_half = printed_half_unit(t.algbw);
    // A relative slack of 1e-9 absorbs the binary representation of the printed decimals.
    if (!t.cpu_time) {
        const double expected = bytes / (time_us * 1e3); // bytes / ns = GB/s
        const double slack =
            alg_half + expected * printed_half_unit(t.time_us) / time_us + 1e-9 * expected;
        if (std::fabs(algbw - expected) > slack) {
            std::ostringstream why;
            why << at << ": " << t.kind << " '" << t.block << t.algbw_name << "' is " << t.algbw
                << " GB/s but size / time is " << expected << " GB/s ("
                << static_cast<long long>(bytes) << " bytes in " << t.time_us << " us)";
            if (collective == "all_gather" || collective == "reduce_scatter")
                why << "; nccl-tests before 2020-06 (commit ec1b5e2) printed this collective's "
                       "algbw as size x (n-1)/n / time: rerun it with a current nccl-tests";
            throw CalibrationInputError(why.str());
        }
    }
    if (ranks < 1 && factor_needs_ranks(collective)) return;
    const double factor = busbw_factor(collective, ranks);
    const double expected = algbw * factor;
    if (std::fabs(busbw - expected) >
        printed_half_unit(t.busbw) + factor * alg_half + 1e-9 * expected) {
        std::ostringstream why;
        why << at << ": " << t.kind << " '" << t.block << t.busbw_name << "' is " << t.busbw
            << " GB/s but " << t.block << t.algbw_name << " " << t.algbw << " x " << collective
            << "'s bus factor";
        if (factor_needs_ranks(collective)) why << " for " << ranks << " ranks";
        why << " (" << factor << ") is " << expected << " GB/s";
        throw CalibrationInputError(why.str());
    }
}

} // namespace cp::sim::detail
