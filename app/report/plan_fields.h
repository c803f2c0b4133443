// Reading one plan's `simulate --json` document: the few fields the report needs beyond
// plain numbers (identity, layout text, explanation). Kept in one place so a change of the
// JSON layout touches one file.
#pragma once

#include <QString>
#include <QStringList>
#include <nlohmann/json.hpp>

namespace cp::report {

QString plan_instance(const nlohmann::ordered_json& plan); // "p4d.24xlarge" or "custom"
int plan_nodes(const nlohmann::ordered_json& plan);
int plan_devices(const nlohmann::ordered_json& plan);
QString plan_accelerator(const nlohmann::ordered_json& plan);
QString
plan_layout_text(const nlohmann::ordered_json& plan);  // "TP 8 · PP 2 · DP 8 · mb 1 · ZeRO-1"
bool plan_is_spot(const nlohmann::ordered_json& plan); // ranked on its spot purchase option
// Compact form for tables: "TP8 PP2 DP8 mb1 Z1 full" (ZeRO stage Z, recompute mode).
QString plan_layout_compact(const nlohmann::ordered_json& plan);
QString plan_short_label(const nlohmann::ordered_json& plan, int rank); // "#1 p4d.24xlarge ×16"
// The planner's reasons for and against this plan, in words.
QStringList plan_explanation(const nlohmann::ordered_json& plan);
QString
plan_limits(const nlohmann::ordered_json& plan); // what bounds it: memory, bubble, network...

// Whole-job figures for one purchase option (NaN when unknown). A tuning job's are for all
// its trials (the `tuning` block); on spot, wall time includes expected restarts and lost
// work. These are what a budget is set from, so headline, table and charts all use them.
double plan_job_hours(const nlohmann::ordered_json& plan, bool spot);
double plan_job_cost_usd(const nlohmann::ordered_json& plan, bool spot);
// Expected spot interruptions of one run; NaN when the plan has no spot price (custom
// hardware, unpriced instance), where "interruptions" would mean nothing.
double plan_spot_interruptions(const nlohmann::ordered_json& plan);
int plan_trials(const nlohmann::ordered_json& plan); // 1 unless a tuning job

} // namespace cp::report
