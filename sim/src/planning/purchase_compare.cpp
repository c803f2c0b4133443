#include "clusterplan/sim/purchase_compare.h"

#include "clusterplan/sim/format.h"
#include "clusterplan/sim/wording.h"

namespace cp::sim {

std::vector<PurchaseQuote> purchase_quotes(const JobEconomics& j) {
    std::vector<PurchaseQuote> out;
    if (is_known(j.cost_usd))
        out.push_back({PurchaseKind::on_demand, j.cost_usd, j.time_to_train_h, {}});
    if (j.spot.feasible && j.spot.priced)
        out.push_back({PurchaseKind::spot, j.spot.cost_usd, j.spot.wall_time_h, "expected"});
    const CapacityBlockCost& cb = j.committed.capacity_block;
    if (cb.available)
        out.push_back({PurchaseKind::capacity_block, cb.cost_usd, j.time_to_train_h,
                       std::to_string(cb.reserved_nodes) + " instances × " +
                           fmt::number(cb.block_hours / 24.0, 0) + " days"});
    const auto reserved = [&](PurchaseKind kind, const ReservedCost& r) {
        if (is_known(r.job_cost_usd))
            out.push_back({kind, r.job_cost_usd, j.time_to_train_h,
                           "of a " + fmt::usd_short(r.commitment_usd) + " commitment"});
    };
    reserved(PurchaseKind::reserved_1y, j.committed.reserved_1y);
    reserved(PurchaseKind::reserved_3y, j.committed.reserved_3y);
    return out;
}

std::string purchase_side_by_side(const JobEconomics& job) {
    const std::vector<PurchaseQuote> quotes = purchase_quotes(job);
    if (quotes.size() < 2) return {};
    std::string out = "purchase options side by side: ";
    for (std::size_t i = 0; i < quotes.size(); ++i) {
        const PurchaseQuote& q = quotes[i];
        const bool spot = q.kind == PurchaseKind::spot;
        const std::string approx = spot ? "~" : "";
        std::string part =
            std::string(purchase_label(q.kind)) + " " + approx + fmt::usd_short(q.cost_usd);
        if (q.kind == PurchaseKind::capacity_block)
            part += " (" + q.detail + ")";
        else if (q.kind == PurchaseKind::reserved_1y || q.kind == PurchaseKind::reserved_3y)
            part += " " + q.detail;
        else
            part += " in " + approx + format_duration_s(q.wall_time_h * 3600.0);
        out += (i ? "; " : "") + part;
    }
    return out;
}

} // namespace cp::sim
