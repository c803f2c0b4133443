#include "calibration_test_util.h"
#include "clusterplan/sim/calibration_import.h"
#include "clusterplan/sim/calibration_lookup.h"
#include "clusterplan/sim/calibration_probe.h"
#include "clusterplan/sim/calibration_profile_json.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace cp::sim;
using cp::test::calibration_fixture;
using cp::test::read_text;

TEST_CASE("probe JSON parses into a calibration profile", "[calibration][probe]") {
    const std::string path = calibration_fixture("probe_a100x8_example.json");
    const std::string text = read_text(path);
    REQUIRE(detect_collective_format(text) == CollectiveFormat::probe_json);
    const ProbeDocument doc = parse_probe_json(text, path);
    CHECK(doc.hostname == "dgx-a100-01");
    CHECK(doc.gpus.size() == 8);
    CHECK(doc.gemm.size() == 16);
    REQUIRE(doc.collectives.size() == 1);
    CHECK(doc.collectives[0].collective == "all_reduce");
    CHECK(doc.collectives[0].ranks == 8);
    CHECK(doc.collectives[0].samples.size() == 11);

    const CalibrationProfile p =
        profile_from_probe(doc, {"a100-test", "", "p4de.24xlarge", "", "", ""});
    CHECK(p.source == "probe");
    CHECK(p.host == "dgx-a100-01");
    CHECK(p.accelerator == "NVIDIA A100-SXM4-80GB");
    CHECK(p.measured_at == "2026-11-20T10:00:00Z");
    CHECK(p.hbm_gbytes_per_s == 1650.0);
    CHECK(p.pcie_h2d_gbytes_per_s == 24.5);
    CHECK(p.pcie_d2h_gbytes_per_s == 25.1);
    CHECK(p.p2p_gbytes_per_s == 260.0);
    REQUIRE(p.gemm.size() == 4);
    for (const auto& [precision, curve] : p.gemm) {
        INFO(precision);
        REQUIRE(curve.size() == 4);
        for (std::size_t i = 1; i < curve.size(); ++i)
            CHECK(curve[i].flops > curve[i - 1].flops);
    }
    REQUIRE(p.intra_node.size() == 1);
    CHECK(p.inter_node.empty());
    const FitErrorStats st = fit_error(p.intra_node[0], 1 << 20);
    CHECK(st.max_rel_error <= 0.10);
    bool has_nccl = false;
    for (const auto& [k, v] : p.tool_versions)
        has_nccl = has_nccl || (k == "nccl" && v == "2.27.3");
    CHECK(has_nccl);
}

TEST_CASE("profile JSON round-trips", "[calibration][probe]") {
    const std::string path = calibration_fixture("probe_a100x8_example.json");
    const CalibrationProfile p =
        profile_from_probe(parse_probe_json(read_text(path), path), {"rt", "", "", "", "", ""});
    const nlohmann::json j = profile_to_json(p);
    CHECK(j["intra_node"][0]["segments"].back()["max_bytes"].is_null());
    const CalibrationProfile q = profile_from_json(nlohmann::json::parse(j.dump()), "roundtrip");
    CHECK(q.name == "rt");
    CHECK(q.hbm_gbytes_per_s == p.hbm_gbytes_per_s);
    REQUIRE(q.intra_node.size() == 1);
    REQUIRE(q.intra_node[0].segments.size() == p.intra_node[0].segments.size());
    CHECK(std::isinf(q.intra_node[0].segments.back().max_bytes));
    REQUIRE(q.intra_node[0].raw.size() == 11);
    for (double bytes : {3e6, 1.5e8, 4e9})
        CHECK_REL(collective_time_s(q.intra_node[0], bytes),
                  collective_time_s(p.intra_node[0], bytes), 1e-9);
    CHECK_THROWS_AS(
        profile_from_json(nlohmann::json::parse(R"({"intra_node":[{"ranks":8}]})"), "x"),
        CalibrationInputError);
}

TEST_CASE("malformed probe documents name the field", "[calibration][probe]") {
    const std::string neg = calibration_fixture("malformed_probe_negative_time.json");
    CHECK_THROWS_WITH(parse_probe_json(read_text(neg), neg),
                      Catch::Matchers::Contains("nccl.results[2].time_us") &&
                          Catch::Matchers::Contains(neg));
    const std::string schema = calibration_fixture("malformed_probe_schema.json");
    CHECK_THROWS_WITH(parse_probe_json(read_text(schema), schema),
                      Catch::Matchers::Contains("field 'schema'"));
    CHECK_THROWS_WITH(parse_probe_json("{\"schema\":\"clusterplan.probe/1\"}", "p.json"),
                      Catch::Matchers::Contains("field 'host' is missing"));
}

TEST_CASE("nccl-tests tables become a profile and multi-host tables are inter-node",
          "[calibration][probe]") {
    const std::string path = calibration_fixture("nccl_tests_allreduce_a100x8.txt");
    CollectiveTable t = parse_nccl_tests_text(read_text(path), path);
    CalibrationProfile p = profile_from_tables({t}, {"nt", "", "", "", "2026-11-01", ""});
    CHECK(p.source == "nccl-tests");
    CHECK(p.host == "dgx-a100-01");
    CHECK(p.intra_node.size() == 1);
    t.nodes = 2;
    p = profile_from_tables({t}, {"nt2", "", "", "", "", ""});
    CHECK(p.inter_node.size() == 1);
    CHECK(p.intra_node.empty());
}

TEST_CASE("profile lookups: collective fits and the GEMM curve", "[calibration][probe]") {
    const std::string path = calibration_fixture("probe_a100x8_example.json");
    const CalibrationProfile p =
        profile_from_probe(parse_probe_json(read_text(path), path), {"l", "", "", "", "", ""});
    REQUIRE(find_collective_fit(p, "all_reduce", false) != nullptr);
    CHECK(find_collective_fit(p, "all_reduce", true) == nullptr);
    CHECK(find_collective_fit(p, "all_gather", false) == nullptr);
    // bf16 points of the fixture: 1024³ 140.4, 4096³ 249.6, 8192³ 271.44 TFLOP/s (and a
    // 2048x12288x4096).
    const double f1024 = 2.0 * 1024 * 1024 * 1024, f8192 = 2.0 * 8192 * 8192 * 8192;
    CHECK(gemm_tflops_at(p, "bf16", f1024) == 140.4);
    CHECK(gemm_tflops_at(p, "bf16", f1024 / 8) == 140.4);  // held below the range
    CHECK(gemm_tflops_at(p, "bf16", f8192 * 8) == 271.44); // held above
    const double mid = gemm_tflops_at(p, "bf16", 2.0 * 1500 * 1500 * 1500);
    CHECK(mid > 140.4);
    CHECK(mid < 271.44);
    CHECK(std::isnan(gemm_tflops_at(p, "fp8", f8192)));
}
