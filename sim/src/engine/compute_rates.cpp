#include "engine/compute_rates.h"

#include "clusterplan/sim/scenario.h"
#include "engine/model_constants.h"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace cp::sim {

template <std::size_t N>
double interpolate_log(const std::array<std::array<double, 2>, N>& table, double x) {
    if (x <= table[0][0]) return table[0][1];
    if (x >= table[N - 1][0]) return table[N - 1][1];
    for (std::size_t i = 1; i < N; ++i) {
        if (x < table[i][0]) {
            const double t =
                std::log(x / table[i - 1][0]) / std::log(table[i][0] / table[i - 1][0]);
            return table[i - 1][1] + t * (table[i][1] - table[i - 1][1]);
        }
    }
    return table[N - 1][1];
}
template double interpolate_log(const std::array<std::array<double, 2>, 4>&, double);

namespace {

double best_fraction(const AcceleratorSpec& accelerator, Precision precision) {
    if (precision == Precision::fp32) return model::kBestGemmFractionSimtFp32;
    if (accelerator.is_hopper())
        return precision == Precision::fp8 ? model::kBestGemmFractionHopperFp8
                                           : model::kBestGemmFractionHopper;
    if (accelerator.is_a100()) return model::kBestGemmFractionA100;
    return model::kBestGemmFractionDefault;
}

double flash_attention_fraction(const AcceleratorSpec& accelerator) {
    if (accelerator.is_hopper()) return model::kFlashAttentionFractionHopper;
    if (accelerator.is_a100()) return model::kFlashAttentionFractionA100;
    return model::kFlashAttentionFractionDefault;
}

// Measured throughput at `flops`, log-log interpolated between calibration points.
double measured_flops_per_s(const std::vector<GemmPoint>& points, double flops) {
    if (flops <= points.front().flops)
        return points.front().tflops * 1e12 * flops / points.front().flops;
    if (flops >= points.back().flops) return points.back().tflops * 1e12;
    for (std::size_t i = 1; i < points.size(); ++i) {
        if (flops < points[i].flops) {
            const double t = std::log(flops / points[i - 1].flops) /
                             std::log(points[i].flops / points[i - 1].flops);
            return 1e12 * (points[i - 1].tflops + t * (points[i].tflops - points[i - 1].tflops));
        }
    }
    return points.back().tflops * 1e12;
}

// A GPU whose TDP cannot feed its tensor cores at boost clock slows its large GEMMs to the clock
// its power allows, fixed by the part's published sustained GEMM rate (model_constants.h): that
// GEMM keeps a share u of the tensor cores busy at the clock fraction f = rate / (peak x u),
// drawing the TDP, so all of them at boost would draw TDP / (f^3 u). A published rate above the
// default best fraction of the peak is the part's own best fraction instead (a measured GEMM
// outranks the default; the A10G, whose peak is an estimate).
void set_tensor_power(const AcceleratorSpec& accelerator, Precision precision, ComputeRates& r) {
    const auto s =
        std::find_if(model::kSustainedGemmRates.begin(), model::kSustainedGemmRates.end(),
                     [&](const auto& rate) { return accelerator.id == rate.device_id; });
    if (s == model::kSustainedGemmRates.end()) return;
    const double peak16 = accelerator.peak_16bit(), tdp = accelerator.tdp_w;
    if (!is_known(tdp) || tdp <= 0 || !is_known(peak16) || peak16 <= 0) return;
    const double curve = interpolate_log(model::kGemmSizeCurve, s->gemm_flops);
    const double measured_fraction = s->tflops / (peak16 * curve);
    if (measured_fraction * model::kFrameworkGemmFactor > r.best_gemm_fraction) {
        // Only the 16-bit rates were measured.
        if (precision == Precision::fp16 || precision == Precision::bf16)
            r.best_gemm_fraction = std::min(1.0, measured_fraction) * model::kFrameworkGemmFactor;
        return;
    }
    const double u = r.best_gemm_fraction * curve;
    const double f = std::min(1.0, s->tflops / (peak16 * u));
    r.tdp_w = tdp;
    r.full_tensor_w = tdp / (f * f * f * u);
}

} // namespace

double power_limited_clock_fraction(const AcceleratorSpec& accelerator) {
    // Dense tensor work draws the board to its TDP at the datasheet clocks. Dynamic CMOS power is
    // C·V²·f and DVFS lowers the voltage with the clock, so power goes as f³ and a limit P below
    // TDP leaves f = (P / TDP)^(1/3) of the clock (Mei, Wang and Chu 2017, "A survey and
    // measurement study of GPU DVFS on energy conservation", Digital Communications and
    // Networks 3(2)). Static power is not separated out, so this is the mildest such slowdown.
    const double tdp = accelerator.tdp_w, limit = accelerator.power_limit_w;
    if (!is_known(tdp) || !is_known(limit) || tdp <= 0 || limit <= 0 || limit >= tdp) return 1.0;
    return std::cbrt(limit / tdp);
}

double power_headroom_clock_gain(const AcceleratorSpec& accelerator) {
    // The clock rises with the cube root of the power allowed over the reference board's (the
    // inverse of power_limited_clock_fraction), from the reference board's loaded clock, which is
    // at least its best measured GEMM rate over its rated peak. It cannot pass this board's own
    // rated clock, and a rating above the reference's already carries part of the gain.
    const double tdp = accelerator.tdp_w, peak16 = accelerator.peak_16bit();
    if (!is_known(tdp) || !is_known(peak16) || peak16 <= 0) return 1.0;
    for (const auto& ref : model::kPowerReferences) {
        if (!accelerator.id.starts_with(ref.device_prefix) || tdp <= ref.reference_w) continue;
        const double reference_clock = ref.reference_best_tflops / ref.reference_peak_tflops;
        const double rated_clock = peak16 / ref.reference_peak_tflops;
        const double clock =
            std::min(reference_clock * std::cbrt(tdp / ref.reference_w), rated_clock);
        // Relative to the clock the default fraction already assumes at the reference power.
        return std::max(1.0, clock / reference_clock / rated_clock);
    }
    return 1.0;
}

