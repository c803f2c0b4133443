// Measured hardware figures that replace datasheet defaults for one instance type.
// Filled by the calibration code from probe JSON or nccl-tests output.
#pragma once

#include "clusterplan/sim/job_calibration.h"

#include <string>
#include <utility>
#include <vector>

namespace cp::sim {

// t(S) = alpha_s + S / beta_bytes_per_s within [min_bytes, max_bytes).
struct AlphaBetaSegment {
    double min_bytes = 0;
    double max_bytes = 0;
    double alpha_s = 0;
    double beta_bytes_per_s = 0;
};

// One measured row kept next to the fit (the raw table), ascending bytes.
struct CollectiveRawPoint {
    double bytes = 0;
    double time_s = 0;
    double busbw_gbytes_per_s = 0;
};

// A collective's fitted cost on one network tier, in nccl-tests "algbw" terms of the
// message size S handed to the collective.
struct CollectiveFit {
    std::string collective; // "all_reduce", "all_gather", "reduce_scatter", "broadcast", "sendrecv"
    int ranks = 0;
    std::vector<AlphaBetaSegment> segments;
    int nodes = 1;                       // hosts taking part (1 = intra-node)
    std::vector<CollectiveRawPoint> raw; // measured table; interpolated inside its range
};

struct GemmPoint {
    double flops = 0;  // FLOPs of one GEMM
    double tflops = 0; // achieved
};

struct CalibrationProfile {
    std::string name;
    std::string source; // "datasheet", "probe", "nccl-tests"
    std::string host;
    std::string instance_type;
    std::string accelerator;
    std::string measured_at; // ISO date
    // Achieved GEMM throughput by size, per precision name ("bf16" ...); empty = datasheet curve.
    std::vector<std::pair<std::string, std::vector<GemmPoint>>> gemm;
    double hbm_gbytes_per_s = 0;           // 0 = datasheet
    std::vector<CollectiveFit> intra_node; // fitted over NVLink/PCIe within a node
    std::vector<CollectiveFit> inter_node;
    // Further measured figures (0 = not measured) and provenance.
    double pcie_h2d_gbytes_per_s = 0;
    double pcie_d2h_gbytes_per_s = 0;
    double p2p_gbytes_per_s = 0; // best unidirectional GPU-to-GPU copy
    std::vector<std::pair<std::string, std::string>> tool_versions; // e.g. {"nccl", "2.27.3"}
    // What the probe said about its own run: sections that failed ("nccl: ..."), kept with a
    // profile stored anyway (calibrate import --allow-partial), so the gap stays visible.
    std::vector<std::string> errors;
    std::string
        inter_node_transport; // network NCCL used between hosts: efa, ib, socket, "" unknown
    int gpus_per_node = 0;    // GPUs the probe drove in one host (0 = unknown)
    // Factors fitted on the user's own job logs (`calibrate import LOG --scenario S`); empty
    // for hardware probes.
    JobCalibration job;
};

} // namespace cp::sim
