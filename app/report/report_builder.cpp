// ReportData -> Document: the report's structure and wording. Charts are described in
// report_charts.cpp (ChartSpec) and drawn by the renderers.
#include "plan_fields.h"
#include "report_data.h"
#include "report_format.h"
#include "report_sections.h"

#include <QRegularExpression>
#include <algorithm>
#include <cmath>

namespace cp::report {
namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString throughput_unit(const ReportData& data) {
    return qs(data.throughput_unit);
}

QString purchase(const sim::PlanReport& plan) {
    return plan.spot ? QStringLiteral("spot")
                     : QString::fromUtf8(sim::purchase_label(plan.purchase));
}

// "Time to train 37.8 days for $286,218 on spot (expected, ...); 35.3 days for $2,381,205 on
// demand." The plan's own purchase option comes first: it is what the rank is based on.
QString time_and_cost(const sim::PlanReport& plan) {
    const bool spot = plan.spot;
    auto option = [&plan](bool on_spot) {
        return QStringLiteral("%1 for %2 %3")
            .arg(fmt::hours(plan_job_hours(plan, on_spot)),
                 fmt::usd(plan_job_cost_usd(plan, on_spot)),
                 on_spot ? QStringLiteral("on spot (expected, restarts and lost work included)")
                         : QStringLiteral("on demand"));
    };
    const int trials = plan.hpo.trials;
    QString text = trials > 1 ? QStringLiteral("The tuning job (%1 trials) takes ").arg(trials)
                              : QStringLiteral("Time to train ");
    text += option(spot);
    if (std::isfinite(plan_job_cost_usd(plan, !spot))) text += QStringLiteral("; ") + option(!spot);
    return text + u'.';
}

QString headline(const sim::PlanReport& plan, const ReportData& data) {
    const QString accel = qs(plan.accelerator);
    const QString devices = accel.isEmpty()
                                ? QStringLiteral("%1 devices").arg(plan.devices)
                                : QStringLiteral("%1 × %2").arg(plan.devices).arg(accel);
    return QStringLiteral("%1 %2 of %3 (%4), %5. Step time %6, %7, MFU %8. ")
               .arg(plan.nodes)
               .arg(plan.nodes == 1 ? QStringLiteral("node") : QStringLiteral("nodes"))
               .arg(qs(plan.instance), devices, plan_layout_text(plan),
                    fmt::duration_s(plan.result.step_time_s),
                    fmt::rate(plan_throughput(plan, data), throughput_unit(data)),
                    fmt::percent(plan.result.mfu)) +
           time_and_cost(plan);
}

QStringList words(const std::vector<std::vector<std::string>>& lists, size_t i) {
    QStringList out;
    if (i < lists.size()) {
        for (const auto& line : lists[i])
            out << qs(line);
    }
    return out;
}

// The planner's reasons for plan i, as sentences: the planner's "#2: " prefix is dropped (the
// paragraph's lead names the plan).
QStringList reasons_for(const ReportData& data, size_t i) {
    QStringList out = words(data.reasons, i);
    static const QRegularExpression kRankPrefix(QStringLiteral("^#\\d+:\\s*"));
    for (QString& line : out) {
        line.remove(kRankPrefix);
        line = line.trimmed();
        if (!line.isEmpty() && !line.endsWith(u'.')) line += u'.';
        if (!line.isEmpty()) line[0] = line[0].toUpper();
    }
    return out;
}

// The planner's limits for plan i; when it gave none, the largest overheads in the plan.
QString limits_for(const ReportData& data, const sim::PlanReport& plan, size_t i) {
    const QStringList planner = words(data.limits, i);
    if (!planner.isEmpty()) {
        QStringList trimmed;
        for (QString line : planner) {
            while (line.endsWith(u'.'))
                line.chop(1);
            trimmed << line;
        }
        return trimmed.join(QStringLiteral("; "));
    }
    return plan_limits(plan);
}

Section summary_section(const ReportData& data, const std::vector<sim::PlanReport>& plans) {
    Section s{QStringLiteral("Recommendation"), {}};
    if (plans.empty()) {
        s.blocks.push_back(Paragraph{
            QStringLiteral("No plan satisfies the scenario's constraints: every evaluated "
                           "layout either does not fit in memory, breaks a constraint or "
                           "needs hardware figures the catalog does not have."),
            QStringLiteral("No recommendation.")});
        // The concrete reasons, so the reader knows what to change.
        BulletList why;
        for (const auto& [reason, instances] : data.excluded) {
            QStringList list;
            for (const auto& i : instances)
                list << qs(i);
            why.items << QStringLiteral("%1: %2").arg(list.join(QStringLiteral(", ")), qs(reason));
        }
        for (const auto& line : data.planner_summary)
            why.items << qs(line);
        if (!why.items.isEmpty()) {
            s.blocks.push_back(Paragraph{QString(), QStringLiteral("Why:")});
            s.blocks.push_back(why);
        }
        return s;
    }
    const sim::PlanReport& best = plans.front();
    s.blocks.push_back(Paragraph{headline(best, data), QStringLiteral("Recommended: %1 × %2, %3.")
                                                           .arg(qs(best.instance))
                                                           .arg(best.nodes)
                                                           .arg(purchase(best))});
    if (const QString range = plan_range_text(best); !range.isEmpty())
        s.blocks.push_back(Paragraph{range, QStringLiteral("Range:")});
    if (!best.interval.validated)
        s.blocks.push_back(Paragraph{
            QString::fromUtf8(sim::kUnvalidatedLine.data(), int(sim::kUnvalidatedLine.size())) +
                u'.',
            QStringLiteral("Unvalidated:")});
    const QStringList why = reasons_for(data, 0);
    if (!why.isEmpty()) s.blocks.push_back(Paragraph{why.join(u' '), QStringLiteral("Why:")});
    const QString limits = limits_for(data, best, 0);
    if (!limits.isEmpty())
        s.blocks.push_back(Paragraph{limits + u'.', QStringLiteral("What limits it:")});
    KeyValueTable facts;
    const bool tuning = best.hpo.trials > 1;
    const QString job = tuning ? QStringLiteral(" (whole tuning job)") : QString();
    facts.rows = {
        {QStringLiteral("Instance × nodes"),
         QStringLiteral("%1 × %2").arg(qs(best.instance)).arg(best.nodes)},
        {QStringLiteral("Purchase option"), purchase(best)},
        {QStringLiteral("Parallel layout"), plan_layout_text(best)},
        {QStringLiteral("Time to train, on demand") + job, fmt::hours(plan_job_hours(best, false))},
        {QStringLiteral("Cost, on demand") + job, fmt::usd(plan_job_cost_usd(best, false))},
        {QStringLiteral("Time to train, spot (expected)") + job,
         fmt::hours(plan_job_hours(best, true))},
        {QStringLiteral("Cost, spot (expected)") + job, fmt::usd(plan_job_cost_usd(best, true))},
        {tuning ? QStringLiteral("Spot interruptions (expected, per trial)")
                : QStringLiteral("Spot interruptions (expected)"),
         fmt::plain(plan_spot_interruptions(best), 3)},
        {QStringLiteral("Memory per device"), QStringLiteral("%1 of %2")
                                                  .arg(fmt::gib(best.result.memory_gib.total),
                                                       fmt::gib(best.result.memory_gib.capacity))},
        {QStringLiteral("Plans evaluated"),
         QStringLiteral("%1 in %2")
             .arg(fmt::count(static_cast<double>(data.evaluated)), fmt::duration_s(data.search_s))},
    };
    if (tuning) {
        facts.rows.emplace_back(
            QStringLiteral("Tuning job"),
            QStringLiteral("%1 trials, %2 in parallel; one trial takes %3 and costs %4 on demand, "
                           "%5 expected on spot")
                .arg(best.hpo.trials)
                .arg(best.hpo.max_parallel_trials)
                .arg(fmt::hours(best.job.time_to_train_h), fmt::usd(best.job.cost_usd),
                     fmt::usd(best.job.spot.cost_usd)));
    }
    s.blocks.push_back(facts);
    s.blocks.push_back(price_age_paragraph(data));
    s.blocks.push_back(purchase_options_table(best));
    return s;
}

QString or_unknown(const QString& s) {
    return s.isEmpty() ? fmt::kUnknown : s;
}

QString qint(int v) {
    return QString::number(v);
}

QString model_text(const sim::Scenario& sc) {
    QString model = qs(sc.preset);
    if (sc.workload.kind != sim::WorkloadKind::transformer) return model;
    const sim::TransformerShape& shape = sc.workload.shape;
    return model +
           QStringLiteral("%1%2 layers, hidden %3, %4 heads, sequence %5, vocabulary %6")
               .arg(model.isEmpty() ? QString() : QStringLiteral(": "))
               .arg(shape.layers)
               .arg(qint(shape.hidden), qint(shape.heads), qint(shape.seq_len), qint(shape.vocab));
}

QString data_size_text(const sim::TrainingSpec& t) {
    if (t.tokens > 0) return QStringLiteral("%1 tokens").arg(fmt::count(t.tokens));
    if (t.samples > 0) return QStringLiteral("%1 samples").arg(fmt::count(t.samples));
    if (t.epochs > 0)
        return QStringLiteral("%1 epochs of %2 samples")
            .arg(fmt::plain(t.epochs, 4), fmt::count(t.dataset_samples));
    return {};
}

QString instances_text(const sim::Scenario& sc) {
    if (sc.custom && !sc.custom->accelerator.empty()) {
        const sim::CustomHardware& c = *sc.custom;
        return QStringLiteral(
                   "custom hardware: %1 × %2 per node, %3 Gbps between nodes, %4 per node-hour")
            .arg(c.accelerators_per_node > 0 ? qint(c.accelerators_per_node) : fmt::kUnknown,
                 qs(c.accelerator), fmt::plain(c.inter_node_gbps, 6),
                 std::isfinite(c.usd_per_node_hour) ? fmt::usd(c.usd_per_node_hour)
                                                    : QStringLiteral("no price"));
    }
    if (!sc.instance.empty()) return qs(sc.instance);
    QStringList list;
    for (const auto& i : sc.constraints.instances)
        list << qs(i);
    return list.isEmpty() ? QStringLiteral("all that can train") : list.join(QStringLiteral(", "));
}

Section scenario_section(const ReportData& data) {
    const sim::Scenario& sc = data.scenario;
    KeyValueTable kv;
    kv.rows.emplace_back(QStringLiteral("Scenario"), or_unknown(qs(sc.name)));
    kv.rows.emplace_back(QStringLiteral("Model"), or_unknown(model_text(sc)));
    kv.rows.emplace_back(QStringLiteral("Data size"), or_unknown(data_size_text(sc.training)));
    kv.rows.emplace_back(QStringLiteral("Precision"), qs(sim::enum_name(sc.precision)));
    kv.rows.emplace_back(QStringLiteral("Global batch"), sc.parallel.global_batch > 0
                                                             ? qint(sc.parallel.global_batch)
                                                             : fmt::kUnknown);
    kv.rows.emplace_back(
        QStringLiteral("Region, pricing"),
        QStringLiteral("%1, %2").arg(or_unknown(qs(sc.region)),
                                     qs(sim::enum_name(sc.pricing)).replace(u'_', u' ')));
    kv.rows.emplace_back(QStringLiteral("Instances considered"), instances_text(sc));
    // A scenario that fixes the node count is planned at that count only.
    if (sc.nodes) {
        kv.rows.emplace_back(QStringLiteral("Nodes"),
                             qint(*sc.nodes) + QStringLiteral(" (fixed by the scenario)"));
    } else {
        kv.rows.emplace_back(QStringLiteral("Max nodes"), qint(sc.constraints.max_nodes));
    }
    if (sc.training.trials > 1) {
        kv.rows.emplace_back(QStringLiteral("Tuning job"),
                             QStringLiteral("%1 trials, %2 at a time")
                                 .arg(sc.training.trials)
                                 .arg(sc.training.max_parallel_trials));
    }
    const double deadline = sc.constraints.deadline_hours;
    kv.rows.emplace_back(QStringLiteral("Deadline"),
                         std::isfinite(deadline) ? fmt::hours(deadline) : QStringLiteral("none"));
    const double budget = sc.constraints.budget_usd;
    kv.rows.emplace_back(QStringLiteral("Budget"),
                         std::isfinite(budget) ? fmt::usd(budget) : QStringLiteral("none"));
    kv.rows.emplace_back(QStringLiteral("Spot allowed"),
                         sc.constraints.allow_spot ? QStringLiteral("yes") : QStringLiteral("no"));
    kv.rows.emplace_back(QStringLiteral("Objective"), qs(sim::enum_name(sc.constraints.objective)));
    return Section{QStringLiteral("Scenario"), {kv}};
}

Section runners_up_section(const ReportData& data, const std::vector<sim::PlanReport>& plans) {
    Section s{QStringLiteral("Runners-up"), {}};
    if (plans.empty()) {
        s.blocks.push_back(Paragraph{QStringLiteral("None: no plan was ranked."), {}});
        return s;
    }
    if (plans.size() < 2) {
        const bool fixed = data.scenario.nodes.has_value();
        s.blocks.push_back(Paragraph{
            fixed ? QStringLiteral("None: the scenario fixes the cluster, and the planner ranks "
                                   "only its fastest layout for each purchase option that "
                                   "has a price.")
                  : QStringLiteral("None: no other plan meets the constraints."),
            {}});
        return s;
    }
    const sim::PlanReport& best = plans.front();
    for (size_t i = 1; i < plans.size() && i < 4; ++i) {
        const sim::PlanReport& plan = plans[i];
        const QStringList why = reasons_for(data, i);
        // The planner's reasons already state the plan's figures; without them, give ours.
        QString text = why.isEmpty() ? headline(plan, data) : QString();
        const double dt = plan_job_hours(plan, plan.spot) / plan_job_hours(best, best.spot) - 1.0;
        const double dc =
            plan_job_cost_usd(plan, plan.spot) / plan_job_cost_usd(best, best.spot) - 1.0;
        if (why.isEmpty() && std::isfinite(dt) && std::isfinite(dc)) {
            text += QStringLiteral(" Against the recommendation: %1 %2 time, %3 %4 cost.")
                        .arg(fmt::percent(std::abs(dt)),
                             dt >= 0 ? QStringLiteral("more") : QStringLiteral("less"),
                             fmt::percent(std::abs(dc)),
                             dc >= 0 ? QStringLiteral("more") : QStringLiteral("less"));
        }
        if (!why.isEmpty()) text += why.join(u' ');
        const QString limits = limits_for(data, plan, i);
        if (!limits.isEmpty()) text += QStringLiteral(" What limits it: ") + limits + u'.';
        s.blocks.push_back(Paragraph{text, QStringLiteral("#%1 %2 × %3, %4.")
                                               .arg(i + 1)
                                               .arg(qs(plan.instance))
                                               .arg(plan.nodes)
                                               .arg(purchase(plan))});
    }
    return s;
}

Section table_section(const ReportData& data, const std::vector<sim::PlanReport>& plans) {
    Table t;
    t.set_columns({{QStringLiteral("#"), Align::right},
                   {QStringLiteral("Instance"), Align::left},
                   {QStringLiteral("Nodes"), Align::right},
                   {QStringLiteral("Layout"), Align::left},
                   {QStringLiteral("Step time"), Align::right},
                   {QStringLiteral("Throughput"), Align::right},
                   {QStringLiteral("MFU"), Align::right},
                   {QStringLiteral("Time to train"), Align::right},
                   {QStringLiteral("On-demand cost"), Align::right},
                   {QStringLiteral("Spot cost (expected)"), Align::right},
                   {QStringLiteral("Spot interruptions (expected)"), Align::right}});
    const QString unit =
        data.throughput_unit == "tokens/s" ? QStringLiteral("tok/s") : QStringLiteral("samples/s");
    for (size_t i = 0; i < plans.size(); ++i) {
        const sim::PlanReport& p = plans[i];
        t.rows.push_back(
            {QString::number(i + 1),
             qs(p.instance) + (p.spot ? QStringLiteral(" (spot)") : QString()),
             QString::number(p.nodes), plan_layout_compact(p),
             fmt::duration_s(p.result.step_time_s), fmt::rate(plan_throughput(p, data), unit),
             fmt::percent(p.result.mfu), fmt::hours(plan_job_hours(p, p.spot)),
             fmt::usd(plan_job_cost_usd(p, false)), fmt::usd(plan_job_cost_usd(p, true)),
             fmt::plain(plan_spot_interruptions(p), 3)});
    }
    if (t.rows.empty()) {
        return Section{QStringLiteral("Ranked plans"),
                       {Paragraph{QStringLiteral("No plan to rank."), {}}}};
    }
    t.emphasised_rows = {0};
    t.note = QStringLiteral(
        "Ranked by the scenario objective; a row marked (spot) is ranked on its spot purchase "
        "option. Time to train is the wall time of the row's purchase option; spot time and cost "
        "include expected restarts and lost work. Layout: tensor (TP), pipeline (PP) and data (DP) "
        "parallel degrees, micro-batch (mb), ZeRO stage (Z), activation recompute (sel = "
        "selective, "
        "full). “—” means unknown (no published price or figure).");
    if (const int trials = plans.front().hpo.trials; trials > 1) {
        t.note += QStringLiteral(" Times and costs are for the whole tuning job of %1 trials.")
                      .arg(trials);
    }
    return Section{plans.size() == 1 ? QStringLiteral("Top plan")
                                     : QStringLiteral("Top %1 plans").arg(plans.size()),
                   {t}};
}

} // namespace