ComputeRates make_compute_rates(const AcceleratorSpec& accelerator, Precision precision,
                                const CalibrationProfile* calibration) {
    ComputeRates r;
    r.peak_flops = accelerator.peak(precision) * 1e12;
    r.power_clock_fraction =
        power_limited_clock_fraction(accelerator) * power_headroom_clock_gain(accelerator);
    r.best_gemm_fraction = best_fraction(accelerator, precision) * model::kFrameworkGemmFactor;
    r.hbm_bytes_per_s = accelerator.hbm_gbytes_per_s * 1e9;
    r.fused_attention_fraction = flash_attention_fraction(accelerator);
    r.attention_peak_flops = r.peak_flops;
    // A GEMM at a slower precision (tf32 tiles at half the 16-bit tensor rate, fp32 on the CUDA
    // cores) runs the same output tiles for longer, so its fixed launch and tail latency weighs
    // as in a 16-bit GEMM of proportionally more FLOPs: the size curve, drawn from 16-bit GEMMs,
    // is read there (the converse of the fp8 / int8 scale the serving model sets).
    const double peak16 = accelerator.peak_16bit();
    if ((precision == Precision::fp32 || precision == Precision::tf32) && is_known(peak16) &&
        peak16 > 0 && r.peak_flops > 0)
        r.size_curve_flops_scale = std::max(1.0, peak16 * 1e12 / r.peak_flops);
    set_tensor_power(accelerator, precision, r);
    if (calibration) {
        // Calibration profiles key GEMM curves by the scenario name of the precision ("bf16").
        const char* name = enum_name(precision);
        for (const auto& [precision_id, points] : calibration->gemm) {
            if (precision_id == name && !points.empty()) r.measured_gemm = &points;
        }
        if (calibration->hbm_gbytes_per_s > 0) {
            // A measured copy bandwidth is already the achievable rate of large kernels.
            r.hbm_bytes_per_s =
                calibration->hbm_gbytes_per_s * 1e9 / model::kHbmSizeCurve.back()[1];
            r.measured_hbm = true;
        }
    }
    return r;
}

double gemm_flops_per_s(const ComputeRates& rates, double flops) {
    if (rates.measured_gemm)
        return measured_flops_per_s(*rates.measured_gemm, flops) * model::kFrameworkGemmFactor *
               rates.framework_efficiency;
    // A measured curve already ran at the part's clocks; the datasheet peak did not. A GEMM's
    // share of busy tensor cores sets its power draw, and past the board limit its clock.
    const double busy =
        rates.best_gemm_fraction * rates.framework_efficiency *
        interpolate_log(model::kGemmSizeCurve, flops * rates.size_curve_flops_scale);
    double clock = rates.power_clock_fraction;
    if (rates.tdp_w > 0 && rates.full_tensor_w * busy > rates.tdp_w)
        clock *= std::cbrt(rates.tdp_w / (rates.full_tensor_w * busy));
    return rates.peak_flops * clock * busy;
}

double gemm_compute_time_s(const ComputeRates& rates, const GemmShape& gemm) {
    const double flops = gemm.flops();
    if (flops <= 0) return 0;
    // A batched GEMM is one kernel call: its efficiency follows the whole call's FLOPs. Output
    // tiles are at least 64 wide, so a dimension that is not a multiple wastes the remainder
    // (tile quantisation: the n = 96 context GEMM of a 96-wide head runs on 128-wide tiles).
    const double tile = model::kGemmTileWidth;
    const double quantisation =
        (gemm.m / (std::ceil(gemm.m / tile) * tile)) * (gemm.n / (std::ceil(gemm.n / tile) * tile));
    return flops / (gemm_flops_per_s(rates, flops) * quantisation);
}

double fused_attention_time_s(const ComputeRates& rates, const GemmShape& gemm) {
    const double flops = gemm.flops();
    if (flops <= 0) return 0;
    const double kernel_flops_per_s = rates.attention_peak_flops * rates.power_clock_fraction *
                                      rates.fused_attention_fraction * model::kFrameworkGemmFactor *
                                      rates.framework_efficiency *
                                      interpolate_log(model::kGemmSizeCurve, flops);
    return std::max(gemm_compute_time_s(rates, gemm), flops / kernel_flops_per_s);
}

double gemm_time_s(const ComputeRates& rates, const GemmShape& gemm, double bytes_per_element) {
    if (gemm.flops() <= 0) return 0;
    const double compute_s = gemm_compute_time_s(rates, gemm);
    const double bytes = gemm.bytes(bytes_per_element);
    const double memory_s =
        bytes / (rates.hbm_bytes_per_s * interpolate_log(model::kHbmSizeCurve, bytes));
    return std::max(compute_s, memory_s);
}

double memory_time_s(const ComputeRates& rates, double bytes, double kernels) {
    if (bytes <= 0) return 0;
    const double per_kernel = bytes / std::max(1.0, kernels);
    return bytes / (rates.hbm_bytes_per_s * interpolate_log(model::kHbmSizeCurve, per_kernel));
}

} // namespace cp::sim
