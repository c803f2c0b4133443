// Linear layers on weight-only quantised weights (int4; int8 or fp8 where the GEMM runs in 16 bit),
// by the engine's dequantising kernel.
#include "engine/model_constants.h"
#include "serving/serving_model.h"

#include <algorithm>
#include <cmath>

namespace cp::sim {

namespace {

// Integer-to-half conversions an SM retires per clock: the programming guide's throughput table
// gives 16 results per clock per multiprocessor for the conversions it does not list separately
// (CUDA C++ Programming Guide, "Arithmetic Instructions", compute capability 7.x-9.0).
constexpr double kConversionsPerSmClock = 16.0;

// A 4-bit GEMM of fewer rows than the engine's reconstruction threshold, as AutoGPTQ's exllama
// q4_matmul_kernel runs it (autogptq_extension/exllama/cuda_func/q4_matmul.cu @ 4e0ebcb3): one
// 32-thread block per output-column strip, activation row (THREADS_Y = 1) and K slab, each
// unpacking its slab's nibbles with __int2half_rn (matrix.cuh dot_product_8 @ f752336c). Every
// row converts every weight again; a slab (384 x width x 0.5 B) is still in L2 when the next
// row's blocks read it, so the packed weights cross HBM once.
void add_per_row_dequant_gemm(const ServingSetup& st, const GemmShape& g, double count,
                              ServingTerms& t) {
    const double conversions_per_s = st.hw.sms * kConversionsPerSmClock * st.hw.sm_clock_mhz * 1e6;
    if (!(conversions_per_s > 0)) {
        add_weight_gemm(st, g, storage_bytes(StorageType::int4), count, t);
        return;
    }
    const double weights = g.batch * g.k * g.n;
    const double convert_s = g.m * weights / conversions_per_s;
    const double bytes =
        weights * storage_bytes(StorageType::int4) + g.batch * 2.0 * (g.m * g.k + g.m * g.n);
    const double memory_s = hbm_s(st, bytes, bytes);
    if (convert_s >= memory_s)
        t[ServingTerm::compute] += count * convert_s;
    else
        t[ServingTerm::weights] += count * memory_s;
}

// A fused mixed-input kernel (Marlin, which vLLM, SGLang and TGI run for GPTQ/AWQ int4 and for fp8
// weights on parts without fp8 tensor cores; TensorRT-LLM's fpA_intB GEMM) unpacks and scales
// each weight tile in registers inside its tensor-core main loop. Marlin tiles at most 64 rows
// and runs a larger batch as repeated 64-row problems (E. Frantar, IST-DASLab/marlin issue 2,
// 2024-01-18), so its rate stays flat once compute-bound: Marlin's bench.py in vllm-project/vllm
// pull request 2497 (2024-01-24) holds 139.7-141.4 TFLOPS from 64 to 4000 rows while the same
// GPU's FP16 GEMM runs 0.60 / 0.61 of Marlin's time at 2048 / 4000 rows, where both kernels have
// reached their large-size rates.
constexpr double kMixedInputRateOfLargeGemm = 0.61;

// Weight-only storage whose GEMMs run in 16 bit: int4 always; int8 and fp8 where the setup
// does not run them as 8-bit GEMMs.
bool weight_only(const ServingSetup& st) {
    if (st.weights == StorageType::int4) return true;
    if (st.weights == StorageType::int8) return !st.int8_compute;
    if (st.weights == StorageType::fp8) return st.compute != Precision::fp8;
    return false;
}

// The fused kernel's roofline: the packed weights cross HBM once; its tensor-core work runs at no
// more than the kernel's flat rate, a share of the part's large 16-bit GEMM rate.
void add_mixed_input_gemm(const ServingSetup& st, const GemmShape& g, double count,
                          ServingTerms& t) {
    const double flops = g.flops();
    if (flops <= 0 || count <= 0) return;
    const double large_rate = gemm_flops_per_s(st.rates, model::kGemmSizeCurve.back()[0]);
    const double rate = std::min(gemm_flops_per_s(st.rates, flops / g.batch),
                                 kMixedInputRateOfLargeGemm * large_rate);
    const double tile = model::kGemmTileWidth;
    const double compute_s = flops / (rate * (g.n / (std::ceil(g.n / tile) * tile)));
    const double bytes =
        g.batch * (g.k * g.n * storage_bytes(st.weights) + 2.0 * (g.m * g.k + g.m * g.n));
    const double memory_s = hbm_s(st, bytes, bytes);
    if (compute_s >= memory_s)
        t[ServingTerm::compute] += count * compute_s;
    else
        t[ServingTerm::weights] += count * memory_s;
}

} // namespace

// int8 runs as int8 x int8 tensor-core GEMMs in TensorRT's PTQ engines and in the W8A8 path of
// vLLM (SmoothQuant / compressed-tensors checkpoints: cutlass_scaled_mm with per-token activation
// scales, compute capability 7.5 and up) and TensorRT-LLM (SmoothQuant). Parts without int8
// tensor cores (V100: no int8 figure), TGI (its int8 options, EETQ and bitsandbytes, are
// weight-only) and eager PyTorch dequantise instead.
bool runs_int8_gemms(ServingEngine engine, const AcceleratorSpec& d) {
    const bool int8_engine =
        engine == ServingEngine::tensorrt ||
        (d.is_gpu && (engine == ServingEngine::vllm || engine == ServingEngine::tensorrt_llm));
    return int8_engine && is_known(d.int8_tops);
}

void add_dense_weight_gemm(const ServingSetup& st, const GemmShape& g, double count,
                           ServingTerms& t) {
    const int threshold = st.policy().int4_reconstruct_rows;
    if (!st.hw.device.is_gpu || !weight_only(st)) {
        add_weight_gemm(st, g, storage_bytes(st.weights), count, t);
        return;
    }
    if (st.weights != StorageType::int4 || threshold <= 0) {
        add_mixed_input_gemm(st, g, count, t);
        return;
    }
    if (g.m < threshold) {
        add_per_row_dequant_gemm(st, g, count, t);
        return;
    }
    // At or above the threshold exllama's q4_matmul_recons_cuda writes the whole FP16 matrix
    // (Q4Matrix::reconstruct: packed read, 2 B written per weight) and cublasHgemm reads it back
    // as an FP16 GEMM would (exllama_ext.cpp q4_matmul @ b0ed914f).
    const double weights = g.batch * g.k * g.n;
    const double reconstruct_bytes = weights * (storage_bytes(StorageType::int4) + 2.0);
    if (count > 0)
        t[ServingTerm::weights] += count * hbm_s(st, reconstruct_bytes, reconstruct_bytes);
    add_weight_gemm(st, g, 2.0, count, t);
}

} // namespace cp::sim
