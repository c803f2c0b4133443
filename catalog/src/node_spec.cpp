// Conversion of catalog rows to the simulator's hardware types. Conventions (sim/hardware.h):
// intra-node bandwidth is per accelerator and unidirectional; unknown = NaN.
#include "clusterplan/catalog/catalog.h"
#include "text_util.h"

#include <algorithm>
#include <cmath>

namespace cp::catalog {

using detail::icontains;

sim::IntraNodeLink parse_intra_node_link(std::string_view text, int accelerator_count) {
    if (accelerator_count <= 1) return sim::IntraNodeLink::none;
    // Order matters: "NVLink 3 + NVSwitch" is a switch fabric; "PCIe Gen4 (no NVLink)" is PCIe.
    if (icontains(text, "no NVLink") || icontains(text, "PCIe")) return sim::IntraNodeLink::pcie;
    if (icontains(text, "NVSwitch")) return sim::IntraNodeLink::nvswitch;
    if (icontains(text, "NVLink")) return sim::IntraNodeLink::nvlink;
    if (icontains(text, "NeuronLink")) return sim::IntraNodeLink::neuronlink;
    if (icontains(text, "RoCE")) return sim::IntraNodeLink::rocem;
    // Several accelerators and no named fabric: they can only talk through the host's PCIe.
    return sim::IntraNodeLink::pcie;
}

namespace {

double or_nan(const std::optional<double>& v) {
    return v ? *v : sim::kUnknown;
}

// "GPUs on 2 CPU sockets" in the interconnect text: the sockets the accelerators are spread
// over (g5.48xlarge: aws/aws-ofi-nccl topology/g5.48xl-topo.xml); one when not stated.
int accelerator_sockets(std::string_view interconnect) {
    constexpr std::string_view kMarker = " CPU sockets";
    for (std::size_t at = 0; at + kMarker.size() <= interconnect.size(); ++at) {
        if (!icontains(interconnect.substr(at, kMarker.size()), kMarker)) continue;
        std::size_t begin = at;
        while (begin > 0 && interconnect[begin - 1] >= '0' && interconnect[begin - 1] <= '9')
            --begin;
        if (begin == at || at - begin > 2) return 1;
        int sockets = 0;
        for (std::size_t i = begin; i < at; ++i)
            sockets = 10 * sockets + (interconnect[i] - '0');
        return std::max(1, sockets);
    }
    return 1;
}

// PCIe per-direction payload rate of an x8 link, GB/s: PCIe 3.0 8 GT/s, 4.0 16 GT/s,
// 5.0 32 GT/s per lane with 128b/130b encoding (PCI-SIG base specifications), i.e.
// 0.985 / 1.969 / 3.938 GB/s per lane. x8 because that is the link width observed on the
// multi-GPU G instances (catalog/data: A10G "x8 link observed"; DESIGN.md).
double pcie_x8_gbytes_per_s(std::string_view interconnect, std::string_view host_link) {
    auto gen = [](std::string_view t) -> int {
        if (icontains(t, "Gen5")) return 5;
        if (icontains(t, "Gen4")) return 4;
        if (icontains(t, "Gen3")) return 3;
        return 0;
    };
    int g = gen(interconnect);
    if (g == 0) g = gen(host_link);
    switch (g) {
    case 3:
        return 8.0 * 8.0 * 128.0 / 130.0 / 8.0;
    case 4:
        return 8.0 * 16.0 * 128.0 / 130.0 / 8.0;
    case 5:
        return 8.0 * 32.0 * 128.0 / 130.0 / 8.0;
    default:
        return sim::kUnknown;
    }
}

// The accelerator's host link (what offloaded state crosses), per direction, from the catalog's
// host_link: x16 unless a narrower link is stated or observed ("PCIe Gen4 x16 (x8 link
// observed)"); NVIDIA's SXM and PCIe data-centre parts all attach at x16 (datasheets: A100
// "PCIe Gen4 64 GB/s", H100 SXM "PCIe Gen5 128 GB/s", both directions).
double host_link_gbytes_per_s(std::string_view host_link) {
    const double x8 = pcie_x8_gbytes_per_s("", host_link);
    if (!sim::is_known(x8)) return sim::kUnknown;
    const bool narrow = icontains(host_link, "x8 link") ||
                        (icontains(host_link, "x8") && !icontains(host_link, "x16"));
    return narrow ? x8 : 2.0 * x8;
}

// Vendors quote NVLink (and, we assume, NeuronLink) per device as the bidirectional total:
// A100 "600 GB/s" = 12 NVLink-3 links x 25 GB/s x 2 directions (NVIDIA A100 datasheet and
// architecture whitepaper). The simulator wants one direction, so halve those. Gaudi's figure
// in the seed (87.5 GB/s = 7 x 100 GbE) is already per direction (Ethernet is full duplex).
double unidirectional(sim::IntraNodeLink link, double published_gbytes_per_s) {
    if (!sim::is_known(published_gbytes_per_s)) return sim::kUnknown;
    switch (link) {
    case sim::IntraNodeLink::nvswitch:
    case sim::IntraNodeLink::nvlink:
    case sim::IntraNodeLink::neuronlink:
        return published_gbytes_per_s / 2.0;
    default:
        return published_gbytes_per_s;
    }
}

} // namespace

sim::AcceleratorSpec to_accelerator_spec(const AcceleratorInfo& a) {
    sim::AcceleratorSpec s;
    s.id = a.id;
    s.vendor = a.vendor;
    s.is_gpu = a.is_gpu;
    s.can_train = !a.inference_only;
    // AWS's own accelerators train through the Neuron SDK, which offers ZeRO-1 only.
    if (a.vendor == "AWS") s.max_zero_stage = 1;
    if (a.vendor == "AWS" || a.vendor.starts_with("Habana")) s.eager_kernel_issue = false;
    s.peak_tflops[static_cast<int>(sim::Precision::fp32)] = or_nan(a.fp32_tflops);
    s.peak_tflops[static_cast<int>(sim::Precision::tf32)] = or_nan(a.tf32_tflops);
    s.peak_tflops[static_cast<int>(sim::Precision::fp16)] = or_nan(a.fp16_tflops);
    s.peak_tflops[static_cast<int>(sim::Precision::bf16)] = or_nan(a.bf16_tflops);
    s.peak_tflops[static_cast<int>(sim::Precision::fp8)] = or_nan(a.fp8_tflops);
    s.int8_tops = or_nan(a.int8_tops);
    s.tdp_w = or_nan(a.tdp_w);
    // NVIDIA datasheets list every tensor precision a part has: with the fp16 figure known, a
    // precision without one is missing math (no bf16/tf32 before Ampere, no fp8 before
    // Ada/Hopper; NVIDIA V100, T4, A100 datasheets), not an unknown figure.
    if (a.is_gpu && a.fp16_tflops)
        for (int i = 0; i < sim::kPrecisionCount; ++i)
            s.precision_unsupported[i] = !sim::is_known(s.peak_tflops[i]);
    static const char* const peak_fields[sim::kPrecisionCount] = {
        "fp32_tflops", "tf32_tflops", "fp16_tflops", "bf16_tflops", "fp8_tflops"};
    for (int i = 0; i < sim::kPrecisionCount; ++i)
        s.peak_estimated[i] = a.is_estimated(peak_fields[i]);
    s.memory_estimated = a.is_estimated("memory_gib");
    s.hbm_estimated = a.is_estimated("hbm_gbytes_per_s");
    s.estimate_source = a.estimate_source;
    s.memory_gib = or_nan(a.memory_gib);
    s.hbm_gbytes_per_s = or_nan(a.hbm_gbytes_per_s);
    const auto link = parse_intra_node_link(a.intra_node_link, 2);
    s.link_gbytes_per_s =
        a.link_gbytes_per_s ? unidirectional(link, *a.link_gbytes_per_s) : sim::kUnknown;
    return s;
}

sim::NodeSpec to_node_spec(const InstanceInfo& in, const AcceleratorInfo* acc) {
    sim::NodeSpec n;
    n.instance_type = in.instance_type;
    if (acc)
        n.accelerator = to_accelerator_spec(*acc);
    else
        n.accelerator.id = in.accelerator;
    // The instance may carry less memory per device than the chip's datasheet maximum.
    if (in.accelerator_memory_gib_each) {
        n.accelerator.memory_gib = *in.accelerator_memory_gib_each;
        n.accelerator.memory_estimated = false; // the instance's own published figure
    }
    n.accelerators_per_node = std::max(in.accelerator_count, 1);
    n.intra_link = parse_intra_node_link(in.intra_node_interconnect, in.accelerator_count);
    switch (n.intra_link) {
    case sim::IntraNodeLink::none:
        n.intra_node_gbytes_per_s = sim::kUnknown;
        break;
    case sim::IntraNodeLink::pcie:
        n.intra_node_gbytes_per_s =
            pcie_x8_gbytes_per_s(in.intra_node_interconnect, acc ? acc->host_link : "");
        // "no GPU P2P": the GPUs sit under separate host bridges with peer access refused, so
        // collectives stage through host memory (catalog/data/README.md names the sources).
        n.pcie_peer_access = !icontains(in.intra_node_interconnect, "no GPU P2P");
        n.accelerator_sockets = accelerator_sockets(in.intra_node_interconnect);
        break;
    default: {
        double published =
            in.interconnect_gbytes_per_s_per_accel
                ? *in.interconnect_gbytes_per_s_per_accel
                : (acc && acc->link_gbytes_per_s ? *acc->link_gbytes_per_s : sim::kUnknown);
        n.intra_node_gbytes_per_s = unidirectional(n.intra_link, published);
    }
    }
    // NeuronLink chips in a 2D torus: trn1.32xlarge's 16 Trainium chips (AWS Neuron docs,
    // general/arch/neuron-features/collective-communication.rst, "Trn1.32xl 2D torus topology";
    // its "4D-HyperCube" is the same graph, a 4 x 4 torus) and trn2.48xlarge's 4 x 4.
    if (n.intra_link == sim::IntraNodeLink::neuronlink &&
        (icontains(in.intra_node_interconnect, "torus") ||
         icontains(in.intra_node_interconnect, "HyperCube"))) {
        const int side = static_cast<int>(std::lround(std::sqrt(double(n.accelerators_per_node))));
        if (side * side == n.accelerators_per_node && side > 1) n.intra_torus_side = side;
    }
    // A training run outlasts any burst credit, so "up to" types count at their baseline; the
    // baseline also stands in when no headline figure is known.
    n.inter_node_gbps = or_nan(in.network_is_up_to || !in.network_gbps ? in.network_baseline_gbps
                                                                       : in.network_gbps);
    n.efa = in.efa;
    n.host_memory_gib = or_nan(in.memory_gib);
    if (acc) n.host_link_gbytes_per_s = host_link_gbytes_per_s(acc->host_link);
    n.usd_per_node_hour_on_demand = or_nan(in.on_demand_usd_per_hour);
    n.usd_per_node_hour_spot = or_nan(in.spot_usd_per_hour_min);
    n.spot_interruption_bucket = in.interruption_bucket.value_or(-1);
    n.spot_advisor_known = in.interruption_bucket.has_value();
    n.price_as_of = in.on_demand_as_of;
    return n;
}

std::optional<sim::AcceleratorSpec> Catalog::accelerator_spec(std::string_view id) const {
    const auto a = accelerator(id);
    if (!a) return std::nullopt;
    return to_accelerator_spec(*a);
}

std::optional<sim::NodeSpec> Catalog::node_spec(std::string_view type, std::string_view region,
                                                const sim::SpotPriceRule& rule) const {
    const auto in = instance(type, region);
    if (!in) return std::nullopt;
    const auto acc = accelerator(in->accelerator);
    auto node = to_node_spec(*in, acc ? &*acc : nullptr);
    apply_purchase_prices(node, region, rule);
    return node;
}

namespace {
bool has_training_peak(const sim::AcceleratorSpec& a) {
    for (double p : a.peak_tflops)
        if (sim::is_known(p)) return true;
    return false;
}
} // namespace

std::vector<sim::NodeSpec> Catalog::trainable_node_specs(std::string_view region,
                                                         const sim::SpotPriceRule& rule) const {
    std::vector<sim::NodeSpec> out;
    InstanceFilter filter;
    filter.region = std::string(region);
    for (const auto& in : instances(filter)) {
        const auto acc = accelerator(in.accelerator);
        if (!acc || acc->inference_only) continue;
        auto node = to_node_spec(in, &*acc);
        if (!has_training_peak(node.accelerator)) continue;
        apply_purchase_prices(node, region, rule);
        out.push_back(std::move(node));
    }
    return out;
}

} // namespace cp::catalog
