// Device kernels used by the probes: random fill, STREAM-style copy/triad and result checks.
#include "common.h"

#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

namespace cp::probe {
namespace {

__device__ inline float hash_uniform(size_t i, unsigned seed) {
    // splitmix64-style hash -> uniform in [-1, 1): cheap, stateless, reproducible per element.
    unsigned long long z =
        (static_cast<unsigned long long>(i) + 0x9E3779B97F4A7C15ull * (seed + 1ull));
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    z ^= z >> 31;
    return static_cast<float>(z >> 40) * (2.0f / 16777216.0f) - 1.0f;
}

template <class T> __device__ inline T from_float(float v);
template <> __device__ inline float from_float<float>(float v) {
    return v;
}
template <> __device__ inline __half from_float<__half>(float v) {
    return __float2half(v);
}
template <> __device__ inline __nv_bfloat16 from_float<__nv_bfloat16>(float v) {
    return __float2bfloat16(v);
}
template <> __device__ inline __nv_fp8_e4m3 from_float<__nv_fp8_e4m3>(float v) {
    return __nv_fp8_e4m3(v);
}

template <class T> __global__ void fill_kernel(T* data, size_t count, unsigned seed) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<size_t>(gridDim.x) * blockDim.x)
        data[i] = from_float<T>(hash_uniform(i, seed));
}

__global__ void constant_kernel(float* data, size_t count, float value) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<size_t>(gridDim.x) * blockDim.x)
        data[i] = value;
}

__global__ void copy4(float4* __restrict__ dst, const float4* __restrict__ src, size_t n) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<size_t>(gridDim.x) * blockDim.x)
        dst[i] = src[i];
}

__global__ void triad4(float4* __restrict__ a, const float4* __restrict__ b,
                       const float4* __restrict__ c, float s, size_t n) {
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < n;
         i += static_cast<size_t>(gridDim.x) * blockDim.x) {
        const float4 x = b[i], y = c[i];
        a[i] = make_float4(x.x + s * y.x, x.y + s * y.y, x.z + s * y.z, x.w + s * y.w);
    }
}

__global__ void mismatch_kernel(const float* data, size_t count, float expected, float tol,
                                unsigned long long* bad) {
    unsigned long long local = 0;
    for (size_t i = blockIdx.x * static_cast<size_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<size_t>(gridDim.x) * blockDim.x)
        local += fabsf(data[i] - expected) > tol;
    if (local) atomicAdd(bad, local);
}

unsigned grid_for(size_t n) {
    // Enough blocks to fill any current GPU; the loops are grid-stride.
    const size_t blocks = (n + 255) / 256;
    return static_cast<unsigned>(blocks < 4096 ? (blocks ? blocks : 1) : 4096);
}

} // namespace

void fill_random(void* data, size_t count, ElemType type, unsigned seed, cudaStream_t stream) {
    const unsigned g = grid_for(count);
    switch (type) {
    case ElemType::f32:
        fill_kernel<<<g, 256, 0, stream>>>(static_cast<float*>(data), count, seed);
        break;
    case ElemType::f16:
        fill_kernel<<<g, 256, 0, stream>>>(static_cast<__half*>(data), count, seed);
        break;
    case ElemType::bf16:
        fill_kernel<<<g, 256, 0, stream>>>(static_cast<__nv_bfloat16*>(data), count, seed);
        break;
    case ElemType::fp8e4m3:
        fill_kernel<<<g, 256, 0, stream>>>(static_cast<__nv_fp8_e4m3*>(data), count, seed);
        break;
    }
    CP_CUDA(cudaGetLastError());
}

void fill_constant_f32(float* data, size_t count, float value, cudaStream_t stream) {
    constant_kernel<<<grid_for(count), 256, 0, stream>>>(data, count, value);
    CP_CUDA(cudaGetLastError());
}

void copy_kernel(float4* dst, const float4* src, size_t n4, cudaStream_t stream) {
    copy4<<<grid_for(n4), 256, 0, stream>>>(dst, src, n4);
    CP_CUDA(cudaGetLastError());
}

void triad_kernel(float4* a, const float4* b, const float4* c, float scalar, size_t n4,
                  cudaStream_t stream) {
    triad4<<<grid_for(n4), 256, 0, stream>>>(a, b, c, scalar, n4);
    CP_CUDA(cudaGetLastError());
}

unsigned long long count_mismatches(const float* data, size_t count, float expected, float tol,
                                    cudaStream_t stream) {
    unsigned long long* bad = nullptr;
    CP_CUDA(cudaMallocAsync(&bad, sizeof(unsigned long long), stream));
    CP_CUDA(cudaMemsetAsync(bad, 0, sizeof(unsigned long long), stream));
    mismatch_kernel<<<grid_for(count), 256, 0, stream>>>(data, count, expected, tol, bad);
    CP_CUDA(cudaGetLastError());
    unsigned long long host = 0;
    CP_CUDA(cudaMemcpyAsync(&host, bad, sizeof host, cudaMemcpyDeviceToHost, stream));
    CP_CUDA(cudaFreeAsync(bad, stream));
    CP_CUDA(cudaStreamSynchronize(stream));
    return host;
}

} // namespace cp::probe
