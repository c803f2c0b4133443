#include "serving_specs.h"

#include "clusterplan/sim/format.h"
#include "scaling_specs.h"

#include <QObject>
#include <algorithm>
#include <cmath>

namespace cp::charts {
namespace {

double finite_or_zero(double v) {
    return std::isfinite(v) ? v : 0.0;
}

bool positive(double v) {
    return std::isfinite(v) && v > 0;
}

QString ms_text(double ms) {
    return QString::fromStdString(sim::fmt::duration_s(ms / 1e3));
}

struct MemoryPart {
    const char* name;
    double sim::ServingMemoryGib::*field;
    QColor colour;
};

// The training memory chart's colours for the parts both have (weights, activations).
const MemoryPart kMemoryParts[] = {
    {QT_TRANSLATE_NOOP("charts", "Weights"), &sim::ServingMemoryGib::weights,
     QColor(0x4e, 0x79, 0xa7)},
    {QT_TRANSLATE_NOOP("charts", "KV cache"), &sim::ServingMemoryGib::kv_cache,
     QColor(0x59, 0xa1, 0x4f)},
    {QT_TRANSLATE_NOOP("charts", "Activations"), &sim::ServingMemoryGib::activations,
     QColor(0xf2, 0x8e, 0x2b)},
    {QT_TRANSLATE_NOOP("charts", "Reserve"), &sim::ServingMemoryGib::reserve,
     QColor(0xba, 0xb0, 0xac)},
};

bool same_replica(const sim::ServingPlan& a, const sim::ServingPlan& b) {
    return a.accelerator == b.accelerator && a.engine == b.engine && a.weights == b.weights &&
           a.kv_cache == b.kv_cache && a.tp == b.tp && a.pp == b.pp && a.batch == b.batch;
}

} // namespace

QString serving_plan_label(const sim::ServingPlan& p, int rank) {
    QString label = QString::fromStdString(p.instance);
    if (p.nodes > 1) label += QStringLiteral(" ×%1").arg(p.nodes);
    return rank > 0 ? QStringLiteral("#%1 %2").arg(rank).arg(label) : label;
}

ChartSpec serving_curve_spec(const std::vector<sim::ServingPlan>& plans, ServingLatency metric,
                             std::size_t max_lines) {
    ChartSpec c;
    const bool generation = plans.empty() || plans.front().generation;
    const bool ttft = generation && metric == ServingLatency::ttft;
    c.title = generation ? (ttft ? QObject::tr("Time to first token vs throughput")
                                 : QObject::tr("Time per output token vs throughput"))
                         : QObject::tr("Batch latency vs throughput");
    c.x_label = generation ? QObject::tr("output tokens/s per replica (log scale)")
                           : QObject::tr("samples/s per replica (log scale)");
    c.y_label = generation ? (ttft ? QObject::tr("TTFT (ms, log scale)")
                                   : QObject::tr("TPOT (ms, log scale)"))
                           : QObject::tr("latency (ms, log scale)");
    c.log_x = true;
    c.log_y = true;
    auto latency = [&](const sim::ServingCurvePoint& pt) {
        return !generation ? pt.latency_ms : ttft ? pt.ttft_ms : pt.tpot_ms;
    };
    int rank = 0;
    std::vector<const sim::ServingPlan*> drawn;
    for (const sim::ServingPlan& p : plans) {
        if (!p.valid) continue;
        ++rank;
        // Larger sizes of one instance family run the same replica: one curve for them all.
        if (std::any_of(drawn.begin(), drawn.end(),
                        [&](const sim::ServingPlan* d) { return same_replica(*d, p); }))
            continue;
        if (drawn.size() >= max_lines) break;
        drawn.push_back(&p);
        ChartSeries s;
        s.name = serving_plan_label(p, rank);
        s.line = true;
        s.markers = false;
        for (const sim::ServingCurvePoint& pt : p.curve)
            if (positive(pt.output_tokens_per_s) && positive(latency(pt)))
                s.points.emplace_back(pt.output_tokens_per_s, latency(pt));
        if (!s.points.empty()) c.series.push_back(std::move(s));
    }
    // Where the recommendation runs: its share of the request rate on one replica.
    const auto first =
        std::find_if(plans.begin(), plans.end(), [](const auto& p) { return p.valid; });
    if (first != plans.end() && positive(first->request_rate_per_s) && first->replicas > 0) {
        const double units = first->generation ? first->output_tokens : 1.0;
        const double x = first->request_rate_per_s / first->replicas * units;
        const double y = !generation ? first->latency_ms : ttft ? first->ttft_ms : first->tpot_ms;
        if (positive(x) && positive(y)) {
            ChartSeries at = marker_series(QObject::tr("#1 at load"), 0, true);
            at.points.emplace_back(x, y);
            c.series.push_back(std::move(at));
        }
    }
    const double limit = plans.empty() ? std::nan("")
                                       : (ttft || !generation ? plans.front().slo.ttft_ms
                                                              : plans.front().slo.tpot_ms);
    if (positive(limit)) {
        c.reference_lines.push_back({false, limit,
                                     (ttft         ? QObject::tr("TTFT SLO %1")
                                      : generation ? QObject::tr("TPOT SLO %1")
                                                   : QObject::tr("latency SLO %1"))
                                         .arg(ms_text(limit))});
    }
    log_only_where_wide(c);
    return c;
}

ChartSpec serving_cost_spec(const std::vector<sim::ServingPlan>& plans) {
    ChartSpec c;
    c.kind = ChartKind::grouped_bar;
    c.horizontal = true;
    const bool generation = plans.empty() || plans.front().generation;
    c.title = generation ? QObject::tr("Cost per million output tokens")
                         : QObject::tr("Cost per million samples");
    c.y_label =
        generation ? QObject::tr("USD per 1M output tokens") : QObject::tr("USD per 1M samples");
    ChartSeries on_demand = marker_series(QObject::tr("On demand"), 0);
    ChartSeries spot = marker_series(QObject::tr("Spot (with reclaim headroom)"), 1);
    int rank = 0;
    for (const sim::ServingPlan& p : plans) {
        if (!p.valid) continue;
        ++rank;
        if (!positive(p.usd_per_million_output_tokens)) continue;
        const double i = double(c.categories.size());
        c.categories << serving_plan_label(p, rank).toHtmlEscaped();
        on_demand.points.emplace_back(i, p.usd_per_million_output_tokens);
        spot.points.emplace_back(i, finite_or_zero(p.spot.usd_per_million_output_tokens));
    }
    c.series = {on_demand, spot};
    return c;
}

ChartSpec serving_memory_spec(const std::vector<sim::ServingPlan>& plans) {
    ChartSpec c;
    c.kind = ChartKind::stacked_bar;
    // Horizontal: instance names read in full. The free part ends each bar at the capacity.
    c.horizontal = true;
    c.title = QObject::tr("Memory per device");
    c.y_label = QObject::tr("GiB per device");
    std::vector<const sim::ServingPlan*> shown;
    int rank = 0;
    for (const sim::ServingPlan& p : plans) {
        if (!p.valid) continue;
        ++rank;
        shown.push_back(&p);
        c.categories << serving_plan_label(p, rank).toHtmlEscaped();
    }
    for (const MemoryPart& part : kMemoryParts) {
        ChartSeries s;
        s.name = QObject::tr(part.name);
        s.colour = part.colour;
        for (std::size_t i = 0; i < shown.size(); ++i)
            s.points.emplace_back(double(i), finite_or_zero(shown[i]->memory.*(part.field)));
        c.series.push_back(std::move(s));
    }
    ChartSeries free;
    free.name = QObject::tr("Free");
    free.colour = QColor(0xb8, 0xc4, 0xd0);
    for (std::size_t i = 0; i < shown.size(); ++i) {
        const sim::ServingMemoryGib& m = shown[i]->memory;
        free.points.emplace_back(
            double(i), std::max(0.0, finite_or_zero(m.capacity) - finite_or_zero(m.total)));
    }
    c.series.push_back(std::move(free));
    return c;
}

} // namespace cp::charts
