#include "plan_specs.h"

#include <QObject>
#include <algorithm>
#include <cmath>

namespace cp::charts {
namespace {

struct StepPart {
    const char* name;
    double sim::StepBreakdown::*field;
    QColor colour;
};

// One colour per part in every chart and report (Tableau 10/20, distinct at bar widths).
const StepPart kStepParts[] = {
    {QT_TRANSLATE_NOOP("charts", "Compute"), &sim::StepBreakdown::compute_s,
     QColor(0x4e, 0x79, 0xa7)},
    {QT_TRANSLATE_NOOP("charts", "Recompute"), &sim::StepBreakdown::recompute_s,
     QColor(0xa0, 0xcb, 0xe8)},
    {QT_TRANSLATE_NOOP("charts", "TP comm"), &sim::StepBreakdown::tp_comm_s,
     QColor(0xf2, 0x8e, 0x2b)},
    {QT_TRANSLATE_NOOP("charts", "PP bubble"), &sim::StepBreakdown::pp_bubble_s,
     QColor(0xe1, 0x57, 0x59)},
    {QT_TRANSLATE_NOOP("charts", "PP comm"), &sim::StepBreakdown::pp_comm_s,
     QColor(0xff, 0x9d, 0xa7)},
    {QT_TRANSLATE_NOOP("charts", "DP comm"), &sim::StepBreakdown::dp_comm_exposed_s,
     QColor(0x59, 0xa1, 0x4f)},
    {QT_TRANSLATE_NOOP("charts", "Optimizer"), &sim::StepBreakdown::optimizer_s,
     QColor(0xb0, 0x7a, 0xa1)},
    {QT_TRANSLATE_NOOP("charts", "Host overhead"), &sim::StepBreakdown::host_overhead_s,
     QColor(0x9c, 0x75, 0x5f)},
    {QT_TRANSLATE_NOOP("charts", "CP comm"), &sim::StepBreakdown::cp_comm_s,
     QColor(0xed, 0xc9, 0x48)},
    {QT_TRANSLATE_NOOP("charts", "All-to-all (EP)"), &sim::StepBreakdown::ep_comm_s,
     QColor(0x49, 0x98, 0x94)},
    {QT_TRANSLATE_NOOP("charts", "Offload"), &sim::StepBreakdown::offload_s,
     QColor(0xd3, 0x72, 0x95)},
};

struct MemoryPart {
    const char* name;
    double sim::MemoryGib::*field;
    QColor colour;
};

const MemoryPart kMemoryParts[] = {
    {QT_TRANSLATE_NOOP("charts", "Weights"), &sim::MemoryGib::weights, QColor(0x4e, 0x79, 0xa7)},
    {QT_TRANSLATE_NOOP("charts", "Gradients"), &sim::MemoryGib::gradients,
     QColor(0x76, 0xb7, 0xb2)},
    {QT_TRANSLATE_NOOP("charts", "Optimizer"), &sim::MemoryGib::optimizer,
     QColor(0xed, 0xc9, 0x48)},
    {QT_TRANSLATE_NOOP("charts", "Activations"), &sim::MemoryGib::activations,
     QColor(0xf2, 0x8e, 0x2b)},
};

double finite_or_zero(double v) {
    return std::isfinite(v) ? v : 0.0;
}

} // namespace

ChartSpec step_breakdown_spec(const std::vector<PlanBars>& plans) {
    ChartSpec c;
    c.kind = ChartKind::stacked_bar;
    c.horizontal = true;
    c.title = QObject::tr("Step time breakdown");
    // Up to ten parts: a bottom legend under a narrow chart elides their names.
    c.legend = LegendPlace::right;
    double max_s = 0;
    for (const PlanBars& p : plans) {
        c.categories << p.label;
        max_s = std::max(max_s, finite_or_zero(p.step_time_s));
    }
    // Seconds read better than thousands of milliseconds for large models.
    const bool seconds = max_s >= 2.0;
    const double scale = seconds ? 1.0 : 1e3;
    c.y_label = seconds ? QObject::tr("time per step (s)") : QObject::tr("time per step (ms)");
    for (const StepPart& part : kStepParts) {
        ChartSeries s;
        s.name = QObject::tr(part.name);
        s.colour = part.colour;
        bool any = false;
        for (size_t i = 0; i < plans.size(); ++i) {
            const double v = finite_or_zero(plans[i].breakdown_s.*(part.field)) * scale;
            any = any || v > 0;
            s.points.emplace_back(static_cast<double>(i), v);
        }
        if (any) c.series.push_back(std::move(s));
    }
    return c;
}

ChartSpec memory_spec(const std::vector<PlanBars>& plans) {
    ChartSpec c;
    c.kind = ChartKind::stacked_bar;
    c.title = QObject::tr("Memory per device");
    c.y_label = QObject::tr("GiB per device");
    c.legend = LegendPlace::right; // six entries do not fit under a narrow chart
    for (const PlanBars& p : plans)
        c.categories << p.label;
    for (const MemoryPart& part : kMemoryParts) {
        ChartSeries s;
        s.name = QObject::tr(part.name);
        s.colour = part.colour;
        for (size_t i = 0; i < plans.size(); ++i) {
            s.points.emplace_back(static_cast<double>(i),
                                  finite_or_zero(plans[i].memory_gib.*(part.field)));
        }
        c.series.push_back(std::move(s));
    }
    // The total also holds what the parts do not name (CUDA context, allocator slack, pipeline
    // in-flight micro-batches): without this part a bar would stop short of the plan's total.
    ChartSeries rest;
    rest.name = QObject::tr("Framework"); // reserve and the rest; short enough for the legend
    rest.colour = QColor(0xba, 0xb0, 0xac);
    bool any_rest = false;
    for (size_t i = 0; i < plans.size(); ++i) {
        const sim::MemoryGib& m = plans[i].memory_gib;
        double named = 0;
        for (const MemoryPart& part : kMemoryParts)
            named += finite_or_zero(m.*(part.field));
        const double v = std::isfinite(m.total) ? std::max(0.0, m.total - named) : 0.0;
        any_rest = any_rest || v > 1e-9;
        rest.points.emplace_back(static_cast<double>(i), v);
        c.reference_values.push_back(m.capacity);
    }
    if (any_rest) c.series.push_back(std::move(rest));
    c.reference_label = QObject::tr("Capacity");
    return c;
}

} // namespace cp::charts
