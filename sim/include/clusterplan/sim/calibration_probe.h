// Reading `clusterplan.probe/1` documents (probes/schema/clusterplan.probe-1.md) and turning
// probe results or imported collective tables into a CalibrationProfile.
#pragma once

#include "clusterplan/sim/calibration_fit.h"
#include "clusterplan/sim/calibration_profile.h"
#include "clusterplan/sim/calibration_samples.h"
#include "clusterplan/sim/hardware.h"

#include <string>
#include <string_view>
#include <vector>

namespace cp::sim {

inline constexpr const char* kProbeSchema = "clusterplan.probe/1";

struct ProbeGpu {
    int index = 0;
    std::string name;
    std::string compute_capability;
    double memory_bytes = 0;
    std::string pci_bus_id;
};

struct ProbeGemmResult {
    std::string precision; // fp32, tf32, fp16, bf16, fp8
    int m = 0, n = 0, k = 0;
    double flops = 0; // 2·m·n·k
    double time_s = 0;
    double tflops = 0;
};

struct ProbeBandwidth {
    std::string
        what; // membw: "copy"/"triad"; pcie: "h2d"/"d2h"; p2p: "unidirectional"/"bidirectional"
    double bytes = 0;
    double time_s = 0;
    double gbytes_per_s = 0;
};

struct ProbeDocument {
    std::string hostname;
    std::string started_at;
    std::vector<std::pair<std::string, std::string>> versions;
    int rank = 0;
    int world_size = 1;
    std::vector<ProbeGpu> gpus;
    std::vector<ProbeGemmResult> gemm;
    std::vector<ProbeBandwidth> membw, pcie, p2p;
    std::vector<CollectiveTable> collectives; // one per collective measured
    std::vector<std::string> errors;          // probe sections that could not run
    std::vector<std::string> failed_sections; // names of the sections whose status is "failed"
    std::string status;                       // ok, partial, failed
    std::string instance_type;  // EC2 type from the host's DMI ("" = not EC2 / older probe)
    std::string product_name;   // DMI product name as read
    std::string nccl_transport; // efa, ib, socket, ofi or "" (not measured / unknown)
    int nodes = 1;              // hosts the NCCL section spanned
};

// The document in `text`: between the probe's marker lines when they are there (a saved copy of
// its stdout), else the whole text.
std::string_view probe_document_text(std::string_view text);

// Throws CalibrationInputError naming the field on a malformed document.
ProbeDocument parse_probe_json(std::string_view text, const std::string& source_name);

struct ProfileMeta {
    std::string name;
    std::string host;
    std::string instance_type;
    std::string accelerator;
    std::string measured_at;
    std::string source; // "probe", "nccl-tests"
};

// Whether the document's GPUs are those of `node` (calibration_matches on what it measured:
// the GPU name, the instance type DMI named, the GPUs seen in one host).
bool probe_describes(const ProbeDocument& doc, const NodeSpec& node);
CalibrationProfile profile_from_probe(const ProbeDocument& doc, ProfileMeta meta,
                                      const FitOptions& options = {});
CalibrationProfile profile_from_tables(const std::vector<CollectiveTable>& tables,
                                       const ProfileMeta& meta, const FitOptions& options = {});

} // namespace cp::sim
