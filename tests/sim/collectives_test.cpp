// Alpha-beta collective formulas and group placement over nodes.
#include "engine/collectives.h"
#include "engine/model_constants.h"
#include "engine_fixtures.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <string_view>

using namespace cp;

TEST_CASE("ring collectives follow the alpha-beta formulas", "[engine]") {
    sim::LinkTier t;
    t.launch_s = 10e-6;
    t.step_s = 2e-6;
    t.bus_bytes_per_s = 100e9;
    t.small_ring_penalty = true;
    const double s = 1e9, n = 16;
    const double f = 1.0 - sim::model::kSmallRingPenalty / (n * n);
    CHECK_REL(sim::ring_all_reduce_s(t, 16, s),
              10e-6 + 2 * 15 * 2e-6 + 2 * 15.0 / 16 * s / (100e9 * f), 1e-12);
    CHECK_REL(sim::reduce_scatter_s(t, 16, s), 10e-6 + 15 * 2e-6 + 15.0 / 16 * s / (100e9 * f),
              1e-12);
    CHECK_REL(sim::tree_all_reduce_s(t, 16, s), 10e-6 + 2 * 4 * 2e-6 + 2 * s / 100e9, 1e-12);
    CHECK_REL(sim::p2p_s(t, s), 10e-6 + 2e-6 + s / 100e9, 1e-12);
    CHECK(sim::ring_all_reduce_s(t, 1, s) == 0);
    t.small_ring_penalty = false; // network rings: plain alpha-beta
    CHECK_REL(sim::ring_all_reduce_s(t, 2, s), 10e-6 + 2 * 2e-6 + s / 100e9, 1e-12);
    CHECK(sim::ring_all_reduce_s(t, 8, 0) == 0);
}

TEST_CASE("groups spanning nodes share the node's NICs", "[engine]") {
    const sim::Cluster c = test::a100_cluster(4, 1600);
    sim::Network net;
    REQUIRE(sim::make_network(c.node, c.nodes, nullptr, net));
    const double node_bus = 1600.0 / 8 * 1e9 * sim::model::kNetworkBusEfficiency;
    CHECK_REL(net.inter.bus_bytes_per_s, node_bus, 1e-12);
    // Inside a node: the NVSwitch tier.
    CHECK_REL(sim::group_tier(net, 8, 8).bus_bytes_per_s,
              300e9 * sim::model::kNvswitchBusEfficiency, 1e-12);
    // One rank per node (tp = 8 underneath): each GPU gets one NIC's share.
    CHECK_REL(sim::group_tier(net, 4, 1).bus_bytes_per_s, node_bus / 8, 1e-12);
    // All eight GPUs of each node in one ring: the whole node's NICs.
    CHECK_REL(sim::group_tier(net, 32, 8).bus_bytes_per_s, node_bus, 1e-12);
    CHECK_REL(sim::group_tier(net, 16, 4).bus_bytes_per_s, node_bus / 2, 1e-12);
}

TEST_CASE("an 8xH100 NVSwitch ring reaches ~370 GB/s bus bandwidth, an 8xA100 one ~230",
          "[engine]") {
    sim::Cluster c = test::a100_cluster(1, 3200);
    sim::Network net;
    REQUIRE(sim::make_network(c.node, c.nodes, nullptr, net));
    CHECK_REL(sim::group_tier(net, 8, 8).bus_bytes_per_s, 230e9, 0.02);
    c.node.accelerator.id = "H100-80GB";
    c.node.accelerator.link_gbytes_per_s = 450;
    c.node.intra_node_gbytes_per_s = 450;
    REQUIRE(sim::make_network(c.node, c.nodes, nullptr, net));
    CHECK_REL(sim::group_tier(net, 8, 8).bus_bytes_per_s, 370e9, 0.01);
}

TEST_CASE("a group on part of an NVLink mesh drives only the links to its peers", "[engine]") {
    // Four V100 SXM2 on point-to-point NVLink, two of each GPU's six links to each peer.
    sim::Cluster c = test::a100_cluster(2, 400);
    c.node.accelerators_per_node = 4;
    c.node.intra_link = sim::IntraNodeLink::nvlink;
    c.node.intra_node_gbytes_per_s = 150;
    sim::Network net;
    REQUIRE(sim::make_network(c.node, c.nodes, nullptr, net));
    const double node_bus = 150e9 * sim::model::kNvlinkBusEfficiency;
    CHECK_REL(sim::group_tier(net, 4, 4).bus_bytes_per_s, node_bus, 1e-12);
    CHECK_REL(sim::group_tier(net, 3, 3).bus_bytes_per_s, node_bus * 2 / 3, 1e-12);
    CHECK_REL(sim::group_tier(net, 2, 2).bus_bytes_per_s, node_bus / 3, 1e-12);
    // A node-spanning group with two ranks per node: its intra-node hop is one pair's links.
    CHECK(sim::group_tier(net, 4, 2).bus_bytes_per_s <= node_bus / 3);
    // Behind a switch every pair reaches the whole link rate.
    c.node.intra_link = sim::IntraNodeLink::nvswitch;
    REQUIRE(sim::make_network(c.node, c.nodes, nullptr, net));
    CHECK(sim::group_tier(net, 2, 2).bus_bytes_per_s == sim::group_tier(net, 4, 4).bus_bytes_per_s);
}

// The assumptions list is prose written next to the constants; it must not drift from them
// (it once kept saying 30 + 4 us after a refit).
TEST_CASE("the assumptions text states the collective latencies the model uses", "[engine]") {
    char expected[96];
    std::snprintf(expected, sizeof expected, "%g us per call + %g us per ring step",
                  sim::model::kCollectiveLaunchS * 1e6, sim::model::kNvlinkStepS * 1e6);
    bool found = false;
    for (const std::string_view line : sim::model::kAssumptions)
        found = found || line.find(expected) != std::string_view::npos;
    INFO("expected: " << expected);
    CHECK(found);
}
