#include "calibration_test_util.h"
#include "clusterplan/sim/calibration_fit.h"
#include "clusterplan/sim/calibration_import.h"
#include "clusterplan/sim/calibration_lookup.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <iostream>

using namespace cp::sim;

TEST_CASE("alpha-beta fit recovers exact parameters", "[calibration][fit]") {
    std::vector<FitPoint> pts;
    const double alpha = 25e-6, beta = 150e9;
    for (double s = 1024; s <= 1 << 30; s *= 2)
        pts.push_back({s, alpha + s / beta});
    const AlphaBetaSegment seg = fit_alpha_beta(pts);
    CHECK_REL(seg.alpha_s, alpha, 1e-6);
    CHECK_REL(seg.beta_bytes_per_s, beta, 1e-6);
    const auto segs = fit_piecewise(pts);
    REQUIRE(segs.size() == 1);
    CHECK(segs[0].min_bytes == 0);
    CHECK(std::isinf(segs[0].max_bytes));
}

TEST_CASE("piecewise fit finds a regime change", "[calibration][fit]") {
    // Two protocols: low latency/low bandwidth below 1 MiB, higher latency/bandwidth above.
    std::vector<FitPoint> pts;
    for (double s = 1024; s <= 64.0 * (1 << 20); s *= 2)
        pts.push_back({s, s < (1 << 20) ? 8e-6 + s / 20e9 : 40e-6 + s / 200e9});
    const auto segs = fit_piecewise(pts);
    REQUIRE(segs.size() == 2);
    CHECK(segs[1].min_bytes == 1 << 20);
    CHECK(segs[0].max_bytes == 1 << 20);
    CHECK_REL(segs[0].alpha_s, 8e-6, 1e-6);
    CHECK_REL(segs[1].beta_bytes_per_s, 200e9, 1e-6);
}

TEST_CASE("negative intercepts are clamped to a pure-bandwidth fit", "[calibration][fit]") {
    const std::vector<FitPoint> pts = {{1e6, 0.9e-5}, {2e6, 2.1e-5}, {4e6, 4.2e-5}};
    const AlphaBetaSegment seg = fit_alpha_beta(pts);
    CHECK(seg.alpha_s >= 0);
    CHECK(seg.beta_bytes_per_s > 0);
}

TEST_CASE("fit is within 10 % of every measured size >= 1 MiB on all validation tables",
          "[calibration][fit][validation]") {
    double worst = 0;
    for (const char* gpu : {"a100", "v100"}) {
        for (int n = 2; n <= 8; ++n) {
            const std::string path = std::string(CLUSTERPLAN_VALIDATION_DIR) + "/nccl_allreduce/" +
                                     gpu + "_" + std::to_string(n) + "gpu.csv";
            const CollectiveFit fit =
                fit_collective(parse_nccl_csv(cp::test::read_text(path), path));
            const FitErrorStats st = fit_error(fit, 1 << 20);
            std::cout << gpu << " " << n << " GPUs: " << fit.segments.size()
                      << " regimes, mean error " << 100 * st.mean_rel_error << " %, max "
                      << 100 * st.max_rel_error << " % at " << st.worst_bytes
                      << " B; large-message busbw-equivalent beta "
                      << fit.segments.back().beta_bytes_per_s * busbw_factor("all_reduce", n) / 1e9
                      << " GB/s\n";
            INFO(path);
            CHECK(st.count == 1024);
            CHECK(st.max_rel_error <= 0.10);
            CHECK(fit.raw.size() == 1024);
            CHECK(fit.ranks == n);
            worst = std::max(worst, st.max_rel_error);
            // Between measured sizes the raw table is interpolated and stays between neighbours.
            const double mid = 0.5 * (fit.raw[10].bytes + fit.raw[11].bytes);
            const double t = collective_time_s(fit, mid);
            CHECK(t >= std::min(fit.raw[10].time_s, fit.raw[11].time_s));
            CHECK(t <= std::max(fit.raw[10].time_s, fit.raw[11].time_s));
            CHECK(collective_time_s(fit, fit.raw[500].bytes) == fit.raw[500].time_s);
            // Beyond the table the fit extrapolates with the last regime's bandwidth.
            CHECK(collective_time_s(fit, 4.0 * (1 << 30)) > fit.raw.back().time_s * 3.0);
        }
    }
    std::cout << "worst fit error over all tables: " << 100 * worst << " %\n";
}

TEST_CASE("flat times give a latency-only regime, but the last regime keeps a bandwidth",
          "[calibration][fit]") {
    // Constant 10 µs at every size: a pure latency fit, plus a bandwidth term that adds ≤ 1 %.
    std::vector<FitPoint> pts;
    for (double s = 1024; s <= 65536; s *= 2)
        pts.push_back({s, 10e-6});
    const auto flat = fit_piecewise(pts);
    REQUIRE(flat.size() == 1);
    CHECK(flat[0].beta_bytes_per_s > 0);
    CHECK(segments_time_s(flat, 4096) == Approx(10e-6).epsilon(0.05));
    CHECK(segments_time_s(flat, 1e9) > segments_time_s(flat, 1e6));
}

TEST_CASE("a calibration profile applies only to the hardware it was measured on",
          "[calibration]") {
    cp::sim::CalibrationProfile profile;
    profile.accelerator = "NVIDIA A100-SXM4-80GB";
    cp::sim::NodeSpec node;
    node.instance_type = "p4de.24xlarge";
    node.accelerator.id = "A100-80GB";
    CHECK(cp::sim::calibration_matches(profile, node));
    // Same family, other memory size: p4d's 40GB parts have 1,555 GB/s HBM, not 2,039.
    node.accelerator.id = "A100-40GB";
    CHECK_FALSE(cp::sim::calibration_matches(profile, node));
    node.accelerator.id = "H100-80GB";
    CHECK_FALSE(cp::sim::calibration_matches(profile, node));
    CHECK(cp::sim::calibration_for(&profile, node) == nullptr);
    node.accelerator.id = "A10"; // a word, not a prefix: "A10" is not "A100"
    CHECK_FALSE(cp::sim::calibration_matches(profile, node));
    profile.accelerator = "NVIDIA H100 80GB HBM3";
    node.accelerator.id = "H100-80GB";
    CHECK(cp::sim::calibration_for(&profile, node) == &profile);
    // Instance type alone decides when the profile names no accelerator.
    profile.accelerator.clear();
    profile.instance_type = "p5.48xlarge";
    node.instance_type = "p5.48xlarge";
    CHECK(cp::sim::calibration_matches(profile, node));
    node.instance_type = "p4d.24xlarge";
    CHECK_FALSE(cp::sim::calibration_matches(profile, node));
}
