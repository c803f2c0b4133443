// One job bought each way it can be bought: on demand, spot (expected, with interruptions),
// a Capacity Block and 1-/3-year reservations, in one list for the planner's sentences, the
// report's first page and the GUI.
#pragma once

#include "clusterplan/sim/purchase_options.h"
#include "clusterplan/sim/spot_cost.h"

#include <string>
#include <vector>

namespace cp::sim {

struct PurchaseQuote {
    PurchaseKind kind = PurchaseKind::on_demand;
    double cost_usd = kUnknown;    // one trial bought this way
    double wall_time_h = kUnknown; // one trial (spot: expected, with interruptions)
    std::string detail;            // "4 instances × 2 days", "of a $1.2M commitment", ""
};

// The priced options of one job, in PurchaseKind order; unpriced options are left out.
std::vector<PurchaseQuote> purchase_quotes(const JobEconomics& job);

// "purchase options side by side: on demand $1,234 in 3.2 h; spot ~$700 in ~4 h; ..." or ""
// when fewer than two options are priced.
std::string purchase_side_by_side(const JobEconomics& job);

} // namespace cp::sim
