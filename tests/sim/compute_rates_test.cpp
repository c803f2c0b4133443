// Sustained GEMM rates of the parts whose large GEMMs run below the datasheet's boost clock or
// whose peak is an estimate (model_constants.h kSustainedGemmRates). A power-capped part's clock
// is set so the plan's GEMM runs at the published rate; a part whose peak is an estimate takes
// the published rate as its best GEMM, times the whole-framework factor every part carries (as
// the A100's measured 87 % is).
#include "engine/compute_rates.h"
#include "engine/model_constants.h"
#include "engine/transformer_work.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace cp;

namespace {

sim::AcceleratorSpec part(const char* id, double peak16_tflops, double tdp_w) {
    sim::AcceleratorSpec a;
    a.id = id;
    a.vendor = "NVIDIA";
    a.peak_tflops = {peak16_tflops / 4, peak16_tflops / 2, peak16_tflops, peak16_tflops,
                     sim::kUnknown};
    a.memory_gib = 24;
    a.hbm_gbytes_per_s = 600;
    a.tdp_w = tdp_w;
    return a;
}

double achieved_tflops(const sim::AcceleratorSpec& a, double n) {
    const sim::ComputeRates r = sim::make_compute_rates(a, sim::Precision::fp16, nullptr);
    const sim::GemmShape g{n, n, n};
    return g.flops() / sim::gemm_compute_time_s(r, g) / 1e12;
}

} // namespace

TEST_CASE("power-capped and estimated-peak parts reach their published sustained GEMM rates",
          "[engine]") {
    const double f = sim::model::kFrameworkGemmFactor;
    // T4 (70 W): ~24 TFLOPS on continuous 4096^3 FP16 GEMMs against a 65 TFLOPS peak.
    CHECK_REL(achieved_tflops(part("T4", 65, 70), 4096), 24.0, 0.03);
    // L4 (72 W): 53.8 TFLOPS at 8192^3 against 121.
    CHECK_REL(achieved_tflops(part("L4", 121, 72), 8192), 53.8, 0.03);
    // A10G (300 W, estimated 70 TFLOPS peak): 69.47 TFLOPS at 10240^3 — above the default best
    // fraction, so the measurement sets the part's best fraction.
    CHECK_REL(achieved_tflops(part("A10G", 70, 300), 10240), 69.47 * f, 0.03);
    // A part without a published sustained rate keeps the default best fraction.
    CHECK(achieved_tflops(part("A10G-like", 70, 300), 10240) < 0.85 * 70 * f);
}

TEST_CASE("a V100 board allowed more power than the 300 W SXM2 clocks higher, up to its rating",
          "[engine]") {
    // The 300 W SXM2 is the reference: no gain, nor for a lower-power board (its rating carries
    // its clock).
    CHECK(sim::power_headroom_clock_gain(part("V100-32GB", 125, 300)) == 1.0);
    CHECK(sim::power_headroom_clock_gain(part("V100-PCIe", 112, 250)) == 1.0);
    // DGX-2 (350 W, same rating): the cube law of the power ratio.
    CHECK_REL(sim::power_headroom_clock_gain(part("V100-32GB", 125, 350)), std::cbrt(350.0 / 300.0),
              1e-9);
    // DGX-2H (450 W, 130 TFLOPS rating): the cube law, less what the higher rating already holds.
    CHECK_REL(sim::power_headroom_clock_gain(part("V100-32GB", 130, 450)),
              std::cbrt(1.5) * 125.0 / 130.0, 1e-9);
    // Never past the board's rated clock: at 1,000 W the clock stops at the 125 TFLOPS rating,
    // 125 / 112.3 of the reference board's loaded clock.
    CHECK_REL(sim::power_headroom_clock_gain(part("V100-32GB", 125, 1000)), 125.0 / 112.3, 1e-9);
    // Parts without a reference board are unchanged.
    CHECK(sim::power_headroom_clock_gain(part("A10G", 70, 450)) == 1.0);
    // The gain reaches the GEMM rate.
    CHECK_REL(achieved_tflops(part("V100-32GB", 125, 350), 8192) /
                  achieved_tflops(part("V100-32GB", 125, 300), 8192),
              std::cbrt(350.0 / 300.0), 1e-6);
}
