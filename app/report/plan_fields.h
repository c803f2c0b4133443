// What the report says about one ranked plan, from the typed plan (sim::PlanReport) rather than
// from JSON paths: layout text, labels, whole-job figures and what limits it. ReportData keeps
// each plan as its `simulate --json` document (the export contract); report_plans() reads them
// back once (sim::plan_report_from_json, beside the writer).
#pragma once

#include "clusterplan/sim/planner.h"
#include "report_data.h"

#include <QString>
#include <vector>

namespace cp::report {

// data.plans as typed plans, in rank order.
std::vector<sim::PlanReport> report_plans(const ReportData& data);

QString plan_layout_text(const sim::PlanReport& plan); // "TP 8 · PP 2 · DP 8 · mb 1 · ZeRO-1"
// Compact form for tables: "TP8 PP2 DP8 mb1 Z1 full" (ZeRO stage Z, recompute mode).
QString plan_layout_compact(const sim::PlanReport& plan);
QString plan_short_label(const sim::PlanReport& plan, int rank); // "#1 p4d.24xlarge ×16"
// What bounds it (memory, bubble, network...) when the planner gave no limits of its own.
QString plan_limits(const sim::PlanReport& plan);

// Whole-job figures for one purchase option (NaN when unknown). A tuning job's are for all
// its trials; on spot, wall time includes expected restarts and lost work. These are what a
// budget is set from, so headline, table and charts all use them.
double plan_job_hours(const sim::PlanReport& plan, bool spot);
double plan_job_cost_usd(const sim::PlanReport& plan, bool spot);
// Expected spot interruptions of one run; NaN when the plan has no spot price (custom
// hardware, unpriced instance), where "interruptions" would mean nothing.
double plan_spot_interruptions(const sim::PlanReport& plan);
// "80 % of comparable runs within 32.5–38.8 days; $1,923–$2,294 (megatron / ampere: 18 measured
// runs from 2 sources)" for the plan's own purchase option; empty for an invalid plan.
QString plan_range_text(const sim::PlanReport& plan);
// Tokens/s for transformers, samples/s for generic models, as `data.throughput_unit` says.
double plan_throughput(const sim::PlanReport& plan, const ReportData& data);

} // namespace cp::report
