// Wall time and cost of a training job on demand and on spot, and of a hyper-parameter tuning
// job made of many such trials (DESIGN.md "Cost and spot"). Pure arithmetic, cheap enough to
// run for every plan of a sweep.
#pragma once

#include "clusterplan/sim/hardware.h"
#include "clusterplan/sim/purchase_options.h"
#include "clusterplan/sim/scenario.h"

#include <string>
#include <vector>

namespace cp::sim {

inline constexpr double kSpotNoticeS = 120.0; // AWS two-minute interruption notice
inline constexpr int kUnknownSpotBucket = -1;
// Bucket used when the Spot Advisor has no figure: the worst (>20%), to stay conservative.
inline constexpr int kConservativeSpotBucket = 4;

// Per-instance interruption rate (per hour) for a Spot Advisor bucket 0..4 (unknown -> bucket 4).
// Conversion (an assumption, stated in every report): the bucket's midpoint share f of capacity
// reclaimed per month (2.5, 7.5, 12.5, 17.5, 25 %) is the probability that one instance is
// reclaimed within 30 days, so the rate is -ln(1 - f) / 720 h.
double spot_interruptions_per_node_hour(int bucket);
std::string spot_bucket_label(int bucket); // "<5%", "5-10%", ... or "unknown"

struct SpotEstimate {
    bool priced = false;              // spot price known
    bool feasible = false;            // the job makes progress between interruptions
    double cluster_rate_per_hour = 0; // nodes × per-instance rate
    double mtbf_h = 0;                // 1 / cluster rate
    double checkpoint_interval_s = 0; // Young/Daly sqrt(2·C·MTBF); 0 = checkpoint on notice
    double expected_interruptions = 0;
    double overhead_h = 0;      // checkpoints + restarts + lost work
    double wall_time_h = 0;     // expected
    double cost_usd = kUnknown; // expected
};

struct JobEconomics {
    double samples_total = 0;   // training samples of one trial
    double steps = 0;           // optimizer steps of one trial
    double time_to_train_h = 0; // one trial, on demand, no interruptions
    double cost_usd = kUnknown; // one trial on demand (NaN: price unknown)
    SpotEstimate spot;          // one trial on spot
    CommittedCosts committed;   // one trial as a Capacity Block or on reserved rates
    StorageCost storage;        // optional checkpoint storage line
};

struct HpoEstimate {
    int trials = 1;
    int max_parallel_trials = 1;
    int waves = 1;          // ceil(trials / parallel)
    int peak_nodes = 0;     // nodes held at once
    double wall_time_h = 0; // on demand
    double cost_usd = kUnknown;
    double spot_wall_time_h = kUnknown;
    double spot_cost_usd = kUnknown;
};

// Training samples one trial processes (tokens / seq_len, samples, or epochs × dataset).
double training_samples(const Scenario& scenario);

// Time and cost of one trial given the step time. `node` supplies prices and the spot bucket.
JobEconomics job_economics(const Scenario& scenario, const NodeSpec& node, int nodes,
                           double step_time_s);
SpotEstimate spot_estimate(const SpotSpec& spot, const NodeSpec& node, int nodes,
                           double work_time_h);
HpoEstimate hpo_estimate(const TrainingSpec& training, int nodes, const JobEconomics& job);

// The sentences that explain the cost and spot model, for a report's assumptions list.
std::vector<std::string> cost_assumptions(const Scenario& scenario, const NodeSpec& node);

} // namespace cp::sim
