// The Plan page's charts of one plan (step-time breakdown, memory per device): the shared specs
// (plan_specs.h) drawn for the screen.
#pragma once

#include <QString>
#include <utility>
#include <vector>

class QChart;

namespace cp::sim {
struct PlanResult;
}

namespace cp::gui::charts {

using LabelledPlan = std::pair<QString, const sim::PlanResult*>;

QChart* step_breakdown_chart(const std::vector<LabelledPlan>& plans);
QChart* memory_chart(const std::vector<LabelledPlan>& plans);

} // namespace cp::gui::charts
