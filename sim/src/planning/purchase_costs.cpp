#include "clusterplan/sim/purchase_costs.h"

#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/search.h"

#include <sstream>

namespace cp::sim {
namespace {

std::string usd(double v, int digits = 2) {
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(digits);
    s << "$" << v;
    return s.str();
}

double parameter_count(const Workload& w) {
    if (w.params > 0) return w.params;
    // The shape's layers plus the embedding table (min_parameter_count leaves the latter out).
    return min_parameter_count(w) + static_cast<double>(w.shape.vocab) * w.shape.hidden;
}

} // namespace

StorageCost storage_cost(const Scenario& sc, double wall_time_h) {
    StorageCost c;
    const StorageSpec& s = sc.storage;
    if (s.service == StorageService::none || !is_known(wall_time_h)) return c;
    c.checkpoint_gb = is_known(s.checkpoint_gb)
                          ? s.checkpoint_gb
                          : parameter_count(sc.workload) * kCheckpointBytesPerParam / 1e9;
    const bool default_rate = !is_known(s.usd_per_gb_month);
    c.usd_per_gb_month = !default_rate                     ? s.usd_per_gb_month
                         : s.service == StorageService::s3 ? kS3UsdPerGbMonth
                                                           : kFsxLustreUsdPerGbMonth;
    const double gb = c.checkpoint_gb * s.checkpoints_kept;
    c.cost_usd = gb * c.usd_per_gb_month * wall_time_h / kStorageHoursPerMonth;
    c.priced = true;
    std::ostringstream t;
    t.setf(std::ios::fixed);
    t.precision(0);
    t << "checkpoint storage on "
      << (s.service == StorageService::s3 ? "S3 Standard" : "FSx for Lustre") << ": "
      << s.checkpoints_kept << " × " << c.checkpoint_gb << " GB"
      << (is_known(s.checkpoint_gb)
              ? ""
              : " (14 bytes per parameter: fp32 master weights, Adam moments, 16-bit weights)")
      << " at " << usd(c.usd_per_gb_month, 3) << " per GB-month"
      << (default_rate ? " (us-east-1 list price)" : "")
      << " for the job's wall time: " << usd(c.cost_usd);
    if (s.service == StorageService::fsx_lustre)
        t << " (FSx for Lustre bills at least its 1.2 TiB minimum file system size)";
    c.text = t.str();
    return c;
}

bool purchase_allowed(const Scenario& sc, PurchaseKind kind) {
    switch (sc.pricing) {
    case Pricing::on_demand:
        return kind == PurchaseKind::on_demand;
    case Pricing::spot:
        return kind == PurchaseKind::spot;
    case Pricing::capacity_block:
        return kind == PurchaseKind::capacity_block;
    case Pricing::reserved_1y:
        return kind == PurchaseKind::reserved_1y;
    case Pricing::reserved_3y:
        return kind == PurchaseKind::reserved_3y;
    case Pricing::any:
        // Reservations bind a year or more: ranked only when the scenario names them.
        if (kind == PurchaseKind::spot) return sc.constraints.allow_spot;
        return kind == PurchaseKind::on_demand || kind == PurchaseKind::capacity_block;
    }
    return false;
}

std::vector<std::string> purchase_assumptions(const Scenario& sc, const NodeSpec& node, int nodes) {
    std::vector<std::string> out;
    if (purchase_allowed(sc, PurchaseKind::spot) || sc.pricing == Pricing::any) {
        if (!node.spot_advisor_known)
            out.push_back("no Spot Advisor data for " + node.instance_type + " in " + sc.region +
                          ": interruptions assumed at the conservative >20% bucket");
        if (nodes > 1)
            out.push_back(
                "spot capacity: " + std::to_string(nodes) + " × " + node.instance_type +
                " must be granted in one zone at once (a cluster placement group for EFA); AWS "
                "publishes no capacity figures for it — check `aws ec2 get-spot-placement-scores` "
                "first; a Capacity Block guarantees it");
    }
    const CommittedPrices& c = node.committed;
    if (is_known(c.capacity_block_usd_per_hour))
        out.push_back(
            "Capacity Block: " + usd(c.capacity_block_usd_per_hour) + "/h per instance" +
            (c.capacity_block_as_of.empty() ? "" : " (as of " + c.capacity_block_as_of + ")") +
            ", booked for whole days (1-day steps up to 14 days, then 7-day steps up to 182) and "
            "1, 2, 4 ... 64 instances, paid up front whether used or not");
    if (is_known(c.reserved_1y_usd_per_hour) || is_known(c.reserved_3y_usd_per_hour))
        out.push_back(
            "reserved rates (standard, no upfront) are charged for every hour of the 1- or 3-year "
            "term: the job's share assumes the reservation is kept busy for its whole term");
    return out;
}

} // namespace cp::sim

namespace cp::sim {

PurchaseKind headline_purchase(Pricing pricing) {
    switch (pricing) {
    case Pricing::spot:
        return PurchaseKind::spot;
    case Pricing::capacity_block:
        return PurchaseKind::capacity_block;
    case Pricing::reserved_1y:
        return PurchaseKind::reserved_1y;
    case Pricing::reserved_3y:
        return PurchaseKind::reserved_3y;
    case Pricing::on_demand:
    case Pricing::any:
        break;
    }
    return PurchaseKind::on_demand;
}

} // namespace cp::sim
