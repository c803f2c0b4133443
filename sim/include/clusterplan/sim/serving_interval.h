// How sure a serving figure is: the prediction interval of prediction_interval.h (one rule for
// training and serving) over the leave-one-source-out residuals of the published serving runs,
// bucketed by engine x accelerator generation, Mixture-of-Experts models apart from dense ones.
// Throughput, time to first token and the per-step time err differently (TTFT carries the queue, a
// step time does not), so each has its own table.
#pragma once

#include "clusterplan/sim/prediction_interval.h"
#include "clusterplan/sim/serving_fit.h"

#include <string_view>
#include <vector>

namespace cp::sim {

// The kind of figure a published run measured, and the interval it informs.
enum class ServingFigure {
    throughput, // output tokens/s or samples/s; also cost per 1M (cost per hour over throughput)
    ttft,       // time to first token: prefill plus the wait for a batch slot
    step,       // time per output token, or an encoder's/CNN's latency per batch
};
inline constexpr int kServingFigureCount = 3;
const char* enum_name(ServingFigure figure);
ServingFigure serving_figure(ServingMetric metric);

// A serving plan's ranges (multipliers of predicted times; rates use rate_range).
struct ServingIntervals {
    PredictionInterval throughput;
    PredictionInterval ttft;
    PredictionInterval step;
};

// The committed tables (serving_interval_table.cpp), regenerated and checked by the serving
// validation test from the bundled runs.
const std::vector<ResidualBucket>& serving_residual_buckets(ServingFigure figure);

// The bucket family of an engine's runs: the engine's name for dense models, "<engine> moe" for
// Mixture-of-Experts models. Routing, token permutation and the expert GEMMs (each engine's own
// MoE kernels, NxD's static-shape expert dispatch on Neuron) are work a dense model has none of,
// so an MoE run's misses say nothing about a dense plan's and the other way round.
std::string_view serving_bucket_family(ServingEngine engine, bool moe);
// Whether a workload's figures belong to the Mixture-of-Experts buckets.
bool routes_experts(const Workload& workload);

ServingIntervals serving_intervals(ServingEngine engine, AcceleratorGeneration generation,
                                   bool moe);

// Buckets of measured / predicted time (a rate's predicted / measured) of `checks` whose figure
// is `figure`, each run predicted with its own source left out of the fit.
std::vector<ResidualBucket>
compute_serving_residual_buckets(const std::vector<ServingRunCheck>& checks,
                                 const NodeResolver& resolve, ServingFigure figure);

} // namespace cp::sim
