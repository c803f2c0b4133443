// `gemm`: dense matmul throughput per precision with cuBLASLt. For each shape: random inputs,
// every algorithm the heuristic proposes (up to 8) is timed with CUDA events after a warm-up,
// L2 is flushed before each timed call, and the best algorithm's time is reported.
// FLOPs = 2·m·n·k. Layout "TN" (A transposed), which every precision incl. FP8 supports.
#include "common.h"

#include <algorithm>
#include <cublasLt.h>
#include <memory>

namespace cp::probe {
namespace {

#define CP_LT(call)                                                                                \
    do {                                                                                           \
        const cublasStatus_t cp_s_ = (call);                                                       \
        if (cp_s_ != CUBLAS_STATUS_SUCCESS)                                                        \
            throw ProbeError(std::string(#call) + ": cuBLAS status " +                             \
                             std::to_string(static_cast<int>(cp_s_)));                             \
    } while (0)

struct Precision {
    const char* name;
    cudaDataType_t ab, cd;
    cublasComputeType_t compute;
    ElemType fill;
    size_t ab_bytes, cd_bytes;
    int min_cc; // major*10+minor
};

const Precision kPrecisions[] = {
    {"fp32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F, ElemType::f32, 4, 4, 0},
    {"tf32", CUDA_R_32F, CUDA_R_32F, CUBLAS_COMPUTE_32F_FAST_TF32, ElemType::f32, 4, 4, 80},
    {"fp16", CUDA_R_16F, CUDA_R_16F, CUBLAS_COMPUTE_32F, ElemType::f16, 2, 2, 0},
    {"bf16", CUDA_R_16BF, CUDA_R_16BF, CUBLAS_COMPUTE_32F, ElemType::bf16, 2, 2, 80},
    {"fp8", CUDA_R_8F_E4M3, CUDA_R_16BF, CUBLAS_COMPUTE_32F, ElemType::fp8e4m3, 1, 2, 89},
};

struct Shape {
    int m, n, k;
    const char* label;
};

std::vector<Shape> shapes(bool quick) {
    std::vector<Shape> s = {{1024, 1024, 1024, "square"},
                            {2048, 2048, 2048, "square"},
                            {4096, 4096, 4096, "square"},
                            {8192, 8192, 8192, "square"}};
    if (quick) return {{1024, 1024, 1024, "square"}, {8192, 8192, 8192, "square"}};
    // Transformer-like (tokens = 8192, hidden 4096/8192): QKV, attention out, MLP up and down.
    s.push_back({8192, 12288, 4096, "qkv h=4096"});
    s.push_back({8192, 4096, 4096, "attn-out h=4096"});
    s.push_back({8192, 16384, 4096, "mlp-up h=4096"});
    s.push_back({8192, 4096, 16384, "mlp-down h=4096"});
    s.push_back({8192, 24576, 8192, "qkv h=8192"});
    s.push_back({8192, 8192, 32768, "mlp-down h=8192"});
    return s;
}

struct DeviceBuffer {
    void* p = nullptr;
    explicit DeviceBuffer(size_t bytes) { CP_CUDA(cudaMalloc(&p, bytes)); }
    ~DeviceBuffer() { cudaFree(p); }
    DeviceBuffer(const DeviceBuffer&) = delete;
    DeviceBuffer& operator=(const DeviceBuffer&) = delete;
};

struct Result {
    double time_s = 0;
    int algorithms = 0;
};

Result time_shape(cublasLtHandle_t lt, const Precision& pr, const Shape& sh, const Options& o,
                  cudaStream_t stream, void* flush, size_t flush_bytes, void* workspace,
                  size_t workspace_bytes) {
    const size_t a_elems = static_cast<size_t>(sh.k) * sh.m,
                 b_elems = static_cast<size_t>(sh.k) * sh.n,
                 c_elems = static_cast<size_t>(sh.m) * sh.n;
    DeviceBuffer a(a_elems * pr.ab_bytes), b(b_elems * pr.ab_bytes), c(c_elems * pr.cd_bytes),
        d(c_elems * pr.cd_bytes);
    fill_random(a.p, a_elems, pr.fill, 1, stream);
    fill_random(b.p, b_elems, pr.fill, 2, stream);
    fill_random(c.p, c_elems,
                pr.cd == CUDA_R_32F   ? ElemType::f32
                : pr.cd == CUDA_R_16F ? ElemType::f16
                                      : ElemType::bf16,
                3, stream);

    cublasLtMatmulDesc_t op = nullptr;
    cublasLtMatrixLayout_t la = nullptr, lb = nullptr, lc = nullptr, ld = nullptr;
    cublasLtMatmulPreference_t pref = nullptr;
    CP_LT(cublasLtMatmulDescCreate(&op, pr.compute, CUDA_R_32F));
    const cublasOperation_t ta = CUBLAS_OP_T, tb = CUBLAS_OP_N;
    CP_LT(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSA, &ta, sizeof ta));
    CP_LT(cublasLtMatmulDescSetAttribute(op, CUBLASLT_MATMUL_DESC_TRANSB, &tb, sizeof tb));
    CP_LT(cublasLtMatrixLayoutCreate(&la, pr.ab, sh.k, sh.m, sh.k));
    CP_LT(cublasLtMatrixLayoutCreate(&lb, pr.ab, sh.k, sh.n, sh.k));
    CP_LT(cublasLtMatrixLayoutCreate(&lc, pr.cd, sh.m, sh.n, sh.m));
    CP_LT(cublasLtMatrixLayoutCreate(&ld, pr.cd, sh.m, sh.n, sh.m));
    CP_LT(cublasLtMatmulPreferenceCreate(&pref));
    CP_LT(cublasLtMatmulPreferenceSetAttribute(pref, CUBLASLT_MATMUL_PREF_MAX_WORKSPACE_BYTES,
                                               &workspace_bytes, sizeof workspace_bytes));
    cublasLtMatmulHeuristicResult_t heur[8] = {};
    int found = 0;
    const cublasStatus_t hs =
        cublasLtMatmulAlgoGetHeuristic(lt, op, la, lb, lc, ld, pref, 8, heur, &found);
    const float alpha = 1.0f, beta = 0.0f;
    Result best;
    best.time_s = 0;
    cudaEvent_t start, stop;
    CP_CUDA(cudaEventCreate(&start));
    CP_CUDA(cudaEventCreate(&stop));
    for (int i = 0; hs == CUBLAS_STATUS_SUCCESS && i < found; ++i) {
        if (heur[i].state != CUBLAS_STATUS_SUCCESS) continue;
        auto launch = [&] {
            return cublasLtMatmul(lt, op, &alpha, a.p, la, b.p, lb, &beta, c.p, lc, d.p, ld,
                                  &heur[i].algo, workspace, workspace_bytes, stream);
        };
        bool ok = true;
        for (int w = 0; w < o.warmup && ok; ++w)
            ok = launch() == CUBLAS_STATUS_SUCCESS;
        if (!ok) continue;
        double total_ms = 0;
        const int iters = std::max(3, o.iterations / 2);
        for (int it = 0; it < iters; ++it) {
            CP_CUDA(cudaMemsetAsync(flush, it & 0xff, flush_bytes, stream)); // evict A/B/C from L2
            CP_CUDA(cudaEventRecord(start, stream));
            launch();
            CP_CUDA(cudaEventRecord(stop, stream));
            CP_CUDA(cudaEventSynchronize(stop));
            float ms = 0;
            CP_CUDA(cudaEventElapsedTime(&ms, start, stop));
            total_ms += ms;
        }
        const double t = total_ms / iters * 1e-3;
        ++best.algorithms;
        if (best.time_s == 0 || t < best.time_s) best.time_s = t;
    }
    cudaEventDestroy(start);
    cudaEventDestroy(stop);
    cublasLtMatmulPreferenceDestroy(pref);
    cublasLtMatrixLayoutDestroy(la);
    cublasLtMatrixLayoutDestroy(lb);
    cublasLtMatrixLayoutDestroy(lc);
    cublasLtMatrixLayoutDestroy(ld);
    cublasLtMatmulDescDestroy(op);
    CP_CUDA(cudaGetLastError());
    return best;
}

} // namespace

void run_gemm(JsonWriter& w, const Options& o, std::vector<std::string>& errors) {
    const int dev = o.devices.front();
    CP_CUDA(cudaSetDevice(dev));
    cudaDeviceProp prop{};
    CP_CUDA(cudaGetDeviceProperties(&prop, dev));
    const int cc = prop.major * 10 + prop.minor;
    cublasLtHandle_t lt = nullptr;
    CP_LT(cublasLtCreate(&lt));
    cudaStream_t stream;
    CP_CUDA(cudaStreamCreate(&stream));
    const size_t flush_bytes =
        std::max<size_t>(static_cast<size_t>(prop.l2CacheSize) * 2, 64u << 20);
    const size_t workspace_bytes = 64u << 20;
    DeviceBuffer flush(flush_bytes), workspace(workspace_bytes);

    w.key("gemm")
        .begin_object()
        .field("unit", "TFLOP/s")
        .field("flops_convention", "2*m*n*k")
        .field("device", dev)
        .field("layout", "TN")
        .key("results")
        .begin_array();
    std::vector<std::pair<std::string, std::string>> skipped;
    for (const auto& pr : kPrecisions) {
        if (cc < pr.min_cc) {
            skipped.emplace_back(pr.name, "compute capability " + std::to_string(prop.major) + "." +
                                              std::to_string(prop.minor) + " has no " + pr.name +
                                              " tensor-core path");
            continue;
        }
        for (const auto& sh : shapes(o.quick)) {
            const double need = (static_cast<double>(sh.k) * (sh.m + sh.n) * pr.ab_bytes +
                                 2.0 * sh.m * sh.n * pr.cd_bytes);
            size_t free_b = 0, total_b = 0;
            cudaMemGetInfo(&free_b, &total_b);
            if (need > 0.8 * static_cast<double>(free_b)) continue;
            progress(o, std::string("gemm ") + pr.name + " " + std::to_string(sh.m) + "x" +
                            std::to_string(sh.n) + "x" + std::to_string(sh.k));
            try {
                const Result r = time_shape(lt, pr, sh, o, stream, flush.p, flush_bytes,
                                            workspace.p, workspace_bytes);
                if (r.algorithms == 0) {
                    skipped.emplace_back(
                        pr.name, "cuBLASLt offered no algorithm for " + std::to_string(sh.m) + "x" +
                                     std::to_string(sh.n) + "x" + std::to_string(sh.k));
                    continue;
                }
                const double flops = 2.0 * sh.m * sh.n * sh.k;
                w.begin_object()
                    .field("precision", pr.name)
                    .field("m", sh.m)
                    .field("n", sh.n)
                    .field("k", sh.k)
                    .field("shape", sh.label)
                    .field("flops", flops)
                    .field("time_s", r.time_s)
                    .field("tflops", flops / r.time_s / 1e12)
                    .field("algorithms_tried", r.algorithms)
                    .field("iterations", std::max(3, o.iterations / 2))
                    .end_object();
            } catch (const ProbeError& e) {
                errors.push_back(std::string("gemm ") + pr.name + ": " + e.what());
            }
        }
    }
    w.end_array().key("skipped").begin_array();
    for (const auto& [name, why] : skipped)
        w.begin_object().field("precision", name).field("reason", why).end_object();
    w.end_array().end_object();
    cudaStreamDestroy(stream);
    cublasLtDestroy(lt);
}

} // namespace cp::probe
