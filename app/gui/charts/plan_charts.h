// Charts of single plans: step-time breakdown and memory per device. Page-independent so the
// report generator can reuse them.
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

// Horizontal stacked bar per plan: compute, recompute, TP comm, PP bubble, PP comm,
// exposed DP comm, optimizer (milliseconds).
QChart* step_breakdown_chart(const std::vector<LabelledPlan>& plans);

// Stacked bar of weights / gradients / optimizer / activations / framework reserve per device
// (summing to the stated total) with the device capacity drawn as a line (GiB).
QChart* memory_chart(const std::vector<LabelledPlan>& plans);

} // namespace cp::gui::charts
