// Shared helpers for the engine tests: the published runs' hardware and a tiny CSV reader.
#pragma once

#include "clusterplan/sim/step_model.h"

#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace cp::test {

// NVIDIA A100-80GB SXM (datasheet): 312 TFLOP/s dense fp16/bf16, 2039 GB/s HBM, 80 GiB, NVSwitch
// at 300 GB/s per GPU per direction, 8 per node; `inter_node_gbps` is the node's NIC total.
inline sim::Cluster a100_cluster(int nodes, double inter_node_gbps) {
    sim::Cluster c;
    c.nodes = nodes;
    sim::NodeSpec& n = c.node;
    n.instance_type = "custom";
    n.accelerator.id = "A100-80GB";
    n.accelerator.vendor = "NVIDIA";
    n.accelerator.peak_tflops = {19.5, 156, 312, 312, sim::kUnknown};
    n.accelerator.precision_unsupported[static_cast<int>(sim::Precision::fp8)] = true;
    n.accelerator.memory_gib = 80;
    n.accelerator.hbm_gbytes_per_s = 2039;
    n.accelerator.link_gbytes_per_s = 300;
    n.accelerators_per_node = 8;
    n.intra_link = sim::IntraNodeLink::nvswitch;
    n.intra_node_gbytes_per_s = 300;
    n.inter_node_gbps = inter_node_gbps;
    n.inter_node_latency_us = 5;
    return c;
}

// p5.48xlarge / DGX-H100-like node: H100 SXM datasheet (989 dense bf16, 1979 fp8 TFLOP/s,
// 3350 GB/s, 80 GiB), NVSwitch at 450 GB/s per GPU, 3200 Gb/s between nodes.
inline sim::Cluster h100_cluster(int nodes) {
    sim::Cluster c = a100_cluster(nodes, 3200);
    c.node.accelerator.id = "H100-80GB";
    c.node.accelerator.peak_tflops = {67, 494.5, 989, 989, 1979};
    c.node.accelerator.precision_unsupported = {};
    c.node.accelerator.hbm_gbytes_per_s = 3350;
    c.node.accelerator.link_gbytes_per_s = 450;
    c.node.intra_node_gbytes_per_s = 450;
    return c;
}

// The same A100 node as a catalog instance with made-up round prices and a Spot Advisor bucket.
inline sim::NodeSpec priced_a100_node(const std::string& type = "test.a100", double od = 32.0,
                                      double spot = 12.0, int bucket = 1) {
    sim::NodeSpec n = a100_cluster(1, 400).node;
    n.instance_type = type;
    n.efa = true;
    n.usd_per_node_hour_on_demand = od;
    n.usd_per_node_hour_spot = spot;
    n.spot_interruption_bucket = bucket;
    n.price_as_of = "2025-08";
    return n;
}

inline sim::Workload gpt(int layers, int hidden, int heads, int seq_len = 2048, int vocab = 51200) {
    sim::Workload w;
    w.name = "gpt";
    w.kind = sim::WorkloadKind::transformer;
    w.shape.layers = layers;
    w.shape.hidden = hidden;
    w.shape.heads = heads;
    w.shape.kv_heads = heads;
    w.shape.ffn_hidden = 4 * hidden;
    w.shape.seq_len = seq_len;
    w.shape.vocab = vocab;
    return w;
}

// Llama 3 8B at 8,192 tokens (GQA 8 KV heads, SwiGLU 14,336, 128K vocabulary).
inline sim::Workload llama3_8b(bool flash_attention) {
    sim::Workload w = gpt(32, 4096, 32, 8192, 128256);
    w.shape.kv_heads = 8;
    w.shape.ffn_hidden = 14336;
    w.shape.gated_mlp = true;
    w.shape.flash_attention = flash_attention;
    return w;
}

// The layout of a vTrain run (Megatron-DeepSpeed as vTrain ran it: 1F1B, full recompute, the
// data-parallel all-reduce after the backward pass, no gradient buckets) from the CSV's
// global batch, micro-batch, tp, dp and pp cells starting at `first` (the two CSVs differ only
// in where those columns start).
inline sim::Layout vtrain_layout(const std::vector<std::string>& row, std::size_t first) {
    sim::Layout l;
    l.global_batch = std::stoi(row[first]);
    l.micro_batch = std::stoi(row[first + 1]);
    l.tp = std::stoi(row[first + 6]);
    l.dp = std::stoi(row[first + 7]);
    l.pp = std::stoi(row[first + 8]);
    l.schedule = sim::Schedule::one_f_one_b;
    l.recompute = sim::Recompute::full;
    l.overlap_dp = false;
    return l;
}

using CsvRow = std::vector<std::string>;

// Reads a simple CSV (no quoted commas in the fields we use); the first row is the header.
inline std::vector<CsvRow> read_csv(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error("cannot open " + path);
    std::vector<CsvRow> rows;
    std::string line;
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.empty()) continue;
        CsvRow row;
        std::stringstream ss(line);
        std::string cell;
        while (std::getline(ss, cell, ','))
            row.push_back(cell);
        if (!line.empty() && line.back() == ',') row.emplace_back();
        rows.push_back(row);
    }
    return rows;
}

// Mean and max absolute percentage error over a set of rows.
struct ErrorStats {
    double sum = 0, max = 0;
    int count = 0;
    void add(double predicted, double measured) {
        const double e = 100.0 * std::abs(predicted - measured) / std::abs(measured);
        sum += e;
        max = std::max(max, e);
        ++count;
    }
    double mean() const { return count ? sum / count : 0.0; }
};

} // namespace cp::test
