// Collective communication cost by alpha-beta per network tier (Thakur, Rabenseifner & Gropp
// 2005; nccl-tests doc/PERFORMANCE.md), with group placement over nodes and calibrated fits.
#pragma once

#include "clusterplan/sim/calibration_profile.h"
#include "clusterplan/sim/hardware.h"

namespace cp::sim {

// One tier as seen by one collective group: t = launch + steps * step + wire_bytes / bus.
struct LinkTier {
    double launch_s = 0;                // fixed cost per collective call
    double step_s = 0;                  // latency of one ring/tree step
    double bus_bytes_per_s = 0;         // large-message bus bandwidth per rank ("busbw")
    const CollectiveFit* fit = nullptr; // calibrated all-reduce fit replacing the above
    // Calibrated all-gather / reduce-scatter fits (ZeRO-3/FSDP and sequence-parallel traffic);
    // without them those collectives are derived from the all-reduce fit or the model.
    const CollectiveFit* gather_fit = nullptr;
    const CollectiveFit* scatter_fit = nullptr;
    bool small_ring_penalty = false; // NVLink/NVSwitch rings of few GPUs (nccl-tests tables)
};

// The network a plan runs on: the intra-node fabric and each device's share of the node NICs.
struct Network {
    LinkTier intra; // within a node, per device
    LinkTier inter; // between nodes, the whole node's NICs (divide by sharing)
    int devices_per_node = 1;
    // Groups of more than `devices_per_socket` devices span CPU sockets; over host-staged PCIe
    // their ring runs at `cross_socket_bus_bytes_per_s` (0: no such limit).
    int devices_per_socket = 0;
    double cross_socket_bus_bytes_per_s = 0;
    // NVLink without a switch: each device's links are split over the node's other devices, so a
    // group of k of them on one node reaches only the links to its k - 1 peers.
    bool intra_point_to_point = false;
    bool intra_calibrated = false;
    bool inter_calibrated = false;
    // Compute slowdown while a collective runs beside it (overlap_contention.h).
    double overlap_slowdown = 0;
};

// Returns false when a figure the plan needs is unknown (NaN).
bool make_network(const NodeSpec& node, int nodes, const CalibrationProfile* calibration,
                  Network& out);

// Tier for a group of `ranks` devices with `local` of them on each node (the rest of the node's
// devices run other groups of the same kind at the same time and share its NICs).
LinkTier group_tier(const Network& net, int ranks, int local);

double ring_all_reduce_s(const LinkTier& tier, int ranks, double bytes);
double reduce_scatter_s(const LinkTier& tier, int ranks, double bytes);
double all_gather_s(const LinkTier& tier, int ranks, double bytes);
double tree_all_reduce_s(const LinkTier& tier, int ranks, double bytes);
double p2p_s(const LinkTier& tier, double bytes);
// All-to-all of `bytes` per rank over `ranks` ranks, `local` of them per node (MoE token dispatch
// and combine): the node-local share moves over the fabric while the rest crosses the node's NICs,
// which all of the node's devices use at once; the slower of the two sets the time.
double all_to_all_s(const Network& net, int ranks, int local, double bytes);

// The step time a collective of `comm_s` adds when it runs beside `compute_s` of compute: what
// the compute cannot cover, plus the slowdown of the compute it overlaps
// (model::kOverlapComputeSlowdown, an average per second of overlapped traffic).
double overlapped_comm_s(double comm_s, double compute_s);
// The same for a collective that slows the compute beside it by the fraction `slowdown` while it
// runs (Network::overlap_slowdown; a large one on Hopper, overlap_contention.h): the slowed
// compute finishes inside a longer collective, whose excess is exposed, or else loses
// comm_s * slowdown / (1 + slowdown) of progress.
double contended_overlap_s(double comm_s, double compute_s, double slowdown);

} // namespace cp::sim
