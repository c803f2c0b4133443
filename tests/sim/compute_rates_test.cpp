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
