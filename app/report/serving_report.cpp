#include "serving_report.h"

#include "clusterplan/sim/serving_json.h"

#include <QDateTime>
#include <cmath>

namespace cp::report {

namespace {

QString num(double v, int digits) {
    return std::isfinite(v) ? QString::number(v, 'f', digits) : QStringLiteral("—");
}

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

QString instance_label(const sim::ServingPlan& p) {
    return QStringLiteral("%1 (%2)").arg(q(p.instance), q(p.accelerator));
}

// Latency against throughput of one replica as the request rate rises, with the SLO lines.
ChartSpec latency_chart(const sim::ServingPlan& p) {
    ChartSpec c;
    c.title = QStringLiteral("Latency vs throughput, one replica of %1").arg(q(p.instance));
    c.x_label = p.generation ? QStringLiteral("output tokens/s per replica")
                             : QStringLiteral("samples/s per replica");
    c.y_label = QStringLiteral("ms");
    ChartSeries first{
        p.generation ? QStringLiteral("TTFT") : QStringLiteral("latency"), {}, true, true};
    ChartSeries tpot{QStringLiteral("TPOT"), {}, true, true};
    double x_max = 0;
    for (const auto& pt : p.curve) {
        first.points.emplace_back(pt.output_tokens_per_s,
                                  p.generation ? pt.ttft_ms : pt.latency_ms);
        if (p.generation) tpot.points.emplace_back(pt.output_tokens_per_s, pt.tpot_ms);
        x_max = std::max(x_max, pt.output_tokens_per_s);
    }
    c.series.push_back(first);
    if (p.generation) c.series.push_back(tpot);
    auto slo_line = [&](double ms, const QString& name) {
        if (!std::isfinite(ms)) return;
        ChartSeries s{name, {{0.0, ms}, {x_max, ms}}, true, false};
        s.dashed = true;
        c.series.push_back(s);
    };
    slo_line(p.slo.ttft_ms,
             p.generation ? QStringLiteral("TTFT SLO") : QStringLiteral("latency SLO"));
    if (p.generation) slo_line(p.slo.tpot_ms, QStringLiteral("TPOT SLO"));
    return c;
}

ChartSpec cost_chart(const std::vector<const sim::ServingPlan*>& plans, bool generation) {
    ChartSpec c;
    c.kind = ChartKind::stacked_bar;
    c.title = generation ? QStringLiteral("$ per 1M output tokens by instance")
                         : QStringLiteral("$ per 1M samples by instance");
    c.y_label = QStringLiteral("USD");
    ChartSeries on_demand{QStringLiteral("on demand"), {}};
    for (std::size_t i = 0; i < plans.size(); ++i) {
        c.categories << q(plans[i]->instance);
        on_demand.points.emplace_back(double(i), plans[i]->usd_per_million_output_tokens);
    }
    c.series.push_back(on_demand);
    return c;
}

ChartSpec memory_chart(const std::vector<const sim::ServingPlan*>& plans) {
    ChartSpec c;
    c.kind = ChartKind::stacked_bar;
    c.title = QStringLiteral("Memory per device");
    c.y_label = QStringLiteral("GiB");
    c.reference_label = QStringLiteral("capacity");
    ChartSeries w{QStringLiteral("weights"), {}}, kv{QStringLiteral("KV cache"), {}},
        act{QStringLiteral("activations"), {}}, res{QStringLiteral("reserve"), {}};
    for (std::size_t i = 0; i < plans.size(); ++i) {
        const auto& m = plans[i]->memory;
        c.categories << q(plans[i]->instance);
        w.points.emplace_back(double(i), m.weights);
        kv.points.emplace_back(double(i), m.kv_cache);
        act.points.emplace_back(double(i), m.activations);
        res.points.emplace_back(double(i), m.reserve);
        c.reference_values.push_back(m.capacity);
    }
    c.series = {w, kv, act, res};
    return c;
}

} // namespace

Document build_serving_document(const sim::Scenario& sc,
                                const std::vector<sim::ServingPlan>& ranked, int top_n) {
    Document doc;
    doc.title = QStringLiteral("Serving report: %1")
                    .arg(sc.name.empty() ? q(sc.workload.name) : q(sc.name));
    doc.subtitle = QStringLiteral("Generated %1 by ClusterPlan")
                       .arg(QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
    std::vector<const sim::ServingPlan*> shown;
    for (const auto& p : ranked)
        if (p.valid && int(shown.size()) < top_n) shown.push_back(&p);

    Section summary{QStringLiteral("Summary"), {}};
    const sim::ServingSpec s = sc.serving.value_or(sim::ServingSpec{});
    summary.blocks.push_back(
        Paragraph{QStringLiteral("%1 input / %2 output tokens, %3 requests/s, SLO: TTFT %4 ms, "
                                 "TPOT %5 ms at p%6; %7 candidate "
                                 "instance types.")
                      .arg(s.input_tokens)
                      .arg(s.output_tokens)
                      .arg(std::isfinite(s.request_rate_per_s) ? num(s.request_rate_per_s, 1)
                                                               : QStringLiteral("saturated"))
                      .arg(num(s.slo.ttft_ms, 0), num(s.slo.tpot_ms, 0), num(100 * s.slo.p, 0))
                      .arg(ranked.size()),
                  QStringLiteral("Workload: %1.").arg(q(sc.workload.name))});
    if (shown.empty()) {
        summary.blocks.push_back(
            Paragraph{QStringLiteral("No candidate instance can serve this model."), {}});
        doc.sections.push_back(summary);
        return doc;
    }
    const sim::ServingPlan& best = *shown.front();
    summary.blocks.push_back(Paragraph{
        QStringLiteral("%1 replica(s) of %2 with %3 (%4 weights, tp %5) on %6 instance(s): $%7 per "
                       "hour, $%8 per 1M %9%10.")
            .arg(best.replicas)
            .arg(q(best.accelerator), q(sim::enum_name(best.engine)),
                 q(sim::enum_name(best.weights)))
            .arg(best.tp)
            .arg(best.nodes)
            .arg(num(best.usd_per_hour, 2), num(best.usd_per_million_output_tokens, 3),
                 best.generation ? QStringLiteral("output tokens") : QStringLiteral("samples"),
                 best.meets_slo ? QString()
                                : QStringLiteral(" (the SLO is missed by every candidate)")),
        QStringLiteral("Recommended: %1.").arg(q(best.instance))});
    doc.sections.push_back(summary);

    Section choice{QStringLiteral("Recommended deployment"), {}};
    KeyValueTable kv;
    kv.rows = {{QStringLiteral("Instance"), instance_label(best)},
               {QStringLiteral("Engine"), q(sim::enum_name(best.engine))},
               {QStringLiteral("Weights / KV cache"),
                QStringLiteral("%1 / %2").arg(q(sim::enum_name(best.weights)),
                                              q(sim::enum_name(best.kv_cache)))},
               {QStringLiteral("Devices per replica"), QStringLiteral("%1 (tp %2, pp %3)")
                                                           .arg(best.devices_per_replica)
                                                           .arg(best.tp)
                                                           .arg(best.pp)},
               {QStringLiteral("Batch (max) / running"),
                QStringLiteral("%1 / %2").arg(best.batch).arg(num(best.running_batch, 1))},
               {QStringLiteral("Replicas / instances"),
                QStringLiteral("%1 / %2").arg(best.replicas).arg(best.nodes)}};
    if (best.generation) {
        kv.rows.push_back(
            {QStringLiteral("TTFT / TPOT"),
             QStringLiteral("%1 ms / %2 ms").arg(num(best.ttft_ms, 1), num(best.tpot_ms, 2))});
        kv.rows.push_back(
            {QStringLiteral("Capacity per replica"),
             QStringLiteral("%1 output tokens/s").arg(num(best.output_tokens_per_s, 0))});
    } else {
        kv.rows.push_back({QStringLiteral("Latency per batch"),
                           QStringLiteral("%1 ms").arg(num(best.latency_ms, 2))});
        kv.rows.push_back({QStringLiteral("Capacity per replica"),
                           QStringLiteral("%1 samples/s").arg(num(best.samples_per_s, 0))});
    }
    kv.rows.push_back(
        {QStringLiteral("On demand"), QStringLiteral("$%1/h (prices as of %2)")
                                          .arg(num(best.usd_per_hour, 2), q(best.price_as_of))});
    kv.rows.push_back({QStringLiteral("Spot"),
                       QStringLiteral("$%1/h with %2 spare replica(s); a reclaim takes out %3")
                           .arg(num(best.spot.usd_per_hour, 2))
                           .arg(best.spot.headroom_replicas)
                           .arg(best.spot.replicas_lost_per_reclaim)});
    kv.rows.push_back({QStringLiteral("Validation"), q(best.validation)});
    choice.blocks.push_back(kv);
    choice.blocks.push_back(Figure{
        latency_chart(best),
        QStringLiteral(
            "TTFT and TPOT as the request rate per replica rises (M/D/1 queue); dashed: the SLO."),
        QStringLiteral("serving_latency")});
    doc.sections.push_back(choice);

    Section ranking{QStringLiteral("Ranked choices"), {}};
    Table t;
    t.headers = {QStringLiteral("#"),       QStringLiteral("instance"), QStringLiteral("engine"),
                 QStringLiteral("weights"), QStringLiteral("tp"),       QStringLiteral("replicas"),
                 QStringLiteral("TTFT ms"), QStringLiteral("TPOT ms"),  QStringLiteral("$/h"),
                 QStringLiteral("$/1M"),    QStringLiteral("SLO")};
    t.align = {Align::right, Align::left,  Align::left,  Align::left,  Align::right, Align::right,
               Align::right, Align::right, Align::right, Align::right, Align::left};
    int rank = 0;
    for (const auto* p : shown)
        t.rows.push_back({QString::number(++rank), q(p->instance), q(sim::enum_name(p->engine)),
                          q(sim::enum_name(p->weights)), QString::number(p->tp),
                          QString::number(p->replicas),
                          num(p->generation ? p->ttft_ms : p->latency_ms, 1), num(p->tpot_ms, 2),
                          num(p->usd_per_hour, 2), num(p->usd_per_million_output_tokens, 3),
                          p->meets_slo ? QStringLiteral("met") : QStringLiteral("missed")});
    t.emphasised_rows = {0};
    ranking.blocks.push_back(t);
    ranking.blocks.push_back(
        Figure{cost_chart(shown, best.generation),
               QStringLiteral("On-demand cost per million outputs at the request rate."),
               QStringLiteral("serving_cost")});
    doc.sections.push_back(ranking);

    Section memory{QStringLiteral("Memory"), {}};
    memory.blocks.push_back(Figure{memory_chart(shown),
                                   QStringLiteral("Weights, KV cache, activations and reserve per "
                                                  "device; the mark is the device's capacity."),
                                   QStringLiteral("serving_memory")});
    doc.sections.push_back(memory);

    Section assumptions{QStringLiteral("Assumptions"), {}};
    BulletList list;
    for (const auto& a : best.assumptions)
        list.items << q(a);
    assumptions.blocks.push_back(list);
    doc.sections.push_back(assumptions);
    return doc;
}

} // namespace cp::report
