// `membw`: device-memory bandwidth. Byte convention (STREAM's): bytes read + bytes written, so
// a copy of N bytes moves 2N and a triad a = b + s·c over N-byte arrays moves 3N. Also times
// cudaMemcpy device-to-device, which is what frameworks' tensor copies use. Arrays are checked
// to be at least kMembwL2Ratio x L2 (probes/core schedule.h) so the cache cannot inflate them.
#include "common.h"
#include "timing.h"

#include <algorithm>

namespace cp::probe {

namespace {

// Copy kernel, triad and cudaMemcpy over three arrays of `bytes`, one result row each.
void measure_size(JsonWriter& w, const Context& ctx, int dev, size_t bytes, int l2,
                  cudaStream_t s) {
    const Iterations& it = ctx.iterations();
    const size_t n4 = bytes / sizeof(float4);
    const DeviceBuffer a_buf(bytes), b_buf(bytes), c_buf(bytes);
    float4 *a = a_buf.as<float4>(), *b = b_buf.as<float4>(), *c = c_buf.as<float4>();
    fill_random(b, bytes / 4, ElemType::f32, 5, s);
    fill_random(c, bytes / 4, ElemType::f32, 6, s);
    progress(ctx, "membw device " + std::to_string(dev) + " (" + std::to_string(bytes >> 20) +
                      " MiB arrays)");
    const double t_copy =
        best_time_s(s, it.membw_warmup, it.membw_timed, [&] { copy_kernel(a, b, n4, s); });
    const double t_triad = best_time_s(s, it.membw_warmup, it.membw_timed,
                                       [&] { triad_kernel(a, b, c, 3.0f, n4, s); });
    const double t_memcpy = best_time_s(s, it.membw_warmup, it.membw_timed, [&] {
        CP_CUDA(cudaMemcpyAsync(a, b, bytes, cudaMemcpyDeviceToDevice, s));
    });
    auto row = [&](const char* kernel, double moved, double t) {
        w.begin_object()
            .field("device", dev)
            .field("kernel", kernel)
            .field("array_bytes", static_cast<double>(bytes))
            .field("l2_bytes", l2)
            .field("bytes", moved)
            .field("time_s", t)
            .field("gbytes_per_s", moved / t / 1e9)
            .end_object();
    };
    row("copy", 2.0 * static_cast<double>(bytes), t_copy);
    row("triad", 3.0 * static_cast<double>(bytes), t_triad);
    row("memcpy_d2d", 2.0 * static_cast<double>(bytes), t_memcpy);
}

} // namespace

void run_membw(JsonWriter& w, const Context& ctx, RunReport& report) {
    report.ran("membw");
    const Iterations& it = ctx.iterations();
    w.key("membw")
        .begin_object()
        .field("unit", "GB/s")
        .field("byte_convention", "bytes read + bytes written (copy 2N, triad 3N)")
        .field("warmup", it.membw_warmup)
        .field("iterations", it.membw_timed)
        .key("results")
        .begin_array();
    for (int dev : ctx.devices()) {
        try {
            CP_CUDA(cudaSetDevice(dev));
            size_t free_b = 0, total_b = 0;
            CP_CUDA(cudaMemGetInfo(&free_b, &total_b));
            int l2 = 0;
            CP_CUDA(cudaDeviceGetAttribute(&l2, cudaDevAttrL2CacheSize, dev));
            std::vector<size_t> sizes;
            try {
                sizes = membw_array_sizes(static_cast<double>(free_b), static_cast<double>(l2));
            } catch (const std::runtime_error& e) {
                throw ProbeError(e.what());
            }
            cudaStream_t s;
            CP_CUDA(cudaStreamCreate(&s));
            for (const size_t bytes : sizes)
                measure_size(w, ctx, dev, bytes, l2, s);
            cudaStreamDestroy(s);
        } catch (const ProbeError& e) {
            report.fail("membw", "device " + std::to_string(dev) + ": " + e.what());
        }
    }
    w.end_array().end_object();
}

} // namespace cp::probe
