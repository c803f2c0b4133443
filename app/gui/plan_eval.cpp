#include "plan_eval.h"

#include "catalog_service.h"
#include "clusterplan/catalog/catalog.h"
#include "clusterplan/service/planning.h"
#include "clusterplan/sim/planner.h"
#include "format.h"

#include <QCoreApplication>
#include <QObject>
#include <algorithm>
#include <cmath>
#include <exception>

namespace cp::gui {

namespace {
QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// The step-time part that costs most besides useful compute, for the verdict.
QString largest_overhead(const sim::PlanResult& r, double* share) {
    const std::pair<const char*, double> parts[] = {
        {QT_TRANSLATE_NOOP("plan", "activation recompute"), r.breakdown_s.recompute_s},
        {QT_TRANSLATE_NOOP("plan", "tensor-parallel communication"), r.breakdown_s.tp_comm_s},
        {QT_TRANSLATE_NOOP("plan", "the pipeline bubble"), r.breakdown_s.pp_bubble_s},
        {QT_TRANSLATE_NOOP("plan", "pipeline communication"), r.breakdown_s.pp_comm_s},
        {QT_TRANSLATE_NOOP("plan", "exposed gradient synchronisation"),
         r.breakdown_s.dp_comm_exposed_s},
        {QT_TRANSLATE_NOOP("plan", "the optimizer step"), r.breakdown_s.optimizer_s},
        {QT_TRANSLATE_NOOP("plan", "waiting for the host to issue kernels"),
         r.breakdown_s.host_overhead_s},
        {QT_TRANSLATE_NOOP("plan", "context-parallel communication"), r.breakdown_s.cp_comm_s},
        {QT_TRANSLATE_NOOP("plan", "the expert all-to-all"), r.breakdown_s.ep_comm_s},
        {QT_TRANSLATE_NOOP("plan", "offload transfers"), r.breakdown_s.offload_s},
    };
    const auto* best =
        std::max_element(std::begin(parts), std::end(parts),
                         [](const auto& a, const auto& b) { return a.second < b.second; });
    *share = r.step_time_s > 0 ? best->second / r.step_time_s : 0;
    return QCoreApplication::translate("plan", best->first);
}

QString verdict_for(const sim::PlanReport& p, const sim::Constraints& constraints, bool* ok) {
    const sim::PlanResult& r = p.result;
    if (!r.valid()) {
        *ok = false;
        return QObject::tr("This plan does not work: %1.")
            .arg(q(p.limit_reason.empty() ? sim::describe_limit(r) : p.limit_reason));
    }
    *ok = r.fits_in_memory; // a kept layout that may not fit is flagged
    QStringList s;
    if (r.fits_in_memory)
        s << QObject::tr("Fits in memory (%1 of %2 per device).")
                 .arg(fmt_gib(r.memory_gib.total), fmt_gib(r.memory_gib.capacity));
    else // a fixed layout kept within the memory model's error (see its assumptions)
        s << QObject::tr("May not fit in memory (%1 estimated of %2 per device, within the "
                         "memory model's error).")
                 .arg(fmt_gib(r.memory_gib.total), fmt_gib(r.memory_gib.capacity));
    const QString on_demand = QObject::tr("Training takes %1 on %2 × %3 and costs %4 on demand.")
                                  .arg(fmt_hours(p.job.time_to_train_h))
                                  .arg(p.nodes)
                                  .arg(q(p.instance), fmt_usd(p.job.cost_usd));
    // The scenario's pricing choice leads; the other purchase option follows for comparison.
    if (p.job.spot.priced) {
        const double saving = std::isnan(p.job.cost_usd) || p.job.cost_usd <= 0
                                  ? sim::kUnknown
                                  : 1.0 - p.job.spot.cost_usd / p.job.cost_usd;
        if (p.spot) {
            s << QObject::tr("On spot, training is expected to take %1 and cost %2, %3 "
                             "(%4 less than on demand: %5 in %6).")
                     .arg(fmt_hours(p.job.spot.wall_time_h), fmt_usd(p.job.spot.cost_usd),
                          fmt_interruptions(p.job.spot.expected_interruptions),
                          fmt_percent(saving, 0), fmt_usd(p.job.cost_usd),
                          fmt_hours(p.job.time_to_train_h));
        } else {
            s << on_demand;
            s << QObject::tr("On spot it would take %1 and cost %2 (%3 saved), %4.")
                     .arg(fmt_hours(p.job.spot.wall_time_h), fmt_usd(p.job.spot.cost_usd),
                          fmt_percent(saving, 0),
                          fmt_interruptions(p.job.spot.expected_interruptions));
        }
    } else {
        s << on_demand;
        s << (p.spot ? QObject::tr(
                           "Spot pricing was chosen, but no spot price is known for this instance.")
                     : QObject::tr("No spot price is known for this instance."));
        if (p.spot) *ok = false;
    }
    // Constraints the user set on the Plan page: say plainly when this plan breaks them.
    const double wall_h =
        p.spot && p.job.spot.priced ? p.job.spot.wall_time_h : p.job.time_to_train_h;
    const double cost = p.spot && p.job.spot.priced ? p.job.spot.cost_usd : p.job.cost_usd;
    const double deadline_h = constraints.deadline_hours; // NaN: none
    const double budget_usd = constraints.budget_usd;
    if (deadline_h > 0 && wall_h > deadline_h) {
        s << QObject::tr("It misses the %1 deadline by %2.")
                 .arg(fmt_hours(deadline_h), fmt_hours(wall_h - deadline_h));
        *ok = false;
    }
    if (budget_usd > 0 && cost > budget_usd) {
        s << QObject::tr("It exceeds the %1 budget by %2.")
                 .arg(fmt_usd(budget_usd), fmt_usd(cost - budget_usd));
        *ok = false;
    }
    const double mfu = r.mfu;
    const QString mfu_word = mfu >= 0.45   ? QObject::tr("excellent")
                             : mfu >= 0.35 ? QObject::tr("good")
                             : mfu >= 0.2  ? QObject::tr("fair")
                                           : QObject::tr("poor");
    s << QObject::tr("MFU %1 is %2.").arg(fmt_percent(mfu, 0), mfu_word);
    double share = 0;
    const QString overhead = largest_overhead(r, &share);
    if (share >= 0.05) {
        s << QObject::tr("The largest overhead is %1 (%2 of each step).")
                 .arg(overhead, fmt_percent(share, 0));
    }
    if (mfu < 0.2) *ok = false;
    if (!p.interval.validated)
        s << QObject::tr("Unvalidated: %1.")
                 .arg(QString::fromUtf8(sim::kUnvalidatedLine.data(),
                                        static_cast<int>(sim::kUnvalidatedLine.size())));
    return s.join(QLatin1Char(' '));
}
} // namespace

PlanOutcome evaluate_plan(const sim::Scenario& scenario, CatalogService& catalog) {
    PlanOutcome o;
    catalog::Catalog* db = catalog.db();
    if (db == nullptr) {
        o.error = QObject::tr("The catalog is unavailable: %1").arg(catalog.openError());
        return o;
    }
    try {
        const service::PlanInputs inputs = service::plan_inputs(scenario, *db);
        const std::string refusal = sim::training_refusal(scenario, inputs.node);
        if (!refusal.empty()) {
            o.error = q(refusal);
            return o;
        }
        const sim::PlanReport p = sim::simulate_plan(scenario, inputs.node, inputs.profile());
        o.result = p.result;
        o.interval = p.interval;
        o.layout = p.layout;
        o.layout_searched = !p.searched.empty();
        o.devices = p.devices;
        o.workload_kind = scenario.workload.kind;
        o.instance = q(p.instance);
        o.accelerator = q(p.accelerator);
        o.time_to_train_h = p.job.time_to_train_h;
        o.cost_on_demand_usd = p.job.cost_usd;
        o.cost_spot_usd = p.job.spot.priced ? p.job.spot.cost_usd : sim::kUnknown;
        o.spot_time_to_train_h = p.job.spot.priced ? p.job.spot.wall_time_h : sim::kUnknown;
        o.spot_expected_interruptions =
            p.job.spot.priced ? p.job.spot.expected_interruptions : sim::kUnknown;
        o.scaling_efficiency = p.scaling_efficiency;
        o.verdict = verdict_for(p, scenario.constraints, &o.verdict_ok);
        o.spot_headline = p.spot;
        for (const std::string& a : p.assumptions)
            o.assumptions << q(a);
    } catch (const std::exception& e) {
        o.error = q(e.what());
    }
    return o;
}

} // namespace cp::gui
