// CUDA-event timing helper: best (minimum) time of `iterations` runs after `warmup` runs.
#pragma once

#include "common.h"

#include <algorithm>

namespace cp::probe {

template <class Fn> double best_time_s(cudaStream_t stream, int warmup, int iterations, Fn&& fn) {
    for (int i = 0; i < warmup; ++i)
        fn();
    cudaEvent_t start, stop;
    CP_CUDA(cudaEventCreate(&start));
    CP_CUDA(cudaEventCreate(&stop));
    double best = 0;
    for (int i = 0; i < iterations; ++i) {
        CP_CUDA(cudaEventRecord(start, stream));
        fn();
        CP_CUDA(cudaEventRecord(stop, stream));
        CP_CUDA(cudaEventSynchronize(stop));
        float ms = 0;
        CP_CUDA(cudaEventElapsedTime(&ms, start, stop));
        const double t = ms * 1e-3;
        best = i == 0 ? t : std::min(best, t);
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    return best;
}

} // namespace cp::probe
