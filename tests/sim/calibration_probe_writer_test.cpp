// The probe's output writer (probes/core json_writer.h, header-only, no CUDA) and the sim-side
// parser must agree: a document written the way clusterplan-probe writes it parses back.
#include "clusterplan/probe/json_writer.h"
#include "clusterplan/sim/calibration_probe.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <cmath>

using cp::probe::JsonWriter;

TEST_CASE("probe writer output parses with the sim probe parser", "[calibration][probe]") {
    JsonWriter w;
    w.begin_object()
        .field("schema", "clusterplan.probe/1")
        .field("command", "all")
        .field("started_at", "2026-11-22T03:00:00Z");
    w.key("host")
        .begin_object()
        .field("hostname", std::string("node \"a\"\n"))
        .field("glibc", "2.36")
        .end_object();
    w.key("versions").begin_object().field("nccl", "2.28.9").end_object();
    w.key("launch").begin_object().field("rank", 0).field("world_size", 2).end_object();
    w.key("gpus").begin_array();
    w.begin_object()
        .field("index", 0)
        .field("name", "NVIDIA H100 80GB HBM3")
        .field("memory_bytes", 85520809984ULL)
        .key("numa_node")
        .null()
        .end_object();
    w.end_array();
    w.key("gemm").begin_object().key("results").begin_array();
    w.begin_object()
        .field("precision", "bf16")
        .field("m", 8192)
        .field("n", 8192)
        .field("k", 8192)
        .field("flops", 2.0 * 8192 * 8192 * 8192)
        .field("time_s", 0.0016)
        .field("tflops", 687.19476736)
        .end_object();
    w.end_array().end_object();
    w.key("membw").begin_object().key("results").begin_array();
    w.begin_object()
        .field("kernel", "copy")
        .field("bytes", 2147483648.0)
        .field("time_s", 0.00068)
        .field("gbytes_per_s", 3158.0)
        .end_object();
    w.end_array().end_object();
    w.key("nccl").begin_object().field("ranks", 16).field("nodes", 2).key("results").begin_array();
    for (double bytes = 1024; bytes <= 1 << 30; bytes *= 4) {
        const double t_us = 20 + bytes / 40e3; // 20 µs + S / 40 GB/s
        w.begin_object()
            .field("collective", "all_reduce")
            .field("bytes", bytes)
            .field("count", bytes / 4)
            .field("type", "float")
            .field("time_us", t_us)
            .field("algbw_gbytes_per_s", bytes / t_us / 1e3)
            .field("busbw_gbytes_per_s", bytes / t_us / 1e3 * 2 * 15 / 16)
            .field("correct", true)
            .end_object();
    }
    w.end_array().end_object();
    w.field("nan_is_null", std::nan("")).key("errors").begin_array().end_array().end_object();

    const auto doc = cp::sim::parse_probe_json(w.str(), "written");
    CHECK(doc.hostname == "node \"a\"\n");
    CHECK(doc.world_size == 2);
    REQUIRE(doc.gemm.size() == 1);
    CHECK(doc.gemm[0].tflops == 687.19476736);
    REQUIRE(doc.collectives.size() == 1);
    CHECK(doc.collectives[0].nodes == 2);
    const auto profile = cp::sim::profile_from_probe(doc, {"w", "", "", "", "", ""});
    CHECK(profile.intra_node.empty());
    REQUIRE(profile.inter_node.size() == 1);
    const auto& fit = profile.inter_node[0];
    REQUIRE(fit.segments.size() == 1);
    CHECK_REL(fit.segments[0].alpha_s, 20e-6, 1e-9);
    CHECK_REL(fit.segments[0].beta_bytes_per_s, 40e9, 1e-9);
    CHECK(profile.hbm_gbytes_per_s == 3158.0);
}
