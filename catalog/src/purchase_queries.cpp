// Purchase-option queries: the spot price statistic over the stored history and the current
// Capacity Block and reserved rates, written into the simulator's NodeSpec.
#include "clusterplan/catalog/catalog.h"
#include "dates.h"
#include "sqlite_util.h"

#include <algorithm>

namespace cp::catalog {

using detail::Stmt;

sim::SpotPriceSummary Catalog::spot_price_summary(std::string_view type, std::string_view region,
                                                  const sim::SpotPriceRule& rule) const {
    std::vector<sim::SpotObservation> zoned, region_wide;
    Stmt s(db_,
           "SELECT zone, usd_per_hour, as_of FROM prices WHERE instance_type = ?1 AND region = ?2 "
           "AND kind = 'spot' ORDER BY zone, as_of");
    s.bind(1, type).bind(2, region);
    std::string newest_zoned, newest_wide;
    while (s.step()) {
        sim::SpotObservation o;
        o.zone = s.get_text(0);
        o.usd_per_hour = s.get_double(1);
        o.as_of = s.get_text(2);
        const auto age = detail::age_days(o.as_of);
        if (!age) continue;
        o.t_days = -*age;
        auto& newest = o.zone.empty() ? newest_wide : newest_zoned;
        newest = std::max(newest, o.as_of);
        (o.zone.empty() ? region_wide : zoned).push_back(std::move(o));
    }
    // Per-zone history wins unless a region-wide figure (the spot pricing page feed, the seed's
    // range) is newer than all of it.
    const bool use_zoned = !zoned.empty() && newest_zoned >= newest_wide;
    return sim::summarize_spot_prices(use_zoned ? std::move(zoned) : std::move(region_wide), rule);
}

sim::CommittedPrices Catalog::committed_prices(std::string_view type,
                                               std::string_view region) const {
    sim::CommittedPrices c;
    // Current rows per zone; a region's rate is the median of its zones' current rates (offers
    // differ by zone and date; the median is neither the best nor the worst of them).
    Stmt s(db_, "SELECT kind, usd_per_hour, as_of FROM current_prices WHERE instance_type = ?1 AND "
                "region = ?2 AND kind IN ('capacity_block', 'reserved_1y', 'reserved_3y') "
                "ORDER BY kind, usd_per_hour");
    s.bind(1, type).bind(2, region);
    struct Rates {
        std::vector<double> values;
        std::string as_of;
    };
    Rates cb, r1, r3;
    while (s.step()) {
        const std::string kind = s.get_text(0);
        Rates& r = kind == "capacity_block" ? cb : kind == "reserved_1y" ? r1 : r3;
        r.values.push_back(s.get_double(1));
        r.as_of = std::max(r.as_of, s.get_text(2));
    }
    auto median = [](const std::vector<double>& v) {
        if (v.empty()) return sim::kUnknown;
        const std::size_t n = v.size();
        return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    };
    c.capacity_block_usd_per_hour = median(cb.values);
    c.capacity_block_as_of = cb.as_of;
    c.reserved_1y_usd_per_hour = median(r1.values);
    c.reserved_3y_usd_per_hour = median(r3.values);
    c.reserved_as_of = std::max(r1.as_of, r3.as_of);
    return c;
}

void Catalog::apply_purchase_prices(sim::NodeSpec& node, std::string_view region,
                                    const sim::SpotPriceRule& rule) const {
    const sim::SpotPriceSummary spot = spot_price_summary(node.instance_type, region, rule);
    node.usd_per_node_hour_spot = spot.known ? spot.usd_per_hour : sim::kUnknown;
    node.usd_per_node_hour_spot_min = spot.min_usd_per_hour;
    node.usd_per_node_hour_spot_max = spot.max_usd_per_hour;
    node.spot_price_basis = spot.basis;
    node.spot_as_of = spot.newest_as_of;
    node.committed = committed_prices(node.instance_type, region);
}

} // namespace cp::catalog
