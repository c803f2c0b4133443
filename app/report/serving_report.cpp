// ReportData (serving) -> Document: the serving report, with the training report's structure:
// recommendation, scenario, SLO check, ranked deployments, KV-cache capacity, serving on spot,
// charts, prices, calibration, instances that cannot serve, assumptions and caveats.
#include "clusterplan/sim/plan_interval.h"
#include "clusterplan/sim/serving_json.h"
#include "clusterplan/sim/serving_wording.h"
#include "report_data.h"
#include "report_format.h"
#include "report_sections.h"
#include "serving_specs.h"

#include <cmath>
#include <functional>

namespace cp::report {
namespace {

using Plans = std::vector<sim::ServingPlan>;

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString ms(double value) {
    return fmt::duration_s(value / 1e3);
}

bool limited(double v) {
    return std::isfinite(v) && v > 0;
}

QString per_million(const sim::ServingPlan& p) {
    return p.generation ? QStringLiteral("per million output tokens")
                        : QStringLiteral("per million samples");
}

QString quantile(const sim::ServingPlan& p) {
    return QStringLiteral("p%1").arg(std::lround(100 * p.slo.p));
}

QString deployment(const sim::ServingPlan& p) {
    return QStringLiteral("%1 × %2 (%3)").arg(p.nodes).arg(qs(p.instance), qs(p.accelerator));
}

QString replica_text(const sim::ServingPlan& p) {
    QString text = QStringLiteral("%1, weights %2")
                       .arg(qs(sim::enum_name(p.engine)), qs(sim::enum_name(p.weights)));
    if (p.generation) text += QStringLiteral(", KV cache %1").arg(qs(sim::enum_name(p.kv_cache)));
    return text + QStringLiteral(", TP %1%2, batch up to %3")
                      .arg(p.tp)
                      .arg(p.neuron ? QStringLiteral(" NeuronCores") : QString())
                      .arg(p.batch);
}

QString latency_text(const sim::ServingPlan& p) {
    if (!p.generation)
        return QStringLiteral("batch latency %1 (%2)").arg(ms(p.latency_ms), quantile(p));
    return QStringLiteral("TTFT %1 and TPOT %2 (%3)")
        .arg(ms(p.ttft_ms), ms(p.tpot_ms), quantile(p));
}

QString limits_text(const sim::ServingPlan& p) {
    QStringList names;
    for (const auto& n : sim::serving_limit_names(p.limits))
        names << qs(n).replace(u'_', u' ');
    return names.join(QStringLiteral(", "));
}

// One figure with its range as the CLI words it ("80 % of comparable runs within ...").
QString ranged(const QString& name, double value, const sim::PredictionInterval& iv, bool rate,
               const std::function<QString(double)>& unit) {
    const sim::FigureRange r = rate ? sim::rate_range(value, iv) : sim::time_range(value, iv);
    if (!std::isfinite(r.low) || !std::isfinite(r.high)) return {};
    return QStringLiteral("%1 %2 (%3)")
        .arg(name, unit(value),
             qs(sim::range_phrase(iv, unit(r.low).toStdString(), unit(r.high).toStdString())));
}

// How sure the recommendation's figures are: each with the range of its own residuals
// (serving_interval.h), what the ranges rest on, and the unvalidated line where nothing does.
Paragraph ranges_paragraph(const sim::ServingPlan& p) {
    const sim::ServingIntervals& iv = p.intervals;
    const QString unit =
        p.generation ? QStringLiteral("output tokens/s") : QStringLiteral("samples/s");
    const auto rate = [&unit](double v) { return fmt::count(v) + u' ' + unit; };
    QStringList parts;
    parts << ranged(QStringLiteral("throughput per replica"),
                    p.generation ? p.output_tokens_per_s : p.samples_per_s, iv.throughput, true,
                    rate);
    if (p.generation) {
        parts << ranged(QStringLiteral("TTFT"), p.ttft_ms, iv.ttft, false, ms);
        parts << ranged(QStringLiteral("TPOT"), p.tpot_ms, iv.step, false, ms);
    } else {
        parts << ranged(QStringLiteral("batch latency"), p.latency_ms, iv.step, false, ms);
    }
    parts << ranged(QStringLiteral("cost %1").arg(per_million(p)), p.usd_per_million_output_tokens,
                    iv.throughput, false, [](double v) { return fmt::usd(v); });
    parts.removeAll(QString());
    QString text = parts.join(QStringLiteral("; ")) + u'.';
    const sim::PredictionInterval& head = iv.throughput;
    text += head.runs > 0
                ? QStringLiteral(" Throughput and cost rest on %1: %2 measured run%3 from "
                                 "%4 source%5.")
                      .arg(qs(head.bucket))
                      .arg(head.runs)
                      .arg(head.runs == 1 ? QString() : QStringLiteral("s"))
                      .arg(head.sources)
                      .arg(head.sources == 1 ? QString() : QStringLiteral("s"))
                : QStringLiteral(" No published run measured %1.").arg(qs(head.bucket));
    if (!head.validated) text += u' ' + qs(std::string(sim::kUnvalidatedLine)) + u'.';
    return Paragraph{text, QStringLiteral("How sure:")};
}

Section recommendation(const ReportData& data, const Plans& plans) {
    Section s{QStringLiteral("Recommendation"), {}};
    if (plans.empty()) {
        s.blocks.push_back(Paragraph{
            QStringLiteral("None of the %1 instance types can serve this model; the reasons "
                           "are listed under “Instances that cannot serve”.")
                .arg(data.serving->candidates),
            QStringLiteral("No recommendation.")});
        return s;
    }
    const sim::ServingPlan& best = plans.front();
    const QString rate =
        std::isfinite(best.request_rate_per_s)
            ? QStringLiteral("serve %1 requests/s at ").arg(fmt::plain(best.request_rate_per_s, 4))
            : QStringLiteral("run saturated at ");
    const auto counted = [](int n, const QString& noun) {
        return QStringLiteral("%1 %2%3").arg(n).arg(noun, n == 1 ? QString() : QStringLiteral("s"));
    };
    s.blocks.push_back(Paragraph{
        QStringLiteral(
            "%1 of %2 on %3 %4%5, %6 per hour and %7 %8 on demand (%9 on spot with %10).")
            .arg(counted(best.replicas, QStringLiteral("replica")), replica_text(best),
                 counted(best.nodes, QStringLiteral("instance")), rate, latency_text(best),
                 fmt::usd(best.usd_per_hour), fmt::usd(best.usd_per_million_output_tokens),
                 per_million(best), fmt::usd(best.spot.usd_per_million_output_tokens))
            .arg(counted(best.spot.headroom_replicas, QStringLiteral("spare replica"))),
        QStringLiteral("Recommended: %1, %2.")
            .arg(deployment(best),
                 data.serving->spot ? QStringLiteral("spot") : QStringLiteral("on demand"))});
    s.blocks.push_back(ranges_paragraph(best));
    if (const std::string range = sim::serving_load_range_text(best); !range.empty())
        s.blocks.push_back(Paragraph{qs(range) + QStringLiteral(" at the request rate."),
                                     QStringLiteral("Over the capacity's range:")});
    if (const std::string note = sim::serving_quantization_note(best); !note.empty())
        s.blocks.push_back(Paragraph{qs(note), QStringLiteral("Quantization:")});
    const bool any_slo = limited(best.slo.ttft_ms) || limited(best.slo.tpot_ms);
    s.blocks.push_back(Paragraph{
        any_slo ? QStringLiteral("%1 of %2 instance types meet the latency limits; the cheapest "
                                 "%3 them.")
                      .arg(data.serving->meeting_slo)
                      .arg(data.serving->candidates)
                      .arg(best.meets_slo ? QStringLiteral("meets") : QStringLiteral("misses"))
                : QStringLiteral("No latency limit was set: ranked by cost alone."),
        QStringLiteral("SLO:")});
    const QString limits = limits_text(best);
    if (!limits.isEmpty())
        s.blocks.push_back(Paragraph{limits + u'.', QStringLiteral("What limits it:")});
    return s;
}

Section scenario(const ReportData& data, const Plans& plans) {
    const sim::Scenario& sc = data.scenario;
    const sim::ServingSpec& sv = *sc.serving;
    KeyValueTable kv;
    kv.rows.emplace_back(QStringLiteral("Scenario"), qs(sc.name));
    kv.rows.emplace_back(QStringLiteral("Model"), qs(sc.preset));
    auto chosen = [](const auto& value) {
        return value ? qs(sim::enum_name(*value)) : QStringLiteral("searched");
    };
    kv.rows.emplace_back(QStringLiteral("Engine"), chosen(sv.engine));
    kv.rows.emplace_back(QStringLiteral("Weights, KV cache"),
                         chosen(sv.weights) + QStringLiteral(", ") + chosen(sv.kv_cache));
    const double rate = sv.request_rate_per_s;
    kv.rows.emplace_back(QStringLiteral("Traffic"),
                         QStringLiteral("%1; %2 input tokens, %3 output tokens per request")
                             .arg(std::isfinite(rate)
                                      ? QStringLiteral("%1 requests/s").arg(fmt::plain(rate, 4))
                                      : QStringLiteral("saturated (offline throughput)"))
                             .arg(sv.input_tokens)
                             .arg(sv.output_tokens));
    kv.rows.emplace_back(
        QStringLiteral("Latency limits"),
        QStringLiteral("TTFT %1, TPOT %2 at p%3")
            .arg(limited(sv.slo.ttft_ms) ? ms(sv.slo.ttft_ms) : QStringLiteral("none"),
                 limited(sv.slo.tpot_ms) ? ms(sv.slo.tpot_ms) : QStringLiteral("none"))
            .arg(std::lround(100 * sv.slo.p)));
    kv.rows.emplace_back(QStringLiteral("Region, pricing"),
                         QStringLiteral("%1, %2").arg(
                             qs(sc.region), qs(sim::enum_name(sc.pricing)).replace(u'_', u' ')));
    kv.rows.emplace_back(QStringLiteral("Instance types planned"),
                         QStringLiteral("%1 (%2 can serve, top %3 listed)")
                             .arg(data.serving->candidates)
                             .arg(data.serving->candidates -
                                  [&] {
                                      int n = 0;
                                      for (const auto& e : data.excluded)
                                          n += int(e.second.size());
                                      return n;
                                  }())
                             .arg(plans.size()));
    return Section{QStringLiteral("Scenario"), {kv}};
}

Section slo_check(const Plans& plans) {
    Table t;
    t.set_columns({{QStringLiteral("#"), Align::right},
                   {QStringLiteral("Instance"), Align::left},
                   {QStringLiteral("TTFT"), Align::right},
                   {QStringLiteral("Limit"), Align::right},
                   {QStringLiteral("TPOT"), Align::right},
                   {QStringLiteral("Limit"), Align::right},
                   {QStringLiteral("Utilisation"), Align::right},
                   {QStringLiteral("SLO"), Align::left}});
    for (std::size_t i = 0; i < plans.size(); ++i) {
        const auto& p = plans[i];
        const bool any = limited(p.slo.ttft_ms) || limited(p.slo.tpot_ms);
        t.rows.push_back({QString::number(i + 1), qs(p.instance),
                          ms(p.generation ? p.ttft_ms : p.latency_ms),
                          limited(p.slo.ttft_ms) ? ms(p.slo.ttft_ms) : fmt::kUnknown,
                          p.generation ? ms(p.tpot_ms) : fmt::kUnknown,
                          limited(p.slo.tpot_ms) ? ms(p.slo.tpot_ms) : fmt::kUnknown,
                          fmt::percent(p.utilization),
                          !any          ? fmt::kUnknown
                          : p.meets_slo ? QStringLiteral("met")
                                        : QStringLiteral("missed")});
    }
    t.emphasised_rows = {0};
    t.note = QStringLiteral(
        "Latencies at the planned request rate and the limits' quantile: TTFT includes the "
        "queueing wait (M/D/1) and the prefill; for encoders and CNNs the TTFT column is the "
        "latency of one batch. Utilisation: the share of a replica's capacity the rate uses.");
    return Section{QStringLiteral("SLO check"), {t}};
}

Section ranked(const ReportData& data, const Plans& plans) {
    const bool generation = plans.front().generation;
    Table t;
    const QString unit = generation ? QStringLiteral("tokens") : QStringLiteral("samples");
    t.set_columns(
        {{QStringLiteral("#"), Align::right},
         {QStringLiteral("Instance"), Align::left},
         {QStringLiteral("Count"), Align::right},
         {QStringLiteral("Replica"), Align::left},
         {QStringLiteral("TTFT"), Align::right},
         {QStringLiteral("TPOT"), Align::right},
         {generation ? QStringLiteral("Tokens/s") : QStringLiteral("Samples/s"), Align::right},
         {QStringLiteral("$/h"), Align::right},
         {QStringLiteral("$/1M ") + unit, Align::right},
         {QStringLiteral("Limits"), Align::left}});
    const bool spot = data.serving->spot;
    for (std::size_t i = 0; i < plans.size(); ++i) {
        const auto& p = plans[i];
        t.rows.push_back(
            {QString::number(i + 1), qs(p.instance), QString::number(p.nodes),
             QStringLiteral("%1 %2 TP%3 b%4")
                 .arg(qs(sim::enum_name(p.engine)), qs(sim::enum_name(p.weights)))
                 .arg(p.tp)
                 .arg(p.batch),
             ms(p.generation ? p.ttft_ms : p.latency_ms),
             p.generation ? ms(p.tpot_ms) : fmt::kUnknown,
             fmt::count((p.generation ? p.output_tokens_per_s : p.samples_per_s) * p.replicas),
             fmt::usd(p.ranked_usd_per_hour(spot)),
             fmt::usd(spot ? p.spot.usd_per_million_output_tokens
                           : p.usd_per_million_output_tokens),
             limits_text(p)});
    }
    t.emphasised_rows = {0};
    t.note =
        QStringLiteral(
            "Ranked: meets the latency limits, then cheapest per million at the planned rate (%1 "
            "prices). Replica: engine, weight storage, tensor-parallel devices (NeuronCores on "
            "Inferentia/Trainium) and the largest batch. Tokens/s: capacity of all replicas.")
            .arg(spot ? QStringLiteral("spot") : QStringLiteral("on-demand"));
    return Section{plans.size() == 1 ? QStringLiteral("Top deployment")
                                     : QStringLiteral("Top %1 deployments").arg(plans.size()),
                   {t}};
}

Section kv_capacity(const Plans& plans) {
    Table t;
    t.set_columns({{QStringLiteral("#"), Align::right},
                   {QStringLiteral("Instance"), Align::left},
                   {QStringLiteral("Weights"), Align::right},
                   {QStringLiteral("KV cache"), Align::right},
                   {QStringLiteral("Activations"), Align::right},
                   {QStringLiteral("Capacity"), Align::right},
                   {QStringLiteral("Batch"), Align::right},
                   {QStringLiteral("KV-bound"), Align::left}});
    for (std::size_t i = 0; i < plans.size(); ++i) {
        const auto& p = plans[i];
        t.rows.push_back({QString::number(i + 1), qs(p.instance), fmt::gib(p.memory.weights),
                          fmt::gib(p.memory.kv_cache), fmt::gib(p.memory.activations),
                          fmt::gib(p.memory.capacity), QString::number(p.batch),
                          p.limits.kv_bound ? QStringLiteral("yes") : QStringLiteral("no")});
    }
    t.note = QStringLiteral(
        "Per device. The KV cache holds 2 × layers × KV heads × head size values per token in "
        "its storage type; what memory leaves after weights, activations and the reserve caps "
        "the batch. KV-bound: that cap, not the engine's scheduler limit, sets the batch, so "
        "throughput grows with more memory per device.");
    return Section{QStringLiteral("KV-cache capacity"), {t}};
}

Section spot(const Plans& plans) {
    Table t;
    t.set_columns({{QStringLiteral("#"), Align::right},
                   {QStringLiteral("Instance"), Align::left},
                   {QStringLiteral("Replicas per instance"), Align::right},
                   {QStringLiteral("Lost per reclaim"), Align::right},
                   {QStringLiteral("Spare replicas"), Align::right},
                   {QStringLiteral("Spot $/h"), Align::right},
                   {plans.front().generation ? QStringLiteral("Spot $/1M tokens")
                                             : QStringLiteral("Spot $/1M samples"),
                    Align::right}});
    for (std::size_t i = 0; i < plans.size(); ++i) {
        const auto& p = plans[i];
        t.rows.push_back({QString::number(i + 1), qs(p.instance),
                          QString::number(p.spot.replicas_per_node),
                          QString::number(p.spot.replicas_lost_per_reclaim),
                          QString::number(p.spot.headroom_replicas), fmt::usd(p.spot.usd_per_hour),
                          fmt::usd(p.spot.usd_per_million_output_tokens)});
    }
    t.note = QStringLiteral(
        "A reclaim takes out every replica on the reclaimed instance (AWS gives two minutes' "
        "notice); the spare replicas keep the request rate served through one reclaim.");
    return Section{QStringLiteral("Serving on spot"), {t}};
}

Section charts(const Plans& plans) {
    Section s{QStringLiteral("Charts"), {}};
    const bool generation = plans.front().generation;
    s.blocks.push_back(Figure{
        charts::serving_curve_spec(plans, charts::ServingLatency::ttft),
        generation ? QStringLiteral("Time to first token against one replica's output tokens/s "
                                    "as the request rate rises to 95 % of its capacity, for the "
                                    "leading distinct replicas; the dashed line is the limit, "
                                    "the marker the recommendation at the planned rate.")
                   : QStringLiteral("Batch latency against one replica's samples/s as the "
                                    "request rate rises; the dashed line is the limit."),
        QStringLiteral("serving_ttft")});
    if (generation)
        s.blocks.push_back(
            Figure{charts::serving_curve_spec(plans, charts::ServingLatency::tpot),
                   QStringLiteral("Time per output token against output tokens/s: a larger running "
                                  "batch raises throughput and each step's time."),
                   QStringLiteral("serving_tpot")});
    s.blocks.push_back(Figure{charts::serving_cost_spec(plans),
                              QStringLiteral("Cost %1 at the planned rate, on demand and on spot "
                                             "with the spare replicas a reclaim needs.")
                                  .arg(per_million(plans.front())),
                              QStringLiteral("serving_cost")});
    s.blocks.push_back(Figure{charts::serving_memory_spec(plans),
                              QStringLiteral("Memory per device: weights, KV cache, activations, "
                                             "reserve and what is left free."),
                              QStringLiteral("serving_memory")});
    return s;
}

} // namespace

Document build_serving_document(const ReportData& data) {
    Document doc;
    doc.title = data.title.empty() ? QStringLiteral("ClusterPlan serving plan")
                                   : QStringLiteral("ClusterPlan serving plan: ") + qs(data.title);
    doc.subtitle = QStringLiteral("Generated %1 by ClusterPlan %2")
                       .arg(qs(data.generated_at_utc), QStringLiteral(CLUSTERPLAN_VERSION));
    const Plans& plans = data.serving->ranked;
    doc.sections.push_back(recommendation(data, plans));
    doc.sections.push_back(scenario(data, plans));
    if (!plans.empty()) {
        doc.sections.push_back(slo_check(plans));
        doc.sections.push_back(ranked(data, plans));
        doc.sections.push_back(kv_capacity(plans));
        doc.sections.push_back(spot(plans));
        doc.sections.push_back(charts(plans));
    }
    doc.sections.push_back(prices_section(data));
    doc.sections.push_back(calibration_section(data));
    Section excluded = excluded_section(data);
    excluded.heading = QStringLiteral("Instances that cannot serve");
    doc.sections.push_back(excluded);
    doc.sections.push_back(assumptions_section(data));
    return doc;
}

} // namespace cp::report
