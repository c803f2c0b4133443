// Evaluates the current scenario for the Plan page through sim's public API and collects what
// the page shows. Qt types only for presentation; no model logic here.
#pragma once

#include "clusterplan/sim/calibration_profile.h"
#include "clusterplan/sim/plan.h"
#include "clusterplan/sim/result.h"
#include "clusterplan/sim/scenario.h"

#include <QString>
#include <QStringList>
#include <optional>

namespace cp::gui {

class CatalogService;
}
namespace cp::catalog {
class Catalog;
}
namespace cp::gui {

struct PlanOutcome {
    QString error; // one sentence when the scenario cannot be evaluated
    sim::PlanResult result;
    sim::Layout layout;
    bool layout_searched = false; // the layout was chosen by search
    int devices = 0;
    sim::WorkloadKind workload_kind = sim::WorkloadKind::transformer; // tokens or samples
    QString instance;
    QString accelerator;
    double time_to_train_h = 0;
    double cost_on_demand_usd = 0; // NaN when the price is unknown
    double cost_spot_usd = 0;      // expected, including interruptions
    double spot_time_to_train_h = 0;
    double spot_expected_interruptions = 0;
    double scaling_efficiency = 0;
    bool spot_headline = false; // the scenario prices on spot: its cost is the headline
    QString verdict;            // plain-language summary
    bool verdict_ok = true;     // false → shown as a warning
    QStringList assumptions;
};

// The node a scenario runs on: the catalog instance with cluster.custom applied. Null and
// `error` set (one sentence) when it cannot be resolved.
std::optional<sim::NodeSpec> resolve_node(const sim::Scenario& scenario, const catalog::Catalog* db,
                                          QString* error);

// The scenario's calibration profile (none for "datasheet"); false and `error` set when the
// named profile is not stored.
bool load_calibration(const sim::Scenario& scenario, const catalog::Catalog* db,
                      std::optional<sim::CalibrationProfile>& profile, QString* error);

PlanOutcome evaluate_plan(const sim::Scenario& scenario, CatalogService& catalog);

} // namespace cp::gui
