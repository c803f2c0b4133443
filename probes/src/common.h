// Shared declarations of the probe: options, error handling, progress, per-section entry points.
#pragma once

#include "json_writer.h"

#include <cuda_runtime.h>
#include <stdexcept>
#include <string>
#include <vector>

namespace cp::probe {

// A probe section failed in a way worth reporting (recorded under "errors", run continues).
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

struct Options {
    std::vector<int> devices; // local GPUs to use
    int iterations = 20;
    int warmup = 5;
    double max_bytes = 1024.0 * 1024 * 1024; // NCCL/membw upper size (memory permitting)
    double min_bytes = 1024;
    bool quick = false; // fewer shapes/sizes (smoke runs)
    int nccl_timeout_s = 300;
    // Multi-process launch (from NCCL_COMM_ID/RANK/WORLD_SIZE, OMPI_COMM_WORLD_*, SLURM_*).
    int rank = 0;
    int world_size = 1;
    int local_rank = 0;
    std::string launcher = "single";
};

// Progress line on stderr, prefixed with the rank in multi-process runs.
void progress(const Options& o, const std::string& message);

// Each section writes `"<name>": {...}` into the open top-level object.
void write_info(JsonWriter& w, const Options& o);
void run_gemm(JsonWriter& w, const Options& o, std::vector<std::string>& errors);
void run_membw(JsonWriter& w, const Options& o, std::vector<std::string>& errors);
void run_pcie(JsonWriter& w, const Options& o, std::vector<std::string>& errors);
void run_p2p(JsonWriter& w, const Options& o, std::vector<std::string>& errors);
void run_nccl(JsonWriter& w, const Options& o, std::vector<std::string>& errors);

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

} // namespace cp::probe
