#include "charts/plan_charts.h"

#include "plan_specs.h"
#include "qchart_render.h"

namespace cp::gui::charts {
namespace {
std::vector<::cp::charts::PlanBars> bars(const std::vector<LabelledPlan>& plans) {
    std::vector<::cp::charts::PlanBars> out;
    for (const auto& [label, plan] : plans) {
        out.push_back(
            {label.toHtmlEscaped(), plan->step_time_s, plan->breakdown_s, plan->memory_gib});
    }
    return out;
}
} // namespace

QChart* step_breakdown_chart(const std::vector<LabelledPlan>& plans) {
    return ::cp::charts::make_chart(::cp::charts::step_breakdown_spec(bars(plans)),
                                    ::cp::charts::screen_look());
}

QChart* memory_chart(const std::vector<LabelledPlan>& plans) {
    return ::cp::charts::make_chart(::cp::charts::memory_spec(bars(plans)),
                                    ::cp::charts::screen_look());
}

} // namespace cp::gui::charts
