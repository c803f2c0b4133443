// How fast one accelerator runs matrix and memory-bound work: datasheet peaks with size-dependent
// efficiency curves, or measured curves from a calibration profile.
#pragma once

#include "clusterplan/sim/calibration_profile.h"
#include "clusterplan/sim/hardware.h"
#include "engine/transformer_work.h"

#include <vector>

namespace cp::sim {

struct ComputeRates {
    double peak_flops = 0;         // datasheet dense peak for the precision, FLOP/s
    double best_gemm_fraction = 0; // best sustained fraction of peak (model_constants.h)
    double hbm_bytes_per_s = 0;
    const std::vector<GemmPoint>* measured_gemm = nullptr; // calibration, ascending FLOPs
    bool measured_hbm = false;
    double fused_attention_fraction = 0; // FlashAttention-2 kernel rate / peak (model_constants.h)
    // Peak of the fused attention kernel: FP8 recipes keep attention in 16 bit (Transformer
    // Engine's default: FP8 for the linear layers only).
    double attention_peak_flops = 0;
    // The framework's fitted compute efficiency (framework_factors.h), on every kernel.
    double framework_efficiency = 1.0;
    // Sustained tensor-core clock under a board power limit below TDP, relative to the clock at
    // TDP (1 when no limit is set); HBM bandwidth does not follow the SM clock.
    double power_clock_fraction = 1.0;
    // The size curve (model_constants.h kGemmSizeCurve) is read at FLOPs x this: the curve was
    // measured on 16-bit GEMMs, and a GEMM at a faster precision finishes the same tiles sooner,
    // so its fixed latency weighs as in a 16-bit GEMM of proportionally fewer FLOPs.
    double size_curve_flops_scale = 1.0;
    // Board power limit (TDP) and the power dense tensor work would draw at boost clock with
    // every tensor core busy (0 = not modelled; the training model leaves it so). A GEMM keeping
    // a share u of the tensor cores busy draws u x that; above the limit the clock drops by the
    // cube law of power_limited_clock_fraction until it fits.
    double tdp_w = 0;
    double full_tensor_w = 0;
};

// The SM clock a power limit below TDP leaves for compute-bound kernels, relative to TDP.
double power_limited_clock_fraction(const AcceleratorSpec& accelerator);
// Clock gain of a board allowed more power than its part's reference board (model_constants.h
// kPowerReferences), relative to the rated clock of its own peak.
double power_headroom_clock_gain(const AcceleratorSpec& accelerator);

// Builds the rates; calibration may be null. Reads no strings on the per-GEMM path.
ComputeRates make_compute_rates(const AcceleratorSpec& accelerator, Precision precision,
                                const CalibrationProfile* calibration);

// Achieved FLOP/s of one GEMM call of `flops` FLOPs (compute side of the roofline).
double gemm_flops_per_s(const ComputeRates& rates, double flops);
// Compute side of one (batched) GEMM call: size efficiency and tile quantisation, no HBM roofline.
double gemm_compute_time_s(const ComputeRates& rates, const GemmShape& gemm);
// One GEMM of FlashAttention's fused kernel: operands stay on chip (no HBM roofline), and the
// kernel runs no faster than its published rate nor than a plain GEMM of the same size.
double fused_attention_time_s(const ComputeRates& rates, const GemmShape& gemm);
// Time of one (batched) GEMM: the slower of its compute and its HBM traffic.
double gemm_time_s(const ComputeRates& rates, const GemmShape& gemm, double bytes_per_element);
// Time of memory-bound work split over `kernels` kernels moving `bytes` in total.
double memory_time_s(const ComputeRates& rates, double bytes, double kernels);

// log10-linear interpolation in a (x, y) table, clamped at both ends.
template <std::size_t N>
double interpolate_log(const std::array<std::array<double, 2>, N>& table, double x);

} // namespace cp::sim
