// `pcie`: host<->device copies from/to pinned host memory, per GPU (best of N).
#include "common.h"
#include "timing.h"

namespace cp::probe {

void run_pcie(JsonWriter& w, const Context& c, RunReport& report) {
    report.ran("pcie");
    const Options& o = c.options;
    w.key("pcie")
        .begin_object()
        .field("unit", "GB/s")
        .field("host_memory", "pinned (cudaMallocHost)")
        .key("results")
        .begin_array();
    const size_t bytes = o.quick ? (64u << 20) : (256u << 20);
    for (int dev : c.devices()) {
        try {
            CP_CUDA(cudaSetDevice(dev));
            void* host = nullptr;
            void* devbuf = nullptr;
            CP_CUDA(cudaMallocHost(&host, bytes));
            CP_CUDA(cudaMalloc(&devbuf, bytes));
            cudaStream_t s;
            CP_CUDA(cudaStreamCreate(&s));
            progress(c, "pcie device " + std::to_string(dev));
            const double h2d =
                best_time_s(s, c.iterations().copy_warmup, c.iterations().copy_timed, [&] {
                    CP_CUDA(cudaMemcpyAsync(devbuf, host, bytes, cudaMemcpyHostToDevice, s));
                });
            const double d2h =
                best_time_s(s, c.iterations().copy_warmup, c.iterations().copy_timed, [&] {
                    CP_CUDA(cudaMemcpyAsync(host, devbuf, bytes, cudaMemcpyDeviceToHost, s));
                });
            for (auto [dir, t] : {std::pair{"h2d", h2d}, std::pair{"d2h", d2h}}) {
                w.begin_object()
                    .field("device", dev)
                    .field("direction", dir)
                    .field("bytes", static_cast<double>(bytes))
                    .field("time_s", t)
                    .field("gbytes_per_s", static_cast<double>(bytes) / t / 1e9)
                    .end_object();
            }
            cudaStreamDestroy(s);
            cudaFree(devbuf);
            cudaFreeHost(host);
        } catch (const ProbeError& e) {
            report.fail("pcie", "device " + std::to_string(dev) + ": " + e.what());
        }
    }
    w.end_array().end_object();
}

} // namespace cp::probe
