// JSON form of plan reports, sweeps and recommendations: the one serialisation that the CLI
// (`--json`), the GUI (export) and the report generator share, so all show identical numbers.
// Unknown figures (NaN) become null.
#pragma once

#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/recommend.h"
#include "clusterplan/sim/search.h"

#include <nlohmann/json.hpp>

namespace cp::sim {

// Everything DESIGN.md lists for `simulate --json` (step_time_s, breakdown_s, memory_gib,
// layout, assumptions, calibration ...).
nlohmann::ordered_json plan_report_json(const PlanReport& report);
// Every purchase option of one plan side by side (on demand, spot with its price basis and
// range, Capacity Block, reserved) and the optional storage line.
nlohmann::ordered_json purchase_options_json(const NodeSpec& node, const JobEconomics& job);
// The accelerator figures that are published estimates ("bf16_tflops", "memory_gib", ...).
nlohmann::ordered_json estimated_figures_json(const AcceleratorSpec& accelerator);
// The "purchase" name of a plan ("on_demand", "spot", "capacity_block", ...).
const char* purchase_name(bool spot, PurchaseKind kind);
// One swept option, compact (no assumptions), for long lists.
nlohmann::ordered_json option_json(const Scenario& scenario, const SweepResult& sweep,
                                   const PlanOption& option);
// `sweep --json`: evaluated, elapsed_s, per-instance counts, the best `top_n` plans and the Pareto
// front.
nlohmann::ordered_json sweep_json(const Scenario& scenario, const SweepResult& sweep,
                                  const Ranking& ranking, int top_n);
// `recommend --json`: ranked choices with reasons and limits, the Pareto front, what was excluded.
nlohmann::ordered_json recommend_json(const Scenario& scenario, const RecommendResult& result);

} // namespace cp::sim
