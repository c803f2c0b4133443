// Plain records returned by catalog queries. std::optional / empty string = unknown: the seed
// data leaves cells empty when no citable figure exists, and the UI shows those as "—".
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cp::catalog {

inline constexpr const char* kDefaultRegion = "us-east-1";

struct AcceleratorInfo {
    std::string id;   // canonical id: "A100-40GB", "Trainium1", "Inferentia2", ...
    std::string name; // display name, e.g. "A100-40GB (SXM4)"
    std::string vendor;
    bool is_gpu = true;          // Neuron (Trainium, Inferentia) and Gaudi are not GPUs
    bool inference_only = false; // Inferentia: training jobs do not run on it
    std::string form_factor;
    std::optional<double> memory_gib;
    std::string memory_type;
    std::optional<double> hbm_gbytes_per_s; // device memory bandwidth
    // Dense peaks in TFLOP/s (TOP/s for int8); nullopt = not published or not supported.
    std::optional<double> fp32_tflops;
    std::optional<double> tf32_tflops;
    std::optional<double> fp16_tflops;
    std::optional<double> bf16_tflops;
    std::optional<double> fp8_tflops;
    std::optional<double> int8_tops;
    std::string sparse_note;
    std::string intra_node_link;             // e.g. "NVLink 3 + NVSwitch"
    std::optional<double> link_gbytes_per_s; // as published (NVIDIA: bidirectional total)
    std::string host_link;                   // e.g. "PCIe Gen4 x16 (x8 link observed)"
    std::optional<double> tdp_w;
    std::string software_stack; // "CUDA", "Neuron SDK", "SynapseAI"
    std::string notes;
    std::string source;
    // Figures that are published estimates, not datasheet values ("bf16_tflops", "memory_gib",
    // ... as the column names above), and where the estimate comes from.
    std::vector<std::string> estimated_fields;
    std::string estimate_source;
    bool is_estimated(std::string_view field) const {
        for (const auto& f : estimated_fields)
            if (f == field) return true;
        return false;
    }
};

// One instance type with its prices in one region (the region asked for; us-east-1 default).
struct InstanceInfo {
    std::string instance_type; // "p4d.24xlarge"
    std::string family;        // "P4d"
    std::optional<int> vcpus;
    std::optional<double> memory_gib;
    std::string accelerator; // canonical accelerator id, "" when none
    int accelerator_count = 0;
    std::optional<double> accelerator_memory_gib_each;
    std::optional<double> network_gbps;          // headline figure
    bool network_is_up_to = false;               // headline is a burst ("up to") figure
    std::optional<double> network_baseline_gbps; // sustained figure
    std::optional<bool> efa;
    std::string intra_node_interconnect; // as published, e.g. "PCIe Gen4 (no NVLink)"
    std::optional<double> interconnect_gbytes_per_s_per_accel;
    std::string notes;
    std::string source;

    // Prices in `region` (current values: the newest per zone and kind).
    std::string region;
    std::optional<double> on_demand_usd_per_hour;
    std::string on_demand_as_of; // ISO 8601 (date or "YYYY-MM" for snapshots)
    std::optional<double> spot_usd_per_hour_min;
    std::optional<double> spot_usd_per_hour_max;
    std::string spot_as_of;                 // newest of the current spot prices
    std::optional<int> interruption_bucket; // Spot Advisor 0..4 (<5%, 5-10, 10-15, 15-20, >20%)
    std::optional<double> spot_savings_pct; // Spot Advisor savings over on-demand
    std::string price_as_of;                // on-demand date, else spot date
    std::optional<double> price_age_days;   // age of price_as_of today
};

struct InstanceFilter {
    std::string family;                  // case-insensitive match on family ("P4d", "g5"); "" = all
    std::string region = kDefaultRegion; // whose prices are reported
    bool require_price_in_region = false; // drop types with no price in `region`
};

struct PriceRow {
    std::string instance_type;
    std::string region;
    std::string zone; // "" = region-wide (e.g. the seed's min/max over zones)
    std::string kind; // "on_demand" | "spot"
    double usd_per_hour = 0;
    std::string as_of; // ISO 8601 UTC
    std::string source;
    std::string note;     // e.g. "min over us-east-1 zones (zones not recorded)"
    bool current = false; // newest for its (region, zone, kind)
    std::optional<double> age_days;
};

struct SpotAdvisorRow {
    std::string instance_type;
    std::string region;
    std::string os;                 // "Linux" | "Windows"
    int interruption_bucket = 0;    // 0..4
    std::string interruption_label; // "<5%", "5-10%", ...
    std::optional<double> savings_pct;
    std::string as_of;
    std::string source;
};

struct ScenarioRow {
    std::string name;
    std::string json;
    std::string saved_at;
};

// "<5%", "5-10%", "10-15%", "15-20%", ">20%" for buckets 0..4, "—" otherwise.
std::string interruption_label(int bucket);

} // namespace cp::catalog
