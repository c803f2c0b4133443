// How the step model reads a calibration: all-gather and reduce-scatter fits for the traffic
// that really is all-gather/reduce-scatter (ZeRO-3/FSDP, sequence parallelism), α kept per ring
// step when a fit is rescaled to another rank count, socket-measured networks kept off EFA.
#include "clusterplan/sim/calibration_profile.h"
#include "engine/collectives.h"
#include "tolerance.h"

#include <catch2/catch.hpp>

using namespace cp::sim;

namespace {

CollectiveFit fit(const std::string& collective, int ranks, double alpha_s, double beta,
                  int nodes = 1) {
    return {collective, ranks, {{0, 1e30, alpha_s, beta}}, nodes, {}};
}

NodeSpec hopper_node(bool efa) {
    NodeSpec n;
    n.instance_type = "p5.48xlarge";
    n.accelerator.id = "H100-80GB";
    n.accelerators_per_node = 8;
    n.intra_link = IntraNodeLink::nvswitch;
    n.intra_node_gbytes_per_s = 450;
    n.inter_node_gbps = 3200;
    n.efa = efa;
    return n;
}

} // namespace

TEST_CASE("all-gather and reduce-scatter use their own measured fits", "[calibration][engine]") {
    CalibrationProfile p;
    // Hopper NVLS: all-gather/reduce-scatter reach a higher algbw than half an all-reduce.
    p.intra_node = {fit("all_reduce", 8, 20e-6, 200e9), fit("all_gather", 8, 12e-6, 300e9),
                    fit("reduce_scatter", 8, 14e-6, 280e9)};
    Network net;
    REQUIRE(make_network(hopper_node(true), 1, &p, net));
    const double s = 1e9;
    CHECK_REL(all_gather_s(net.intra, 8, s), 12e-6 + s / 300e9, 1e-12);
    CHECK_REL(reduce_scatter_s(net.intra, 8, s), 14e-6 + s / 280e9, 1e-12);
    CHECK_REL(ring_all_reduce_s(net.intra, 8, s), 20e-6 + s / 200e9, 1e-12);
    // Without them both are derived from the all-reduce fit: the bus bandwidth through nccl-tests'
    // factors, α for 7 of the all-reduce's 14 ring steps.
    p.intra_node.resize(1);
    REQUIRE(make_network(hopper_node(true), 1, &p, net));
    const double bus = 200e9 * 2.0 * 7 / 8;
    CHECK_REL(all_gather_s(net.intra, 8, s), 10e-6 + 7.0 / 8 * s / bus, 1e-12);
    CHECK_REL(reduce_scatter_s(net.intra, 8, s), 10e-6 + 7.0 / 8 * s / bus, 1e-12);
}

TEST_CASE("a fit rescaled to another rank count keeps its alpha per ring step",
          "[calibration][engine]") {
    CalibrationProfile p;
    p.intra_node = {fit("all_reduce", 8, 21e-6, 200e9)};
    Network net;
    REQUIRE(make_network(hopper_node(true), 1, &p, net));
    // 4 ranks: 6 ring steps of the 14 measured at 8.
    const double bus = 200e9 * 2.0 * 7 / 8;
    CHECK_REL(ring_all_reduce_s(net.intra, 4, 1e6), 21e-6 * 6 / 14 + 2.0 * 3 / 4 * 1e6 / bus,
              1e-12);
    // Between hosts: the 16-rank fit's α becomes a per-step latency of α / 30.
    p.inter_node = {fit("all_reduce", 16, 60e-6, 40e9, 2)};
    REQUIRE(make_network(hopper_node(true), 2, &p, net));
    CHECK(net.inter_calibrated);
    CHECK_REL(net.inter.step_s, 60e-6 / 30, 1e-12);
}

TEST_CASE("a network measured over TCP sockets does not calibrate EFA nodes",
          "[calibration][engine]") {
    CalibrationProfile p;
    p.inter_node = {fit("all_reduce", 16, 200e-6, 5e9, 2)};
    p.inter_node_transport = "socket";
    Network net;
    REQUIRE(make_network(hopper_node(true), 2, &p, net));
    CHECK_FALSE(net.inter_calibrated);
    REQUIRE(make_network(hopper_node(false), 2, &p, net));
    CHECK(net.inter_calibrated);
}
