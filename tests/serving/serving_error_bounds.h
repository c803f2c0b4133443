// Per-source mean-error bounds of the serving validation: the 15 % target, or where the model
// does not reach it yet the level reached plus a margin, each with its known reason.
#pragma once

#include <string>

// The bound for `source`'s throughput figures (`throughput`) or its latency figures.
double mean_error_bound(const std::string& source, bool throughput);
