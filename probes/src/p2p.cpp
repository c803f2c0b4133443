// `p2p`: GPU-to-GPU copies for every ordered pair, unidirectional (i->j) and bidirectional
// (i->j and j->i at once; bytes counted in both directions). Peer access is enabled where the
// topology allows it; otherwise the copy is staged by the driver and reported as such.
#include "common.h"

#include <algorithm>
#include <chrono>
#include <tuple>

namespace cp::probe {

void run_p2p(JsonWriter& w, const Context& c, RunReport& report) {
    report.ran("p2p");
    const Options& o = c.options;
    w.key("p2p").begin_object().field("unit", "GB/s").key("results").begin_array();
    if (c.devices().size() < 2) {
        w.end_array().field("note", "fewer than two GPUs: nothing to measure").end_object();
        report.skip("p2p", "fewer than two GPUs in this process");
        return;
    }
    const size_t bytes = o.quick ? (64u << 20) : (256u << 20);
    const int warmup = c.iterations().copy_warmup, iters = c.iterations().copy_timed;
    for (int src : c.devices()) {
        for (int dst : c.devices()) {
            if (src >= dst) continue;
            try {
                int can = 0;
                CP_CUDA(cudaDeviceCanAccessPeer(&can, src, dst));
                void *a = nullptr, *b = nullptr, *a2 = nullptr, *b2 = nullptr;
                cudaStream_t sa, sb;
                CP_CUDA(cudaSetDevice(src));
                if (can) {
                    cudaDeviceEnablePeerAccess(dst, 0);
                    cudaGetLastError(); // "already enabled" is fine
                }
                CP_CUDA(cudaMalloc(&a, bytes));
                CP_CUDA(cudaMalloc(&a2, bytes));
                CP_CUDA(cudaStreamCreate(&sa));
                CP_CUDA(cudaSetDevice(dst));
                if (can) {
                    cudaDeviceEnablePeerAccess(src, 0);
                    cudaGetLastError();
                }
                CP_CUDA(cudaMalloc(&b, bytes));
                CP_CUDA(cudaMalloc(&b2, bytes));
                CP_CUDA(cudaStreamCreate(&sb));
                progress(c, "p2p " + std::to_string(src) + " <-> " + std::to_string(dst));
                // Wall-clock over both streams (events cannot span two devices' streams).
                auto timed = [&](bool bidir) {
                    double best = 0;
                    for (int i = 0; i < warmup + iters; ++i) {
                        const auto t0 = std::chrono::steady_clock::now();
                        CP_CUDA(cudaMemcpyPeerAsync(b, dst, a, src, bytes, sa));
                        if (bidir) CP_CUDA(cudaMemcpyPeerAsync(a2, src, b2, dst, bytes, sb));
                        CP_CUDA(cudaStreamSynchronize(sa));
                        CP_CUDA(cudaStreamSynchronize(sb));
                        const double t =
                            std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
                                .count();
                        if (i >= warmup) best = best == 0 ? t : std::min(best, t);
                    }
                    return best;
                };
                const double uni = timed(false), bi = timed(true);
                for (auto [mode, moved, t] :
                     {std::tuple{"unidirectional", static_cast<double>(bytes), uni},
                      std::tuple{"bidirectional", 2.0 * static_cast<double>(bytes), bi}}) {
                    w.begin_object()
                        .field("src", src)
                        .field("dst", dst)
                        .field("mode", mode)
                        .field("peer_access", can != 0)
                        .field("bytes", moved)
                        .field("time_s", t)
                        .field("gbytes_per_s", moved / t / 1e9)
                        .end_object();
                }
                cudaStreamDestroy(sa);
                cudaStreamDestroy(sb);
                cudaFree(b);
                cudaFree(b2);
                CP_CUDA(cudaSetDevice(src));
                cudaFree(a);
                cudaFree(a2);
            } catch (const ProbeError& e) {
                report.fail("p2p",
                            std::to_string(src) + "->" + std::to_string(dst) + ": " + e.what());
            }
        }
    }
    w.end_array().end_object();
}

} // namespace cp::probe
