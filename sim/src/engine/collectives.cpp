#include "engine/collectives.h"

#include "clusterplan/sim/calibration_lookup.h"
#include "clusterplan/sim/calibration_samples.h"
#include "engine/model_constants.h"

#include <algorithm>
#include <cmath>
#include <string_view>

namespace cp::sim {

namespace {

// The fit of `collective` whose rank count is closest to `ranks` (largest on ties).
const CollectiveFit* best_fit(const std::vector<CollectiveFit>& fits, std::string_view collective,
                              int ranks) {
    const CollectiveFit* best = nullptr;
    for (const auto& fit : fits) {
        if (fit.collective != collective || fit.ranks < 2 || fit.segments.empty()) continue;
        if (!best || std::abs(fit.ranks - ranks) < std::abs(best->ranks - ranks) ||
            (std::abs(fit.ranks - ranks) == std::abs(best->ranks - ranks) &&
             fit.ranks > best->ranks))
            best = &fit;
    }
    return best;
}

// Latency steps of one ring call over n ranks: 2(n-1) for all-reduce (reduce-scatter then
// all-gather), n-1 for all-gather and reduce-scatter (Thakur, Rabenseifner & Gropp 2005).
double ring_steps(std::string_view collective, double n) {
    return (collective == "all_reduce" ? 2.0 : 1.0) * (n - 1.0);
}

const AlphaBetaSegment& segment_for(const CollectiveFit& fit, double bytes) {
    for (const auto& seg : fit.segments)
        if (bytes >= seg.min_bytes && bytes < seg.max_bytes) return seg;
    return bytes < fit.segments.front().min_bytes ? fit.segments.front() : fit.segments.back();
}

// Measured all-reduce time log-log interpolated in the raw table; < 0 outside its range.
double raw_time_s(const CollectiveFit& fit, double bytes) {
    const auto& raw = fit.raw;
    if (raw.size() < 2 || bytes < raw.front().bytes || bytes > raw.back().bytes) return -1.0;
    // Binary search: measured tables hold ~1,000 sizes and this runs inside every sweep step.
    auto it = std::lower_bound(raw.begin() + 1, raw.end(), bytes,
                               [](const CollectiveRawPoint& p, double v) { return p.bytes < v; });
    if (it == raw.end()) return -1.0;
    const CollectiveRawPoint& a = *(it - 1);
    const CollectiveRawPoint& b = *it;
    if (!(a.bytes > 0 && a.time_s > 0 && b.time_s > 0 && b.bytes > a.bytes)) return -1.0;
    const double t = std::log(bytes / a.bytes) / std::log(b.bytes / a.bytes);
    return a.time_s * std::pow(b.time_s / a.time_s, t);
}

// Fitted time of `collective` at `bytes` over `ranks`, from a fit of `fit.collective` over
// `fit.ranks`: the bus bandwidth through nccl-tests' convention (busbw = algbw x factor), and α
// kept per ring step, so a fit rescaled to more ranks pays more steps. The measured table
// itself is used where it covers the exact case (same collective and ranks, size in range).
double fitted_time_s(const CollectiveFit& fit, std::string_view collective, int ranks,
                     double bytes) {
    if (ranks == fit.ranks && collective == fit.collective) {
        const double measured = raw_time_s(fit, bytes);
        if (measured > 0) return measured;
    }
    const AlphaBetaSegment& seg = segment_for(fit, bytes);
    const std::string name(collective);
    const double alpha =
        seg.alpha_s * ring_steps(collective, ranks) / ring_steps(fit.collective, fit.ranks);
    if (!(seg.beta_bytes_per_s > 0)) return alpha; // a latency-only regime
    const double bus = seg.beta_bytes_per_s * busbw_factor(fit.collective, fit.ranks);
    return alpha + busbw_factor(name, ranks) * bytes / bus;
}

double nvswitch_bus_efficiency(const AcceleratorSpec& accelerator) {
    return accelerator.is_hopper() ? model::kNvswitchBusEfficiencyHopper
                                   : model::kNvswitchBusEfficiency;
}

LinkTier datasheet_intra(const NodeSpec& node) {
    LinkTier t;
    t.launch_s = model::kCollectiveLaunchS;
    const double link = node.intra_node_gbytes_per_s * 1e9;
    switch (node.intra_link) {
    case IntraNodeLink::nvswitch:
        t.step_s = model::kNvlinkStepS;
        t.bus_bytes_per_s = link * nvswitch_bus_efficiency(node.accelerator);
        t.small_ring_penalty = true;
        break;
    case IntraNodeLink::nvlink:
    case IntraNodeLink::neuronlink:
        t.step_s = model::kNvlinkStepS;
        t.bus_bytes_per_s = link * model::kNvlinkBusEfficiency;
        t.small_ring_penalty = true;
        break;
    case IntraNodeLink::pcie:
        t.step_s = model::kPcieStepS;
        // Without peer access each ring hop is staged through a host buffer (NCCL's SHM
        // transport), which moves far less than a direct PCIe write of the same link.
        t.bus_bytes_per_s = link * (node.pcie_peer_access ? model::kPcieBusEfficiency
                                                          : model::kPcieHostStagedBusEfficiency);
        break;
    case IntraNodeLink::rocem:
    case IntraNodeLink::none:
        t.step_s = model::kPcieStepS;
        t.bus_bytes_per_s = link * model::kPcieBusEfficiency;
        break;
    }
    return t;
}

} // namespace

bool make_network(const NodeSpec& node, int nodes, const CalibrationProfile* calibration,
                  Network& out) {
    out = Network{};
    out.devices_per_node = std::max(1, node.accelerators_per_node);
    out.intra = datasheet_intra(node);
    out.overlap_slowdown = node.accelerator.is_hopper()
                               ? node.accelerator.overlap_contention.hopper_slowdown
                               : model::kOverlapComputeSlowdown;
    out.inter.launch_s = model::kCollectiveLaunchS;
    out.inter.step_s = node.inter_node_latency_us * 1e-6;
    out.inter.bus_bytes_per_s = node.inter_node_gbps / 8.0 * 1e9 * model::kNetworkBusEfficiency;
    if (calibration) {
        // All-gather and reduce-scatter fits where measured: with NVLink SHARP (NVLS, Hopper)
        // they differ from half an all-reduce.
        out.intra.gather_fit =
            best_fit(calibration->intra_node, "all_gather", out.devices_per_node);
        out.intra.scatter_fit =
            best_fit(calibration->intra_node, "reduce_scatter", out.devices_per_node);
        if (const CollectiveFit* fit =
                best_fit(calibration->intra_node, "all_reduce", out.devices_per_node)) {
            out.intra.fit = fit;
            const AlphaBetaSegment& big = fit->segments.back();
            out.intra.bus_bytes_per_s =
                big.beta_bytes_per_s * 2.0 * (fit->ranks - 1.0) / fit->ranks;
            out.intra_calibrated = true;
        }
        const CollectiveFit* fit = best_fit(calibration->inter_node, "all_reduce", 1 << 20);
        if (fit && inter_node_calibration_applies(*calibration, node)) {
            // Measured across hosts with every device of each host taking part: its large-message
            // busbw is what the node's NICs deliver to one node-spanning group. Its small-message
            // α is kept per ring step, so groups spanning more ranks pay more steps.
            const AlphaBetaSegment& big = fit->segments.back();
            out.inter.bus_bytes_per_s =
                big.beta_bytes_per_s * 2.0 * (fit->ranks - 1.0) / fit->ranks;
            out.inter.launch_s = 0;
            out.inter.step_s = fit->segments.front().alpha_s / ring_steps("all_reduce", fit->ranks);
            out.inter_calibrated = true;
        }
    }
    if (node.intra_link == IntraNodeLink::pcie && !node.pcie_peer_access &&
        node.accelerator_sockets > 1 && !out.intra_calibrated) {
        out.devices_per_socket = std::max(1, out.devices_per_node / node.accelerator_sockets);
        out.cross_socket_bus_bytes_per_s =
            node.intra_node_gbytes_per_s * 1e9 * model::kPcieHostStagedCrossSocketBusEfficiency;
    }
    // Calibrated nodes keep their measured whole-node collective, which no share applies to.
    out.intra_point_to_point = node.intra_link == IntraNodeLink::nvlink && !out.intra_calibrated;
    const bool need_intra = out.devices_per_node > 1;
    if (need_intra && !(is_known(out.intra.bus_bytes_per_s) && out.intra.bus_bytes_per_s > 0))
        return false;
    if (nodes > 1 && !(is_known(out.inter.bus_bytes_per_s) && out.inter.bus_bytes_per_s > 0))
        return false;
    if (nodes > 1 && !is_known(out.inter.step_s)) return false;
    return true;
}

namespace {

// Share of a device's intra-node links a group of `local` devices on one node can drive. On a
// point-to-point NVLink mesh the links run to fixed peers: a V100 SXM2's six NVLink 2.0 links go
// two to each of the three other GPUs of a 4-GPU board (BigScience's Jean Zay nodes: "50GBps
// intra-node connections", bigscience-workshop/bigscience@9e64ede jz/frameworks/megatron-lm.md,
// with NCCL's P2P/IPC rings over all three peers in experiments/bandwidth/
// n1_32gb_all_reduce_bench.txt), so a ring over k of n devices uses (k - 1) / (n - 1) of them.
// The 8-GPU V100 hybrid cube-mesh (NVIDIA DGX-1 with Tesla V100 whitepaper) gives each GPU four
// peers, not seven; the even split is the closest rule without a per-pair link table.
double mesh_share(const Network& net, int local) {
    if (!net.intra_point_to_point || net.devices_per_node <= 2 || local >= net.devices_per_node)
        return 1.0;
    return double(std::max(1, local - 1)) / double(net.devices_per_node - 1);
}

// Bus bandwidth inside a node for a group of `local` devices there: a group spanning CPU sockets
// over host-staged PCIe runs at the slower rate of the hops that cross them, and a group on part
// of an NVLink mesh at the share of the links that join its members.
double intra_bus_bytes_per_s(const Network& net, int local) {
    const double bus = net.intra.bus_bytes_per_s * mesh_share(net, local);
    if (net.devices_per_socket <= 0 || local <= net.devices_per_socket) return bus;
    return std::min(bus, net.cross_socket_bus_bytes_per_s);
}

} // namespace

LinkTier group_tier(const Network& net, int ranks, int local) {
    if (ranks <= local) {
        LinkTier t = net.intra;
        t.bus_bytes_per_s = intra_bus_bytes_per_s(net, ranks);
        return t;
    }
    // Spanning nodes: the group's share of the node NICs, limited by the intra-node fabric for
    // the hops inside a node; per-step latency is the slower hop's.
    LinkTier t;
    t.launch_s = std::max(net.intra.launch_s, net.inter.launch_s);
    t.step_s = std::max(local > 1 ? net.intra.step_s : 0.0, net.inter.step_s);
    const double nic_share =
        net.inter.bus_bytes_per_s * double(local) / double(net.devices_per_node);
    t.bus_bytes_per_s =
        local > 1 ? std::min(intra_bus_bytes_per_s(net, local), nic_share) : nic_share;
    return t;
}

namespace {

// Small rings reach a lower bus bandwidth than full ones (nccl-tests on DGX A100 NVSwitch at
// 1 GiB: 197, 222 and 229 GB/s busbw for 2, 4 and 8 GPUs): efficiency x (1 - c/n^2).
double small_ring_factor(const LinkTier& tier, int ranks) {
    if (!tier.small_ring_penalty) return 1.0;
    const double n = ranks;
    return 1.0 - model::kSmallRingPenalty / (n * n);
}

// One ring pass (reduce-scatter or all-gather: the same bytes in the same n-1 steps).
double ring_pass_s(const LinkTier& tier, int ranks, double bytes) {
    const double n = ranks;
    return tier.launch_s + (n - 1.0) * tier.step_s +
           (n - 1.0) / n * bytes / (tier.bus_bytes_per_s * small_ring_factor(tier, ranks));
}

} // namespace

double ring_all_reduce_s(const LinkTier& tier, int ranks, double bytes) {
    if (ranks <= 1 || bytes <= 0) return 0;
    if (tier.fit) return fitted_time_s(*tier.fit, "all_reduce", ranks, bytes);
    const double n = ranks;
    return tier.launch_s + 2.0 * (n - 1.0) * tier.step_s +
           2.0 * (n - 1.0) / n * bytes / (tier.bus_bytes_per_s * small_ring_factor(tier, ranks));
}

double reduce_scatter_s(const LinkTier& tier, int ranks, double bytes) {
    if (ranks <= 1 || bytes <= 0) return 0;
    if (tier.scatter_fit) return fitted_time_s(*tier.scatter_fit, "reduce_scatter", ranks, bytes);
    if (tier.fit) return fitted_time_s(*tier.fit, "reduce_scatter", ranks, bytes);
    return ring_pass_s(tier, ranks, bytes);
}

double all_gather_s(const LinkTier& tier, int ranks, double bytes) {
    if (ranks <= 1 || bytes <= 0) return 0;
    if (tier.gather_fit) return fitted_time_s(*tier.gather_fit, "all_gather", ranks, bytes);
    if (tier.fit) return fitted_time_s(*tier.fit, "all_gather", ranks, bytes);
    return ring_pass_s(tier, ranks, bytes);
}

double tree_all_reduce_s(const LinkTier& tier, int ranks, double bytes) {
    if (ranks <= 1 || bytes <= 0) return 0;
    // NCCL double binary tree: logarithmic latency, each rank moves ~2S at the link rate.
    const double n = ranks;
    return tier.launch_s + 2.0 * std::log2(n) * tier.step_s + 2.0 * bytes / tier.bus_bytes_per_s;
}

double p2p_s(const LinkTier& tier, double bytes) {
    if (bytes <= 0) return 0;
    return tier.launch_s + tier.step_s + bytes / tier.bus_bytes_per_s;
}

double all_to_all_s(const Network& net, int ranks, int local, double bytes) {
    if (ranks <= 1 || bytes <= 0) return 0;
    local = std::clamp(local, 1, ranks);
    const double n = ranks;
    // NCCL posts every pairwise send/receive of an all-to-all at once (grouped calls), so one
    // step latency per tier is paid, not one per peer.
    double latency_s = net.intra.launch_s + (local > 1 ? net.intra.step_s : 0.0);
    double intra_s = 0, inter_s = 0;
    if (local > 1)
        intra_s = (local - 1.0) / n * bytes / (net.intra.bus_bytes_per_s * mesh_share(net, local));
    if (ranks > local) {
        latency_s = std::max(latency_s, net.inter.launch_s + net.inter.step_s);
        inter_s = (n - local) / n * bytes / (net.inter.bus_bytes_per_s / net.devices_per_node);
    }
    return latency_s + std::max(intra_s, inter_s);
}

} // namespace cp::sim

namespace cp::sim {

double overlapped_comm_s(double comm_s, double compute_s) {
    const double hidden_s = std::clamp(comm_s, 0.0, std::max(0.0, compute_s));
    return std::max(0.0, comm_s - compute_s) + model::kOverlapComputeSlowdown * hidden_s;
}

double contended_overlap_s(double comm_s, double compute_s, double slowdown) {
    comm_s = std::max(0.0, comm_s);
    compute_s = std::max(0.0, compute_s);
    // While the collective runs the compute advances at 1 / (1 + slowdown) of its rate.
    if (comm_s >= compute_s * (1.0 + slowdown)) return comm_s - compute_s;
    return comm_s * slowdown / (1.0 + slowdown);
}

} // namespace cp::sim