Section prices_section(const ReportData& data) {
    Table t;
    t.set_columns({{QStringLiteral("Instance"), Align::left},
                   {QStringLiteral("Region"), Align::left},
                   {QStringLiteral("Kind"), Align::left},
                   {QStringLiteral("USD/hour"), Align::right},
                   {QStringLiteral("As of"), Align::left},
                   {QStringLiteral("Age"), Align::right},
                   {QStringLiteral("Source"), Align::left},
                   {QStringLiteral("Used"), Align::left}});
    for (const auto& p : data.prices) {
        QString source = qs(p.source);
        if (!p.note.empty()) source += QStringLiteral(" (") + qs(p.note) + u')';
        t.rows.push_back({qs(p.instance_type), qs(p.region),
                          p.kind == "on_demand" ? QStringLiteral("on\u00a0demand") : qs(p.kind),
                          fmt::usd_price(p.usd_per_hour), or_unknown(qs(p.as_of)),
                          std::isfinite(p.age_days)
                              ? QStringLiteral("%1 d").arg(std::lround(p.age_days))
                              : fmt::kUnknown,
                          or_unknown(source), p.used ? QStringLiteral("yes") : QString()});
    }
    Section s{QStringLiteral("Prices and sources"), {}};
    if (t.rows.empty()) {
        s.blocks.push_back(
            Paragraph{data.plans.empty() && (!data.serving || data.serving->ranked.empty())
                          ? QStringLiteral("No plan was ranked, so no price was used.")
                          : QStringLiteral("No catalog prices were used: the plans run "
                                           "on custom hardware priced by the scenario."),
                      {}});
    } else {
        t.note = QStringLiteral(
            "Prices from the ClusterPlan catalog at the time of the report; “Used” marks the "
            "hourly prices the plans' costs are computed from. Spot prices vary by zone and hour; "
            "check their age before committing budget.");
        s.blocks.push_back(t);
    }
    return s;
}

