// Evaluates the current scenario for the Plan page through the service layer and collects what
// the page shows. Qt types only for presentation; no model logic here.
#pragma once

#include "clusterplan/sim/plan.h"
#include "clusterplan/sim/prediction_interval.h"
#include "clusterplan/sim/result.h"
#include "clusterplan/sim/scenario.h"

#include <QString>
#include <QStringList>

namespace cp::gui {

class CatalogService;

struct PlanOutcome {
    QString error; // one sentence when the scenario cannot be evaluated
    sim::PlanResult result;
    sim::PredictionInterval interval; // range of every time, rate and cost figure
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

// Resolves the scenario's hardware and calibration through the service layer (the same resolver
// as `clusterplan simulate`) and evaluates its plan; `error` holds the one-sentence reason when
// it cannot be evaluated.
PlanOutcome evaluate_plan(const sim::Scenario& scenario, CatalogService& catalog);

} // namespace cp::gui
