// Hardware the planner plans on: a catalog instance with cluster.custom applied, or fully
// custom hardware, and whether its accelerators can train at all.
#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/precision_choice.h"

#include <algorithm>

namespace cp::sim {

NodeSpec apply_custom_hardware(const NodeSpec* base, const CustomHardware& custom,
                               const AcceleratorSpec* accelerator, const std::string& origin) {
    NodeSpec node;
    if (base) {
        node = *base;
    } else {
        node.instance_type = "custom";
        if (!accelerator)
            throw ScenarioError(
                origin, "cluster.custom.accelerator",
                "required for custom hardware (an accelerator id from the catalog)");
        if (custom.accelerators_per_node <= 0)
            throw ScenarioError(origin, "cluster.custom.accelerators_per_node",
                                "required for custom hardware");
        if (!is_known(custom.inter_node_gbps))
            throw ScenarioError(origin, "cluster.custom.inter_node_gbps",
                                "required for custom hardware");
    }
    if (accelerator) node.accelerator = *accelerator;
    apply_custom_figures(node.accelerator, custom);
    if (custom.accelerators_per_node > 0) node.accelerators_per_node = custom.accelerators_per_node;
    if (!base) {
        // Without an instance to copy from: a fabric if the accelerator has one, else PCIe.
        node.intra_link = node.accelerators_per_node == 1                ? IntraNodeLink::none
                          : is_known(node.accelerator.link_gbytes_per_s) ? IntraNodeLink::nvswitch
                                                                         : IntraNodeLink::pcie;
        node.intra_node_gbytes_per_s = node.accelerator.link_gbytes_per_s;
        node.efa = true;
    }
    if (is_known(custom.intra_node_gbytes_per_s))
        node.intra_node_gbytes_per_s = custom.intra_node_gbytes_per_s;
    if (is_known(custom.inter_node_gbps)) node.inter_node_gbps = custom.inter_node_gbps;
    if (is_known(custom.nvme_gbytes_per_s)) node.nvme_gbytes_per_s = custom.nvme_gbytes_per_s;
    if (is_known(custom.inter_node_latency_us))
        node.inter_node_latency_us = custom.inter_node_latency_us;
    if (is_known(custom.usd_per_node_hour)) {
        node.usd_per_node_hour_on_demand = custom.usd_per_node_hour;
        // Spot never bills above the on-demand price (AWS's default spot maximum price), so a
        // lower price given here caps the catalog's spot price too.
        if (is_known(node.usd_per_node_hour_spot))
            node.usd_per_node_hour_spot =
                std::min(node.usd_per_node_hour_spot, custom.usd_per_node_hour);
        node.price_as_of = "scenario";
    }
    if (node.intra_link != IntraNodeLink::none && node.accelerators_per_node > 1 &&
        !is_known(node.intra_node_gbytes_per_s))
        throw ScenarioError(origin, "cluster.custom.intra_node_gbytes_per_s",
                            "required: the intra-node bandwidth of " + node.accelerator.id +
                                " is unknown");
    return node;
}

std::string training_refusal(const Scenario& scenario, const NodeSpec& node) {
    if (!node.accelerator.can_train)
        return node.instance_type + " carries " + node.accelerator.id +
               " accelerators, which are built for inference, not training; choose a GPU, "
               "Trainium (trn1/trn2) or Gaudi (dl1) instance";
    // QLoRA's NF4 base weights and their dequantisation kernels come from bitsandbytes, which
    // runs on NVIDIA CUDA GPUs (bitsandbytes documentation); Neuron and Gaudi have no NF4 path.
    if (scenario.workload.finetune.method == TrainingMethod::qlora &&
        node.accelerator.vendor != "NVIDIA")
        return "QLoRA's 4-bit NF4 base weights need bitsandbytes on an NVIDIA GPU; " +
               node.instance_type + " carries " + node.accelerator.id +
               " (use training.method \"lora\" there)";
    return {};
}

} // namespace cp::sim
