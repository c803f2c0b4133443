// ReportData -> Document: the report's structure and wording. Charts are described here
// (ChartSpec) and drawn by the renderers.
#include "plan_fields.h"
#include "report_data.h"
#include "report_format.h"

#include <QMap>
#include <QRegularExpression>

#include <algorithm>
#include <cmath>

namespace cp::report {
namespace {

QString qs(const std::string& s) { return QString::fromStdString(s); }

QString headline(const nlohmann::ordered_json& plan, const QString& unit) {
    QString accel = plan_accelerator(plan);
    QString devices = QStringLiteral("%1 devices").arg(plan_devices(plan));
    if (!accel.isEmpty()) devices = QStringLiteral("%1 × %2").arg(plan_devices(plan)).arg(accel);
    QString text = QStringLiteral("%1 nodes of %2 (%3), %4. Step time %5, %6, MFU %7. Time to train %8 at %9 on demand")
                       .arg(plan_nodes(plan))
                       .arg(plan_instance(plan), devices, plan_layout_text(plan),
                            fmt::duration_s(fmt::number(plan, "step_time_s")),
                            fmt::rate(fmt::number(plan, "tokens_per_s"), unit),
                            fmt::percent(fmt::number(plan, "mfu")),
                            fmt::hours(fmt::number(plan, "time_to_train_h")),
                            fmt::usd(fmt::number(plan, "cost_usd")));
    const double spot = fmt::number(plan, "cost_spot_usd");
    if (std::isfinite(spot)) {
        text += QStringLiteral(", or an expected %1 on spot").arg(fmt::usd(spot));
    }
    return text + u'.';
}

QStringList words(const std::vector<std::vector<std::string>>& lists, size_t i) {
    QStringList out;
    if (i < lists.size()) {
        for (const auto& line : lists[i]) out << qs(line);
    }
    return out;
}

// The planner's reasons for plan i (falls back to an "explanation" field in the plan), as
// sentences: the planner's "#2: " prefix is dropped (the paragraph's lead names the plan).
QStringList reasons_for(const ReportData& data, size_t i) {
    QStringList out = words(data.reasons, i);
    if (out.isEmpty()) out = plan_explanation(data.plans[i]);
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
QString limits_for(const ReportData& data, size_t i) {
    const QStringList planner = words(data.limits, i);
    if (!planner.isEmpty()) {
        QStringList trimmed;
        for (QString line : planner) {
            while (line.endsWith(u'.')) line.chop(1);
            trimmed << line;
        }
        return trimmed.join(QStringLiteral("; "));
    }
    return plan_limits(data.plans[i]);
}

QString throughput_unit(const ReportData& data) { return qs(data.throughput_unit); }

double throughput(const nlohmann::ordered_json& plan, const ReportData& data) {
    return data.throughput_unit == "tokens/s" ? fmt::number(plan, "tokens_per_s") : fmt::number(plan, "samples_per_s");
}

Section summary_section(const ReportData& data) {
    Section s{QStringLiteral("Recommendation"), {}};
    if (data.plans.empty()) {
        s.blocks.push_back(Paragraph{QStringLiteral("No plan satisfies the scenario's constraints: every evaluated "
                                                    "layout either does not fit in memory, breaks a constraint or "
                                                    "needs hardware figures the catalog does not have."),
                                     QStringLiteral("No recommendation.")});
        return s;
    }
    const auto& best = data.plans.front();
    s.blocks.push_back(Paragraph{headline(best, throughput_unit(data)),
                                 QStringLiteral("Recommended: %1 × %2, %3.")
                                     .arg(plan_instance(best))
                                     .arg(plan_nodes(best))
                                     .arg(plan_is_spot(best) ? QStringLiteral("spot") : QStringLiteral("on demand"))});
    const QStringList why = reasons_for(data, 0);
    if (!why.isEmpty()) s.blocks.push_back(Paragraph{why.join(u' '), QStringLiteral("Why:")});
    const QString limits = limits_for(data, 0);
    if (!limits.isEmpty()) s.blocks.push_back(Paragraph{limits + u'.', QStringLiteral("What limits it:")});
    KeyValueTable facts;
    facts.rows = {
        {QStringLiteral("Instance × nodes"), QStringLiteral("%1 × %2").arg(plan_instance(best)).arg(plan_nodes(best))},
        {QStringLiteral("Purchase option"), plan_is_spot(best) ? QStringLiteral("spot") : QStringLiteral("on demand")},
        {QStringLiteral("Parallel layout"), plan_layout_text(best)},
        {QStringLiteral("Time to train"), fmt::hours(fmt::number(best, "time_to_train_h"))},
        {QStringLiteral("Cost, on demand"), fmt::usd(fmt::number(best, "cost_usd"))},
        {QStringLiteral("Cost, spot (expected)"), fmt::usd(fmt::number(best, "cost_spot_usd"))},
        {QStringLiteral("Spot interruptions (expected)"), fmt::plain(fmt::number(best, "spot_expected_interruptions"), 3)},
        {QStringLiteral("Memory per device"),
         QStringLiteral("%1 of %2").arg(fmt::gib(fmt::number(best, "memory_gib.total")),
                                        fmt::gib(fmt::number(best, "memory_gib.capacity")))},
        {QStringLiteral("Plans evaluated"),
         QStringLiteral("%1 in %2").arg(fmt::count(static_cast<double>(data.evaluated)), fmt::duration_s(data.search_s))},
    };
    const double trials = fmt::number(best, "tuning.trials");
    if (std::isfinite(trials) && trials > 1) {
        facts.rows.emplace_back(
            QStringLiteral("Tuning job"),
            QStringLiteral("%1 trials, %2 in parallel: %3 wall time, %4 on demand, %5 expected on spot")
                .arg(fmt::plain(trials, 6), fmt::plain(fmt::number(best, "tuning.max_parallel_trials"), 6),
                     fmt::hours(fmt::number(best, "tuning.wall_time_h")), fmt::usd(fmt::number(best, "tuning.cost_usd")),
                     fmt::usd(fmt::number(best, "tuning.spot_cost_usd"))));
    }
    s.blocks.push_back(facts);
    return s;
}

QString or_unknown(const QString& s) { return s.isEmpty() ? fmt::kUnknown : s; }

QString json_scalar(const nlohmann::ordered_json& doc, std::string_view path) {
    const QString t = fmt::text(doc, path);
    if (!t.isEmpty()) return t;
    const double v = fmt::number(doc, path);
    return std::isfinite(v) ? fmt::plain(v, 6) : QString();
}

Section scenario_section(const ReportData& data) {
    const auto& sc = data.scenario;
    KeyValueTable kv;
    kv.rows.emplace_back(QStringLiteral("Scenario"), or_unknown(fmt::text(sc, "name")));
    QString model = fmt::text(sc, "model.preset");
    const double layers = fmt::number(sc, "model.layers");
    if (std::isfinite(layers)) {
        model += QStringLiteral("%1%2 layers, hidden %3, %4 heads, sequence %5, vocabulary %6")
                     .arg(model.isEmpty() ? QString() : QStringLiteral(": "))
                     .arg(layers)
                     .arg(json_scalar(sc, "model.hidden"), json_scalar(sc, "model.heads"),
                          json_scalar(sc, "model.seq_len"), json_scalar(sc, "model.vocab"));
    }
    kv.rows.emplace_back(QStringLiteral("Model"), or_unknown(model));
    if (!data.plans.empty()) {
        const double params = fmt::number(data.plans.front(), "params");
        if (std::isfinite(params)) kv.rows.emplace_back(QStringLiteral("Parameters"), fmt::count(params, 2));
    }
    QString size;
    if (const double t = fmt::number(sc, "training.tokens"); std::isfinite(t) && t > 0) {
        size = QStringLiteral("%1 tokens").arg(fmt::count(t, 1));
    } else if (const double n = fmt::number(sc, "training.samples"); std::isfinite(n) && n > 0) {
        size = QStringLiteral("%1 samples").arg(fmt::count(n, 1));
    } else if (const double e = fmt::number(sc, "training.epochs"); std::isfinite(e) && e > 0) {
        size = QStringLiteral("%1 epochs of %2 samples").arg(fmt::plain(e, 4), fmt::count(fmt::number(sc, "training.dataset_samples"), 1));
    }
    kv.rows.emplace_back(QStringLiteral("Data size"), or_unknown(size));
    kv.rows.emplace_back(QStringLiteral("Precision"), or_unknown(fmt::text(sc, "precision")));
    kv.rows.emplace_back(QStringLiteral("Global batch"), or_unknown(json_scalar(sc, "parallel.global_batch")));
    kv.rows.emplace_back(QStringLiteral("Region, pricing"),
                         QStringLiteral("%1, %2").arg(or_unknown(fmt::text(sc, "cluster.region")),
                                                      or_unknown(fmt::text(sc, "cluster.pricing"))));
    QString instances;
    if (auto it = sc.find("constraints"); it != sc.end() && it->contains("instances") && (*it)["instances"].is_array()) {
        QStringList list;
        for (const auto& i : (*it)["instances"]) {
            if (i.is_string()) list << qs(i.get<std::string>());
        }
        instances = list.isEmpty() ? QStringLiteral("all that can train") : list.join(QStringLiteral(", "));
    }
    const QString fixed = fmt::text(sc, "cluster.instance");
    if (!fixed.isEmpty()) instances = fixed;
    kv.rows.emplace_back(QStringLiteral("Instances considered"), or_unknown(instances));
    kv.rows.emplace_back(QStringLiteral("Max nodes"), or_unknown(json_scalar(sc, "constraints.max_nodes")));
    const double deadline = fmt::number(sc, "constraints.deadline_hours");
    kv.rows.emplace_back(QStringLiteral("Deadline"), std::isfinite(deadline) ? fmt::hours(deadline) : QStringLiteral("none"));
    const double budget = fmt::number(sc, "constraints.budget_usd");
    kv.rows.emplace_back(QStringLiteral("Budget"), std::isfinite(budget) ? fmt::usd(budget) : QStringLiteral("none"));
    auto spot_it = sc.find("constraints");
    const bool allow_spot = spot_it == sc.end() || !spot_it->contains("allow_spot") || (*spot_it)["allow_spot"].is_boolean() == false ||
                            (*spot_it)["allow_spot"].get<bool>();
    kv.rows.emplace_back(QStringLiteral("Spot allowed"), allow_spot ? QStringLiteral("yes") : QStringLiteral("no"));
    kv.rows.emplace_back(QStringLiteral("Objective"), or_unknown(fmt::text(sc, "constraints.objective")));
    return Section{QStringLiteral("Scenario"), {kv}};
}

Section runners_up_section(const ReportData& data) {
    Section s{QStringLiteral("Runners-up"), {}};
    if (data.plans.size() < 2) {
        s.blocks.push_back(Paragraph{QStringLiteral("No other plan satisfies the constraints."), {}});
        return s;
    }
    const auto& best = data.plans.front();
    for (size_t i = 1; i < data.plans.size() && i < 4; ++i) {
        const auto& plan = data.plans[i];
        const QStringList why = reasons_for(data, i);
        // The planner's reasons already state the plan's figures; without them, give ours.
        QString text = why.isEmpty() ? headline(plan, throughput_unit(data)) : QString();
        const double dt = fmt::number(plan, "time_to_train_h") / fmt::number(best, "time_to_train_h") - 1.0;
        const double dc = fmt::number(plan, "cost_usd") / fmt::number(best, "cost_usd") - 1.0;
        if (why.isEmpty() && std::isfinite(dt) && std::isfinite(dc)) {
            text += QStringLiteral(" Against the recommendation: %1 %2 time, %3 %4 cost.")
                        .arg(fmt::percent(std::abs(dt)), dt >= 0 ? QStringLiteral("more") : QStringLiteral("less"),
                             fmt::percent(std::abs(dc)), dc >= 0 ? QStringLiteral("more") : QStringLiteral("less"));
        }
        if (!why.isEmpty()) text += why.join(u' ');
        const QString limits = limits_for(data, i);
        if (!limits.isEmpty()) text += QStringLiteral(" What limits it: ") + limits + u'.';
        s.blocks.push_back(Paragraph{text, QStringLiteral("#%1 %2 × %3, %4.")
                                         .arg(i + 1)
                                         .arg(plan_instance(plan))
                                         .arg(plan_nodes(plan))
                                         .arg(plan_is_spot(plan) ? QStringLiteral("spot") : QStringLiteral("on demand"))});
    }
    return s;
}

Section table_section(const ReportData& data) {
    Table t;
    t.headers = {QStringLiteral("#"),          QStringLiteral("Instance"),       QStringLiteral("Nodes"),
                 QStringLiteral("Layout"),     QStringLiteral("Step time"),      QStringLiteral("Throughput"),
                 QStringLiteral("MFU"),        QStringLiteral("Time to train"),  QStringLiteral("On-demand cost"),
                 QStringLiteral("Spot cost (expected)"), QStringLiteral("Interruptions")};
    t.align = {Align::right, Align::left,  Align::right, Align::left,  Align::right, Align::right,
               Align::right, Align::right, Align::right, Align::right, Align::right};
    const QString unit = data.throughput_unit == "tokens/s" ? QStringLiteral("tok/s") : QStringLiteral("samples/s");
    for (size_t i = 0; i < data.plans.size(); ++i) {
        const auto& p = data.plans[i];
        t.rows.push_back({QString::number(i + 1), plan_instance(p) + (plan_is_spot(p) ? QStringLiteral(" (spot)") : QString()), QString::number(plan_nodes(p)), plan_layout_compact(p),
                          fmt::duration_s(fmt::number(p, "step_time_s")), fmt::rate(throughput(p, data), unit),
                          fmt::percent(fmt::number(p, "mfu")), fmt::hours(fmt::number(p, "time_to_train_h")),
                          fmt::usd(fmt::number(p, "cost_usd")), fmt::usd(fmt::number(p, "cost_spot_usd")),
                          fmt::plain(fmt::number(p, "spot_expected_interruptions"), 3)});
    }
    if (!t.rows.empty()) t.emphasised_rows = {0};
    t.note = QStringLiteral("Ranked by the scenario objective. Layout: tensor (TP), pipeline (PP) and data (DP) "
                            "parallel degrees, micro-batch (mb), ZeRO stage (Z), activation recompute (sel = selective, "
                            "full). Spot cost includes expected restarts and lost work; “—” means unknown (no "
                            "published price or figure).");
    return Section{QStringLiteral("Top %1 plans").arg(data.plans.size()), {t}};
}

// Rescales one axis of an xy chart to thousands/millions/billions so tick labels stay short
// ("12" with "million USD" rather than "1.2e+07").
void rescale_axis(ChartSpec& chart, bool y_axis, const QString& unit) {
    double max_abs = 0;
    for (const auto& s : chart.series) {
        for (const auto& p : s.points) max_abs = std::max(max_abs, std::abs(y_axis ? p.y() : p.x()));
    }
    struct Step { double factor; const char* word; };
    const Step steps[] = {{1e9, "billion"}, {1e6, "million"}, {1e3, "thousand"}};
    double factor = 1;
    QString label = unit;
    for (const auto& step : steps) {
        if (max_abs >= step.factor * 10) {
            factor = step.factor;
            label = QStringLiteral("%1 %2").arg(QString::fromLatin1(step.word), unit);
            break;
        }
    }
    for (auto& s : chart.series) {
        for (auto& p : s.points) (y_axis ? p.ry() : p.rx()) /= factor;
    }
    QString& axis_label = y_axis ? chart.y_label : chart.x_label;
    axis_label = axis_label.arg(label);
}

Figure pareto_figure(const ReportData& data) {
    ChartSpec c;
    c.title = QStringLiteral("Time to train vs cost");
    c.x_label = QStringLiteral("wall time to train (h, log scale)");
    c.y_label = QStringLiteral("cost (%1, log scale)");
    c.log_x = true;
    c.log_y = true;
    ChartSeries all{QStringLiteral("other plans"), {}, false, true, false, true};
    ChartSeries front{QStringLiteral("Pareto front"), {}, true, true, false, false};
    ChartSeries top{QStringLiteral("runners-up"), {}, false, true, false, false};
    ChartSeries best{QStringLiteral("recommended"), {}, false, true, true, false};
    for (const auto& p : data.cost_time) {
        if (!(p.time_to_train_h > 0 && p.cost_usd > 0)) continue;
        const QPointF point(p.time_to_train_h, p.cost_usd);
        if (p.on_front) {
            front.points.push_back(point);
        } else if (p.rank == 0) {
            all.points.push_back(point);
        }
        if (p.rank == 1) best.points.push_back(point);
        if (p.rank > 1) top.points.push_back(point);
    }
    std::sort(front.points.begin(), front.points.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
    c.series = {all, front, top, best};
    rescale_axis(c, true, QStringLiteral("USD"));
    return Figure{c,
                  QStringLiteral("Every plan meeting the constraints (grey; on demand and, where allowed, spot with "
                                 "expected interruptions), the Pareto front (no plan is both faster and cheaper), the "
                                 "runners-up and the recommendation."),
                  QStringLiteral("pareto")};
}

std::vector<Figure> scaling_figures(const ReportData& data) {
    QMap<QString, ChartSeries> by_strategy;
    QStringList order;
    for (const auto& p : data.scaling) {
        const QString name = qs(p.strategy);
        if (!by_strategy.contains(name)) {
            order << name;
            by_strategy[name] = ChartSeries{name, {}, true, true, false, false};
        }
        by_strategy[name].points.emplace_back(p.devices, p.throughput);
    }
    ChartSpec tput;
    tput.title = QStringLiteral("Throughput vs devices");
    tput.x_label = QStringLiteral("devices (log scale)");
    tput.y_label = QStringLiteral("%1 (log scale)");
    tput.log_x = true;
    tput.log_y = true;
    ChartSpec eff = tput;
    eff.title = QStringLiteral("Scaling efficiency vs devices");
    eff.y_label = QStringLiteral("scaling efficiency (%)");
    eff.log_y = false;
    for (const auto& name : order) {
        ChartSeries s = by_strategy[name];
        std::sort(s.points.begin(), s.points.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
        tput.series.push_back(s);
        ChartSeries e = s;
        e.points.clear();
        for (const auto& p : data.scaling) {
            if (qs(p.strategy) == name) e.points.emplace_back(p.devices, p.efficiency * 100.0);
        }
        std::sort(e.points.begin(), e.points.end(), [](const QPointF& a, const QPointF& b) { return a.x() < b.x(); });
        eff.series.push_back(e);
    }
    rescale_axis(tput, true, qs(data.throughput_unit));
    return {Figure{tput,
                   QStringLiteral("Best throughput found at each device count on the recommended instance type, "
                                  "data parallel only vs model parallel (tensor/pipeline) vs the best 3D layout."),
                   QStringLiteral("scaling-throughput")},
            Figure{eff,
                   QStringLiteral("Scaling efficiency = throughput(n) / (n × throughput of one device), relative to the "
                                  "smallest configuration that fits when one device is too small."),
                   QStringLiteral("scaling-efficiency")}};
}

// Two short lines so category labels are not elided under narrow bars.
QString bar_label(const nlohmann::ordered_json& plan, size_t index) {
    return QStringLiteral("#%1 %2\n×%3%4")
        .arg(index + 1)
        .arg(plan_instance(plan))
        .arg(plan_nodes(plan))
        .arg(plan_is_spot(plan) ? QStringLiteral(" spot") : QString());
}

Figure breakdown_figure(const ReportData& data) {
    ChartSpec c;
    c.kind = ChartKind::stacked_bar;
    c.title = QStringLiteral("Step-time breakdown");
    c.y_label = QStringLiteral("seconds per step");
    const std::vector<std::pair<const char*, QString>> parts = {
        {"breakdown_s.compute", QStringLiteral("compute")},
        {"breakdown_s.recompute", QStringLiteral("recompute")},
        {"breakdown_s.tp_comm", QStringLiteral("TP comm")},
        {"breakdown_s.pp_bubble", QStringLiteral("PP bubble")},
        {"breakdown_s.pp_comm", QStringLiteral("PP comm")},
        {"breakdown_s.dp_comm_exposed", QStringLiteral("DP comm (exposed)")},
        {"breakdown_s.optimizer", QStringLiteral("optimizer")},
    };
    const size_t shown = std::min<size_t>(data.plans.size(), 4);
    for (size_t i = 0; i < shown; ++i) c.categories << bar_label(data.plans[i], i);
    for (const auto& [path, name] : parts) {
        ChartSeries s{name, {}, false, false, false, false};
        for (size_t i = 0; i < shown; ++i) {
            const double v = fmt::number(data.plans[i], path);
            s.points.emplace_back(static_cast<double>(i), std::isfinite(v) ? v : 0.0);
        }
        c.series.push_back(s);
    }
    return Figure{c,
                  QStringLiteral("Where one training step's time goes, recommendation (#1) first. Communication "
                                 "overlapped with compute is not shown; only its exposed part adds to the step."),
                  QStringLiteral("step-breakdown")};
}

Figure memory_figure(const ReportData& data) {
    ChartSpec c;
    c.kind = ChartKind::stacked_bar;
    c.title = QStringLiteral("Memory per device");
    c.y_label = QStringLiteral("GiB");
    const std::vector<std::pair<const char*, QString>> parts = {
        {"memory_gib.weights", QStringLiteral("weights")},
        {"memory_gib.gradients", QStringLiteral("gradients")},
        {"memory_gib.optimizer", QStringLiteral("optimizer state")},
        {"memory_gib.activations", QStringLiteral("activations")},
    };
    const size_t shown = std::min<size_t>(data.plans.size(), 4);
    for (size_t i = 0; i < shown; ++i) c.categories << bar_label(data.plans[i], i);
    for (const auto& [path, name] : parts) {
        ChartSeries s{name, {}, false, false, false, false};
        for (size_t i = 0; i < shown; ++i) {
            const double v = fmt::number(data.plans[i], path);
            s.points.emplace_back(static_cast<double>(i), std::isfinite(v) ? v : 0.0);
        }
        c.series.push_back(s);
    }
    if (shown > 0) {
        c.reference_y = fmt::number(data.plans.front(), "memory_gib.capacity");
        c.reference_label = QStringLiteral("device capacity (#1)");
    }
    return Figure{c,
                  QStringLiteral("Memory each device needs (mixed-precision Adam; ZeRO and model parallelism shard "
                                 "parts of it) against the device's capacity."),
                  QStringLiteral("memory")};
}

Section charts_section(const ReportData& data) {
    Section s{QStringLiteral("Charts"), {}};
    s.blocks.push_back(pareto_figure(data));
    for (auto& f : scaling_figures(data)) s.blocks.push_back(std::move(f));
    s.blocks.push_back(breakdown_figure(data));
    s.blocks.push_back(memory_figure(data));
    return s;
}

Section prices_section(const ReportData& data) {
    Table t;
    t.headers = {QStringLiteral("Instance"), QStringLiteral("Region"),  QStringLiteral("Kind"),
                 QStringLiteral("USD/hour"), QStringLiteral("As of"),   QStringLiteral("Age"),
                 QStringLiteral("Source")};
    t.align = {Align::left, Align::left, Align::left, Align::right, Align::left, Align::right, Align::left};
    for (const auto& p : data.prices) {
        QString source = qs(p.source);
        if (!p.note.empty()) source += QStringLiteral(" (") + qs(p.note) + u')';
        t.rows.push_back({qs(p.instance_type), qs(p.region), p.kind == "on_demand" ? QStringLiteral("on demand") : qs(p.kind),
                          std::isfinite(p.usd_per_hour) ? QStringLiteral("%1").arg(p.usd_per_hour, 0, 'f', 4) : fmt::kUnknown,
                          or_unknown(qs(p.as_of)),
                          std::isfinite(p.age_days) ? QStringLiteral("%1 d").arg(std::lround(p.age_days)) : fmt::kUnknown,
                          or_unknown(source)});
    }
    Section s{QStringLiteral("Prices and sources"), {}};
    if (t.rows.empty()) {
        s.blocks.push_back(Paragraph{QStringLiteral("No catalog prices were used (custom hardware without a price)."), {}});
    } else {
        t.note = QStringLiteral("Prices from the ClusterPlan catalog at the time of the report. Spot prices vary by zone "
                                "and hour; check their age before committing budget.");
        s.blocks.push_back(t);
    }
    return s;
}

Section calibration_section(const ReportData& data) {
    KeyValueTable kv;
    for (const auto& [k, v] : data.calibration) kv.rows.emplace_back(qs(k), qs(v));
    Section s{QStringLiteral("Calibration provenance"), {}};
    if (kv.rows.empty()) {
        s.blocks.push_back(Paragraph{QStringLiteral("Datasheet figures only; no measured calibration was applied."), {}});
    } else {
        s.blocks.push_back(kv);
    }
    return s;
}

Section excluded_section(const ReportData& data) {
    Section s{QStringLiteral("Instances without a plan"), {}};
    if (data.excluded.empty()) {
        s.blocks.push_back(Paragraph{QStringLiteral("Every instance type searched produced at least one plan."), {}});
        return s;
    }
    Table t;
    t.headers = {QStringLiteral("Why no plan"), QStringLiteral("Instance types")};
    t.align = {Align::left, Align::left};
    for (const auto& [reason, instances] : data.excluded) {
        QStringList list;
        for (const auto& i : instances) list << qs(i);
        t.rows.push_back({qs(reason), list.join(QStringLiteral(", "))});
    }
    s.blocks.push_back(t);
    return s;
}

Section assumptions_section(const ReportData& data) {
    Section s{QStringLiteral("Assumptions and caveats"), {}};
    BulletList assumptions;
    for (const auto& a : data.assumptions) assumptions.items << qs(a);
    if (!assumptions.items.isEmpty()) s.blocks.push_back(assumptions);
    BulletList caveats;
    for (const auto& c : data.caveats) caveats.items << qs(c);
    if (!caveats.items.isEmpty()) {
        s.blocks.push_back(Paragraph{QString(), QStringLiteral("Caveats")});
        s.blocks.push_back(caveats);
    }
    return s;
}

} // namespace

Document build_document(const ReportData& data) {
    Document doc;
    doc.title = data.title.empty() ? QStringLiteral("ClusterPlan recommendation")
                                   : QStringLiteral("ClusterPlan recommendation: ") + qs(data.title);
    doc.subtitle = QStringLiteral("Generated %1 by ClusterPlan %2").arg(qs(data.generated_at_utc), QStringLiteral(CLUSTERPLAN_VERSION));
    doc.sections.push_back(summary_section(data));
    doc.sections.push_back(scenario_section(data));
    doc.sections.push_back(runners_up_section(data));
    doc.sections.push_back(table_section(data));
    doc.sections.push_back(charts_section(data));
    doc.sections.push_back(prices_section(data));
    doc.sections.push_back(calibration_section(data));
    doc.sections.push_back(excluded_section(data));
    doc.sections.push_back(assumptions_section(data));
    return doc;
}

} // namespace cp::report
