// Shared declarations of the probe's CUDA side: the run context, error handling, progress and
// per-section entry points. Everything decided without a GPU (launcher layout, devices, sizes,
// iteration counts, result assembly) lives in clusterplan_probe_core (probes/core).
#pragma once

#include "clusterplan/probe/json_writer.h"
#include "clusterplan/probe/options.h"
#include "clusterplan/probe/report.h"

#include <cuda_runtime.h>
#include <stdexcept>
#include <string>
#include <vector>

namespace cp::probe {

// A probe section failed in a way worth reporting (recorded in the section, run continues).
class ProbeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

#define CP_CUDA(call)                                                                              \
    do {                                                                                           \
        const cudaError_t cp_e_ = (call);                                                          \
        if (cp_e_ != cudaSuccess)                                                                  \
            throw ::cp::probe::ProbeError(std::string(#call) + ": " + cudaGetErrorString(cp_e_));  \
    } while (0)

struct Context {
    Options options;           // the command line
    RunPlan plan;              // launcher layout, devices, iteration counts
    std::string nccl_log_path; // NCCL's INIT/NET log, read for the transport ("" = none)
    const std::vector<int>& devices() const { return plan.devices.devices; }
    const Iterations& iterations() const { return plan.iterations; }
    int rank() const { return plan.launch.rank; }
};

// Progress line on stderr, prefixed with the rank in multi-process runs.
void progress(const Context& c, const std::string& message);

// Each section writes `"<name>": {...}` into the open top-level object and records its outcome.
void write_info(JsonWriter& w, const Context& c, RunReport& report);
void run_gemm(JsonWriter& w, const Context& c, RunReport& report);
void run_membw(JsonWriter& w, const Context& c, RunReport& report);
void run_pcie(JsonWriter& w, const Context& c, RunReport& report);
void run_p2p(JsonWriter& w, const Context& c, RunReport& report);
// Returns false when a communicator initialisation is stuck on a helper thread: the process
// must then end with _Exit once its document is out.
bool run_nccl(JsonWriter& w, const Context& c, RunReport& report);

// Device kernels (kernels.cu).
enum class ElemType { f32, f16, bf16, fp8e4m3 };
void fill_random(void* data, size_t count, ElemType type, unsigned seed, cudaStream_t stream);
void fill_constant_f32(float* data, size_t count, float value, cudaStream_t stream);
void copy_kernel(float4* dst, const float4* src, size_t n4, cudaStream_t stream);
void triad_kernel(float4* a, const float4* b, const float4* c, float scalar, size_t n4,
                  cudaStream_t stream);
// Number of elements of `data` (first `count`) that differ from `expected` by more than tol.
unsigned long long count_mismatches(const float* data, size_t count, float expected, float tol,
                                    cudaStream_t stream);

// Device memory freed when it goes out of scope, so a section that throws midway leaves the GPU's
// memory to the sections after it.
struct DeviceBuffer {
    void* p = nullptr;
    explicit DeviceBuffer(size_t bytes) { CP_CUDA(cudaMalloc(&p, bytes)); }
    ~DeviceBuffer() { cudaFree(p); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
    template <class T> T* as() const { return static_cast<T*>(p); }
};

} // namespace cp::probe
