// A serving deployment planned end to end: the replica (engine, precision, devices, batch), how
// many replicas the request rate needs under the SLO, what they cost on demand and on spot, and
// the latency-throughput curve. Everything `clusterplan serve --json` reports (DESIGN.md).
#pragma once

#include "clusterplan/sim/calibration_profile.h"
#include "clusterplan/sim/serving.h"
#include "clusterplan/sim/serving_engine.h"
#include "clusterplan/sim/serving_interval.h"
#include "clusterplan/sim/workload.h"

#include <string>
#include <vector>

namespace cp::sim {

// What to serve and how (the scenario's model, its `serving` section and purchase option).
struct ServingRequest {
    std::string name;
    Workload workload;
    ServingSpec spec;
    bool spot = false; // rank on spot prices (cluster.pricing)
};

// One point of the latency-throughput curve of one replica.
struct ServingCurvePoint {
    double request_rate_per_s = 0;  // per replica
    double output_tokens_per_s = 0; // decoders; encoders/CNNs: samples/s
    double ttft_ms = 0, tpot_ms = 0, latency_ms = 0;
};

struct ServingSpot {
    int replicas_per_node = 1;         // replicas one instance holds
    int replicas_lost_per_reclaim = 1; // a reclaim takes out every replica on the instance
    int headroom_replicas = 0;         // extra replicas so one reclaim still meets the rate
    int nodes_with_headroom = 0;
    int interruption_bucket = -1;   // Spot Advisor bucket 0..4 (-1 unknown)
    double usd_per_hour = kUnknown; // with headroom
    double usd_per_million_output_tokens = kUnknown;
};

// The figures at the planned rate with the replica's capacity at either end of its throughput
// range (DESIGN.md "Serving near saturation"). Near capacity the queue and the running batch grow
// as 1/(1 - utilisation), so a capacity error of a few per cent moves TTFT and TPOT by tens of per
// cent: the plan says how far.
struct ServingLoadRange {
    bool known = false; // an online rate was planned
    double utilization_low = kUnknown, utilization_high = kUnknown;
    // high: +infinity where the slow end is past capacity (the queue grows without bound)
    double ttft_ms_low = kUnknown, ttft_ms_high = kUnknown;
    double tpot_ms_low = kUnknown, tpot_ms_high = kUnknown;
    bool may_overload = false; // the slow end of the capacity range is below the rate
};

struct ServingPlan {
    std::string scenario_name, instance, accelerator;
    bool neuron = false; // devices are NeuronCores
    ServingEngine engine = ServingEngine::tensorrt_llm;
    StorageType weights = StorageType::fp16, kv_cache = StorageType::fp16;
    Precision compute = Precision::fp16;
    int tp = 1, pp = 1, batch = 0, replicas = 1, nodes = 1;
    int devices = 0; // all replicas
    int devices_per_replica = 1;
    bool generation = true; // decoder LLM (else one forward per batch)
    int input_tokens = 0, output_tokens = 0;
    double request_rate_per_s = kUnknown;
    ServingSlo slo;
    // Per replica at the planned load (saturated when no rate is given).
    double ttft_ms = kUnknown, tpot_ms = kUnknown, e2e_latency_ms = kUnknown;
    double output_tokens_per_s = kUnknown; // one replica, at capacity
    double output_tokens_per_s_per_device = kUnknown;
    double requests_per_s = kUnknown;                       // one replica, at capacity
    double samples_per_s = kUnknown, latency_ms = kUnknown; // encoders/CNNs
    double running_batch = 0, utilization = 0;
    ServingLoadRange load_range;
    ServingStepBreakdown step;
    ServingMemoryGib memory;
    bool fits_in_memory = false;
    bool meets_slo = false;
    bool valid = false; // it runs (fits, supported, hardware known)
    ServingLimits limits;
    double usd_per_hour = kUnknown;                  // all nodes, on demand
    double usd_per_million_output_tokens = kUnknown; // encoders/CNNs: per million samples
    ServingSpot spot;
    std::string price_as_of;
    std::vector<ServingCurvePoint> curve;
    std::vector<std::string> assumptions;
    std::vector<std::string> searched; // spec fields the planner chose
    std::string validation;            // which published runs cover this engine (or unvalidated)
    // Ranges of the figures: engine x accelerator generation over the published runs' residuals.
    ServingIntervals intervals;
    // The figure ranked on: cost per hour of the purchase option that was asked for.
    double ranked_usd_per_hour(bool spot_prices) const {
        return spot_prices ? spot.usd_per_hour : usd_per_hour;
    }
};

// Plans the request on one instance type, searching what the spec leaves out (engine default,
// weights, tp, batch, replicas). Never throws for hardware that cannot serve: the plan says why.
ServingPlan plan_serving(const ServingRequest& request, const NodeSpec& node,
                         const ServingFactors& factors, const CalibrationProfile* calibration);

// Every instance in `nodes`, cheapest plan meeting the SLO first (then plans that miss it).
std::vector<ServingPlan> rank_serving(const ServingRequest& request,
                                      const std::vector<NodeSpec>& nodes,
                                      const ServingFactors& factors);

} // namespace cp::sim
