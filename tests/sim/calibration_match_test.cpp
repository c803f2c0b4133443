// Calibrations land on the instance they were measured on, and a probe run's failures stay
// visible: instance-type matching, GPUs per host, memory size, socket fallback, failed sections.
#include "clusterplan/sim/calibration_import.h"
#include "clusterplan/sim/calibration_lookup.h"
#include "clusterplan/sim/calibration_probe.h"
#include "clusterplan/sim/calibration_profile_json.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

using namespace cp::sim;

namespace {

std::string fixture(const std::string& name) {
    std::ifstream in(std::string(CLUSTERPLAN_TEST_DATA_DIR) + "/calibration/" + name,
                     std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

NodeSpec node(const std::string& type, const std::string& accelerator, int gpus, bool efa) {
    NodeSpec n;
    n.instance_type = type;
    n.accelerator.id = accelerator;
    n.accelerators_per_node = gpus;
    n.efa = efa;
    return n;
}

} // namespace

TEST_CASE("a p4de profile is not applied to p4d", "[calibration][match]") {
    CalibrationProfile p;
    p.instance_type = "p4de.24xlarge";
    p.accelerator = "NVIDIA A100-SXM4-80GB";
    const NodeSpec p4d = node("p4d.24xlarge", "A100-40GB", 8, true);
    CHECK_FALSE(calibration_matches(p, p4d));
    CHECK(calibration_for(&p, p4d) == nullptr);
    CHECK_THAT(calibration_mismatch(p, p4d),
               Catch::Matchers::Contains("p4de.24xlarge, not p4d.24xlarge"));
    CHECK(calibration_matches(p, node("p4de.24xlarge", "A100-80GB", 8, true)));
    // Without the instance type (nccl-tests output, no --instance) the GPU's memory size decides.
    p.instance_type.clear();
    CHECK_FALSE(calibration_matches(p, p4d));
    CHECK_THAT(calibration_mismatch(p, p4d), Catch::Matchers::Contains("80 GB"));
    CHECK(calibration_matches(p, node("p4de.24xlarge", "A100-80GB", 8, true)));
}

TEST_CASE("a p5.48xlarge multi-node profile is not applied to p5.4xlarge", "[calibration][match]") {
    CalibrationProfile p;
    p.instance_type = "p5.48xlarge";
    p.accelerator = "NVIDIA H100 80GB HBM3";
    p.intra_node.push_back({"all_reduce", 8, {{0, 1e30, 20e-6, 300e9}}, 1, {}});
    p.inter_node.push_back({"all_reduce", 16, {{0, 1e30, 50e-6, 45e9}}, 2, {}});
    const NodeSpec small = node("p5.4xlarge", "H100-80GB", 1, true);
    CHECK_FALSE(calibration_matches(p, small));
    CHECK(calibration_matches(p, node("p5.48xlarge", "H100-80GB", 8, true)));
    // Unnamed instance: 8 GPUs measured in one host cannot describe a 1-GPU host.
    p.instance_type.clear();
    CHECK_FALSE(calibration_matches(p, small));
    CHECK_THAT(calibration_mismatch(p, small), Catch::Matchers::Contains("8 GPUs in one host"));
    CHECK(calibration_matches(p, node("p5.48xlarge", "H100-80GB", 8, true)));
}

TEST_CASE("inter-node figures measured over TCP sockets are not applied to EFA nodes",
          "[calibration][match]") {
    const ProbeDocument doc =
        parse_probe_json(fixture("probe_p4d_2node_socket.json"), "socket.json");
    CHECK(doc.nccl_transport == "socket");
    CHECK(doc.nodes == 2);
    CHECK(doc.instance_type == "p4d.24xlarge");
    const CalibrationProfile p = profile_from_probe(doc, {});
    CHECK(p.instance_type == "p4d.24xlarge"); // from DMI: no --instance needed
    CHECK(p.inter_node_transport == "socket");
    REQUIRE_FALSE(p.inter_node.empty());
    CHECK_FALSE(inter_node_calibration_applies(p, node("p4d.24xlarge", "A100-40GB", 8, true)));
    CHECK(inter_node_calibration_applies(p, node("p4d.24xlarge", "A100-40GB", 8, false)));
}

TEST_CASE("a probe document with a failed section keeps the failure visible",
          "[calibration][probe]") {
    const ProbeDocument doc = parse_probe_json(fixture("probe_failed_nccl.json"), "failed.json");
    CHECK(doc.status == "partial");
    REQUIRE(doc.failed_sections == std::vector<std::string>{"nccl"});
    REQUIRE(doc.errors.size() == 1);
    CHECK_THAT(doc.errors[0], Catch::Matchers::StartsWith("nccl: communicator initialisation"));
    const CalibrationProfile p = profile_from_probe(doc, {});
    CHECK(p.intra_node.empty());
    CHECK(p.errors == doc.errors);
    CHECK_FALSE(p.gemm.empty());
    // Stored and read back, the failure is still there.
    const CalibrationProfile back = profile_from_json(profile_to_json(p), "stored");
    CHECK(back.errors == doc.errors);
    // A document claiming failure without saying why is malformed, not a clean run.
    std::string text = fixture("probe_failed_nccl.json");
    const auto at = text.find("\"errors\": [\n  \"nccl:");
    REQUIRE(at != std::string::npos);
    text = text.substr(0, at) + "\"errors\": [], \"ignored\": [" + text.substr(at + 11);
    CHECK_THROWS_WITH(parse_probe_json(text, "x.json"), Catch::Matchers::Contains("status"));
}

TEST_CASE("a banner and NCCL output before the framed document still parse",
          "[calibration][probe]") {
    const std::string doc = fixture("probe_a100x8_example.json");
    const std::string out =
        "Welcome to gpu-node-1 {banner}\nnode:1:1 [0] NCCL INFO Bootstrap : Using ens5\n"
        "----- BEGIN CLUSTERPLAN PROBE DOCUMENT -----\n" +
        doc + "----- END CLUSTERPLAN PROBE DOCUMENT -----\n";
    CHECK(detect_collective_format(out) == CollectiveFormat::probe_json);
    const ProbeDocument parsed = parse_probe_json(out, "stdout copy");
    CHECK(parsed.hostname == "dgx-a100-01");
    CHECK(parsed.status == "ok");
}
