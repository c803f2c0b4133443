#include "plan_fields.h"

#include "clusterplan/sim/plan_interval.h"
#include "clusterplan/sim/plan_json_read.h"
#include "report_format.h"

#include <QStringList>
#include <algorithm>
#include <cmath>
#include <utility>

namespace cp::report {

std::vector<sim::PlanReport> report_plans(const ReportData& data) {
    std::vector<sim::PlanReport> plans;
    plans.reserve(data.plans.size());
    for (const auto& document : data.plans)
        plans.push_back(sim::plan_report_from_json(document));
    return plans;
}

QString plan_layout_text(const sim::PlanReport& plan) {
    const sim::Layout& l = plan.layout;
    QStringList parts;
    parts << QStringLiteral("TP %1").arg(l.tp) << QStringLiteral("PP %1").arg(l.pp)
          << QStringLiteral("DP %1").arg(l.dp) << QStringLiteral("mb %1").arg(l.micro_batch);
    if (l.virtual_stages > 1) parts << QStringLiteral("v %1").arg(l.virtual_stages);
    if (l.zero > 0) parts << QStringLiteral("ZeRO-%1").arg(l.zero);
    if (l.recompute != sim::Recompute::none)
        parts << QStringLiteral("recompute %1").arg(QLatin1String(sim::enum_name(l.recompute)));
    return parts.join(QStringLiteral(" · "));
}

QString plan_layout_compact(const sim::PlanReport& plan) {
    const sim::Layout& l = plan.layout;
    // Non-breaking spaces: the layout reads as one token and never wraps inside a table cell.
    QString out = QStringLiteral("TP%1\u00a0PP%2\u00a0DP%3\u00a0mb%4")
                      .arg(l.tp)
                      .arg(l.pp)
                      .arg(l.dp)
                      .arg(l.micro_batch);
    if (l.virtual_stages > 1) out += QStringLiteral("\u00a0v%1").arg(l.virtual_stages);
    if (l.zero > 0) out += QStringLiteral("\u00a0Z%1").arg(l.zero);
    if (l.recompute == sim::Recompute::selective) out += QStringLiteral("\u00a0sel");
    if (l.recompute == sim::Recompute::full) out += QStringLiteral("\u00a0full");
    return out;
}

QString plan_short_label(const sim::PlanReport& plan, int rank) {
    return QStringLiteral("#%1 %2 ×%3%4")
        .arg(rank)
        .arg(QString::fromStdString(plan.instance))
        .arg(plan.nodes)
        .arg(plan.spot ? QStringLiteral(" spot") : QString());
}

double plan_job_hours(const sim::PlanReport& plan, bool spot) {
    if (spot) {
        if (!std::isfinite(plan.job.spot.cost_usd)) return std::nan("");
        return plan.hpo.trials > 1 ? plan.hpo.spot_wall_time_h : plan.job.spot.wall_time_h;
    }
    return plan.hpo.trials > 1 ? plan.hpo.wall_time_h : plan.job.time_to_train_h;
}

double plan_job_cost_usd(const sim::PlanReport& plan, bool spot) {
    if (spot) {
        if (!std::isfinite(plan.job.spot.cost_usd)) return std::nan("");
        return plan.hpo.trials > 1 ? plan.hpo.spot_cost_usd : plan.job.spot.cost_usd;
    }
    return plan.hpo.trials > 1 ? plan.hpo.cost_usd : plan.job.cost_usd;
}

double plan_spot_interruptions(const sim::PlanReport& plan) {
    if (!std::isfinite(plan.job.spot.cost_usd)) return std::nan("");
    return plan.job.spot.expected_interruptions;
}

double plan_throughput(const sim::PlanReport& plan, const ReportData& data) {
    return data.throughput_unit == "tokens/s" ? plan.result.tokens_per_s
                                              : plan.result.samples_per_s;
}

QString plan_limits(const sim::PlanReport& plan) {
    const sim::PlanResult& r = plan.result;
    const double step = r.step_time_s;
    QStringList parts;
    if (std::isfinite(step) && step > 0) {
        const sim::StepBreakdown& b = r.breakdown_s;
        const std::pair<double, QString> overheads[] = {
            {b.pp_bubble_s, QStringLiteral("pipeline bubble")},
            {b.tp_comm_s, QStringLiteral("tensor-parallel communication")},
            {b.dp_comm_exposed_s, QStringLiteral("exposed gradient sync (network)")},
            {b.pp_comm_s, QStringLiteral("pipeline transfers")},
            {b.recompute_s, QStringLiteral("activation recompute")},
            {b.host_overhead_s, QStringLiteral("host-bound kernel issue")},
            {b.cp_comm_s, QStringLiteral("context-parallel transfers")},
            {b.ep_comm_s, QStringLiteral("expert all-to-all")},
            {b.offload_s, QStringLiteral("offload transfers")},
        };
        std::vector<std::pair<double, QString>> shares;
        for (const auto& [seconds, name] : overheads) {
            if (std::isfinite(seconds) && seconds / step >= 0.02)
                shares.emplace_back(seconds / step, name);
        }
        std::sort(shares.begin(), shares.end(),
                  [](const auto& a, const auto& b2) { return a.first > b2.first; });
        for (size_t i = 0; i < shares.size() && i < 2; ++i) {
            parts << QStringLiteral("%1 takes %2 of each step")
                         .arg(shares[i].second, fmt::percent(shares[i].first));
        }
        if (shares.empty()) parts << QStringLiteral("the step is almost entirely compute");
    }
    const double used = r.memory_gib.total;
    const double capacity = r.memory_gib.capacity;
    if (std::isfinite(used) && std::isfinite(capacity) && capacity > 0) {
        parts << QStringLiteral("memory %1 of %2 per device (%3)")
                     .arg(fmt::gib(used), fmt::gib(capacity), fmt::percent(used / capacity));
    }
    const double interruptions = plan_spot_interruptions(plan);
    if (std::isfinite(interruptions)) {
        parts << QStringLiteral("on spot, %1 interruptions expected")
                     .arg(QString::number(interruptions, 'f', 1));
    }
    return parts.join(QStringLiteral("; "));
}

QString plan_range_text(const sim::PlanReport& plan) {
    const sim::PredictionInterval& iv = plan.interval;
    const sim::FigureRange time = sim::time_range(plan_job_hours(plan, plan.spot), iv);
    if (!plan.result.valid() || !std::isfinite(time.low)) return {};
    const sim::FigureRange cost = sim::time_range(plan_job_cost_usd(plan, plan.spot), iv);
    QString text = QString::fromStdString(sim::range_phrase(iv, fmt::hours(time.low).toStdString(),
                                                            fmt::hours(time.high).toStdString()));
    if (std::isfinite(cost.low))
        text += QStringLiteral("; %1–%2").arg(fmt::usd(cost.low), fmt::usd(cost.high));
    const QString basis = QString::fromStdString(iv.bucket);
    return iv.runs > 0 ? QStringLiteral("%1 (%2: %3 measured run%4 from %5 source%6).")
                             .arg(text, basis)
                             .arg(iv.runs)
                             .arg(iv.runs == 1 ? QString() : QStringLiteral("s"))
                             .arg(iv.sources)
                             .arg(iv.sources == 1 ? QString() : QStringLiteral("s"))
                       : QStringLiteral("%1 (%2).").arg(text, basis);
}

} // namespace cp::report
