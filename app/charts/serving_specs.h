// Chart specs of serving deployments: latency against throughput as the request rate rises
// (each ranked choice's curve, with the SLO line), cost per million output tokens on demand and
// on spot, and what fills each device's memory (weights, KV cache, activations, reserve, free).
// The GUI's Serve page and the serving report draw what these return.
#pragma once

#include "chart_spec.h"
#include "clusterplan/sim/serving_plan.h"

#include <QString>
#include <vector>

namespace cp::charts {

// Which latency the curve chart shows for decoder LLMs (encoders and CNNs always show the
// batch latency).
enum class ServingLatency { ttft, tpot };

// "#1 g6.xlarge ×3" (rank 0: no number).
QString serving_plan_label(const sim::ServingPlan& plan, int rank);

// One line per replica configuration (in the order given, ranked first; larger sizes of a family
// running the same replica share the first one's line): latency against one replica's output
// tokens/s (samples/s for encoders and CNNs) from 10 % to 95 % of its capacity; the SLO limit
// as a horizontal line; the planned operating point of the first plan emphasised. Plans that
// cannot run are left out; at most `max_lines` lines.
ChartSpec serving_curve_spec(const std::vector<sim::ServingPlan>& plans, ServingLatency metric,
                             std::size_t max_lines = 5);

// Horizontal grouped bars per plan: USD per million output tokens (per million samples for
// encoders and CNNs) on demand and on spot with reclaim headroom. Unpriced plans are left out.
ChartSpec serving_cost_spec(const std::vector<sim::ServingPlan>& plans);

// Horizontal stacked bars per plan, GiB per device: weights, KV cache, activations, reserve and
// free (so each bar ends at the device's capacity).
ChartSpec serving_memory_spec(const std::vector<sim::ServingPlan>& plans);

} // namespace cp::charts