Section calibration_section(const ReportData& data) {
    KeyValueTable kv;
    for (const auto& [k, v] : data.calibration)
        kv.rows.emplace_back(qs(k), qs(v));
    Section s{QStringLiteral("Calibration provenance"), {}};
    if (kv.rows.empty()) {
        s.blocks.push_back(Paragraph{
            QStringLiteral("Datasheet figures only; no measured calibration was applied."), {}});
    } else {
        s.blocks.push_back(kv);
    }
    return s;
}

Section excluded_section(const ReportData& data) {
    Section s{QStringLiteral("Instances without a plan"), {}};
    if (data.excluded.empty()) {
        s.blocks.push_back(Paragraph{
            QStringLiteral("Every instance type searched produced at least one plan."), {}});
        return s;
    }
    Table t;
    t.set_columns({{QStringLiteral("Why no plan"), Align::left},
                   {QStringLiteral("Instance types"), Align::left}});
    for (const auto& [reason, instances] : data.excluded) {
        QStringList list;
        for (const auto& i : instances)
            list << qs(i);
        t.rows.push_back({qs(reason), list.join(QStringLiteral(", "))});
    }
    s.blocks.push_back(t);
    return s;
}

Section assumptions_section(const ReportData& data) {
    Section s{QStringLiteral("Assumptions and caveats"), {}};
    BulletList assumptions;
    for (const auto& a : data.assumptions)
        assumptions.items << qs(a);
    if (!assumptions.items.isEmpty()) s.blocks.push_back(assumptions);
    BulletList caveats;
    for (const auto& c : data.caveats) {
        // Without a plan the planner's summary already stands under "Recommendation".
        const bool shown = data.plans.empty() &&
                           std::find(data.planner_summary.begin(), data.planner_summary.end(), c) !=
                               data.planner_summary.end();
        if (!shown) caveats.items << qs(c);
    }
    if (!caveats.items.isEmpty()) {
        s.blocks.push_back(Paragraph{QString(), QStringLiteral("Caveats")});
        s.blocks.push_back(caveats);
    }
    return s;
}

Document build_document(const ReportData& data) {
    if (data.serving) return build_serving_document(data);
    Document doc;
    doc.title = data.title.empty()
                    ? QStringLiteral("ClusterPlan recommendation")
                    : QStringLiteral("ClusterPlan recommendation: ") + qs(data.title);
    doc.subtitle = QStringLiteral("Generated %1 by ClusterPlan %2")
                       .arg(qs(data.generated_at_utc), QStringLiteral(CLUSTERPLAN_VERSION));
    const std::vector<sim::PlanReport> plans = report_plans(data);
    doc.sections.push_back(summary_section(data, plans));
    doc.sections.push_back(scenario_section(data));
    doc.sections.push_back(runners_up_section(data, plans));
    doc.sections.push_back(table_section(data, plans));
    doc.sections.push_back(charts_section(data));
    doc.sections.push_back(prices_section(data));
    doc.sections.push_back(calibration_section(data));
    doc.sections.push_back(excluded_section(data));
    doc.sections.push_back(assumptions_section(data));
    return doc;
}

} // namespace cp::report
