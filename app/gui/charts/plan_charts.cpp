#include "charts/plan_charts.h"

#include "charts/chart_style.h"
#include "clusterplan/sim/result.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QChart>
#include <QCoreApplication>
#include <QHorizontalStackedBarSeries>
#include <QLineSeries>
#include <QPen>
#include <QStackedBarSeries>
#include <QValueAxis>
#include <algorithm>
#include <cmath>

namespace cp::gui::charts {

namespace {
struct Part {
    const char* name;
    double sim::StepBreakdown::*field;
    QColor color;
};

const Part kStepParts[] = {
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
};

// A readable upper bound for a value axis (1, 2, 2.5, 5 × 10^k).
double nice_max(double v) {
    if (v <= 0) return 1.0;
    const double p = std::pow(10.0, std::floor(std::log10(v)));
    for (double m : {1.0, 2.0, 2.5, 5.0, 10.0}) {
        if (v <= m * p * 1.0001) return m * p;
    }
    return 10 * p;
}
} // namespace

QChart* step_breakdown_chart(const std::vector<LabelledPlan>& plans) {
    auto* chart = new QChart;
    apply_style(chart, QObject::tr("Step time breakdown"));
    // Up to seven parts: under a 350 px chart a bottom legend elided "Recompute" to "Recomp…".
    chart->legend()->setAlignment(Qt::AlignRight);
    auto* series = new QHorizontalStackedBarSeries;
    QStringList categories;
    double max_ms = 0;
    for (const auto& [label, plan] : plans) {
        categories << label;
        max_ms = std::max(max_ms, plan->step_time_s * 1e3);
    }
    // Seconds read better than thousands of milliseconds for large models.
    const bool seconds = max_ms >= 2000;
    const double per_s = seconds ? 1.0 : 1e3;
    for (const Part& part : kStepParts) {
        auto* set = new QBarSet(QCoreApplication::translate("charts", part.name));
        set->setColor(part.color);
        set->setBorderColor(part.color.darker(115));
        bool any = false;
        for (const auto& lp : plans) {
            const double ms = lp.second->breakdown_s.*(part.field) * per_s;
            any = any || ms > 0;
            *set << ms;
        }
        // Parts that are zero for every plan only clutter the legend.
        if (any)
            series->append(set);
        else
            delete set;
    }
    series->setBarWidth(0.6);
    chart->addSeries(series);
    auto* axis_y = new QBarCategoryAxis;
    axis_y->append(categories);
    chart->addAxis(axis_y, Qt::AlignLeft);
    series->attachAxis(axis_y);
    auto* axis_x = new QValueAxis;
    axis_x->setTitleText(seconds ? QObject::tr("Time per step (s)")
                                 : QObject::tr("Time per step (ms)"));
    axis_x->setRange(0, nice_max(seconds ? max_ms / 1e3 : max_ms));
    axis_x->applyNiceNumbers();
    axis_x->setLabelFormat(seconds && max_ms < 10000 ? "%.1f" : "%.0f");
    chart->addAxis(axis_x, Qt::AlignBottom);
    series->attachAxis(axis_x);
    return chart;
}

QChart* memory_chart(const std::vector<LabelledPlan>& plans) {
    auto* chart = new QChart;
    apply_style(chart, QObject::tr("Memory per device"));
    chart->legend()->setAlignment(Qt::AlignRight); // five entries do not fit under a narrow chart
    struct MemPart {
        const char* name;
        double sim::MemoryGib::*field;
        QColor color;
    };
    const MemPart parts[] = {
        {QT_TRANSLATE_NOOP("charts", "Weights"), &sim::MemoryGib::weights,
         QColor(0x4e, 0x79, 0xa7)},
        {QT_TRANSLATE_NOOP("charts", "Gradients"), &sim::MemoryGib::gradients,
         QColor(0x76, 0xb7, 0xb2)},
        {QT_TRANSLATE_NOOP("charts", "Optimizer"), &sim::MemoryGib::optimizer,
         QColor(0xed, 0xc9, 0x48)},
        {QT_TRANSLATE_NOOP("charts", "Activations"), &sim::MemoryGib::activations,
         QColor(0xf2, 0x8e, 0x2b)},
    };
    auto* series = new QStackedBarSeries;
    QStringList categories;
    double max_gib = 0;
    for (const auto& [label, plan] : plans) {
        categories << label;
        max_gib = std::max({max_gib, plan->memory_gib.total, plan->memory_gib.capacity});
    }
    for (const MemPart& part : parts) {
        auto* set = new QBarSet(QCoreApplication::translate("charts", part.name));
        set->setColor(part.color);
        set->setBorderColor(part.color.darker(115));
        for (const auto& lp : plans)
            *set << lp.second->memory_gib.*(part.field);
        series->append(set);
    }
    // The total also holds what the four parts do not (CUDA context, allocator slack): without
    // this segment the bar would stop short of the total the Plan page states.
    auto* reserve = new QBarSet(QObject::tr("Framework")); // reserve: short enough for the legend
    const QColor reserve_color(0xba, 0xb0, 0xac);
    reserve->setColor(reserve_color);
    reserve->setBorderColor(reserve_color.darker(115));
    bool any_reserve = false;
    for (const auto& lp : plans) {
        const sim::MemoryGib& m = lp.second->memory_gib;
        const double rest = m.total - (m.weights + m.gradients + m.optimizer + m.activations);
        any_reserve = any_reserve || rest > 1e-9;
        *reserve << std::max(0.0, rest);
    }
    if (any_reserve)
        series->append(reserve);
    else
        delete reserve;
    series->setBarWidth(0.5);
    chart->addSeries(series);
    auto* axis_x = new QBarCategoryAxis;
    axis_x->append(categories);
    chart->addAxis(axis_x, Qt::AlignBottom);
    series->attachAxis(axis_x);
    auto* axis_y = new QValueAxis;
    axis_y->setTitleText(QObject::tr("GiB per device"));
    axis_y->setRange(0, nice_max(max_gib * 1.05));
    axis_y->applyNiceNumbers();
    axis_y->setLabelFormat("%.0f");
    chart->addAxis(axis_y, Qt::AlignLeft);
    series->attachAxis(axis_y);
    // Capacity: one short dashed line over each bar (category i spans x in [i-0.5, i+0.5]).
    auto* capacity = new QLineSeries;
    capacity->setName(QObject::tr("Capacity"));
    QPen pen(QColor(0xc0, 0x39, 0x2b));
    pen.setWidthF(2.5);
    pen.setStyle(Qt::DashLine);
    capacity->setPen(pen);
    for (std::size_t i = 0; i < plans.size(); ++i) {
        const double cap = plans[i].second->memory_gib.capacity;
        capacity->append(double(i) - 0.45, cap);
        capacity->append(double(i) + 0.45, cap);
    }
    chart->addSeries(capacity);
    capacity->attachAxis(axis_x);
    capacity->attachAxis(axis_y);
    return chart;
}

} // namespace cp::gui::charts
