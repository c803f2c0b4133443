// Consistency of an nccl-tests row's printed bandwidths with its size and time (private to
// sim/src): a row whose algbw or busbw contradicts them is a corrupt or edited log.
#pragma once

#include <string>

namespace cp::sim::detail {

// One timing block of a printed row (out-of-place or in-place), as the tokens read.
struct PrintedTiming {
    std::string time_us, algbw, busbw;
    bool cpu_time = false; // the "cputime" column: bandwidths come from GPU time, not this one
    std::string block;     // "" or "in-place " in error messages
    // How errors name the bandwidths: text columns, or -J JSON fields ("out_of_place.alg_bw").
    const char* kind = "column";
    const char* algbw_name = "algbw";
    const char* busbw_name = "busbw";
};

// The shortest decimal that reads back as `value`: a JSON number's digits as written, less any
// trailing zeros (so its rounding allowance is never tighter than the writer's).
std::string shortest_decimal(double value);

// Half a unit in the last printed digit of a number token ("92.79" -> 0.005, "1.2e+04" -> 500).
double printed_half_unit(const std::string& token);

// Throws CalibrationInputError naming `at` (file and line) and the column when algbw is not
// size / time or busbw is not algbw times the collective's factor for `ranks`, within the
// rounding of the printed digits. ranks < 1: only collectives whose factor is 1 are checked.
void check_printed_bandwidths(double bytes, const PrintedTiming& t, const std::string& collective,
                              int ranks, const std::string& at);

} // namespace cp::sim::detail
