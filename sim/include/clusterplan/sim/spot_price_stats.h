// The spot price a plan is costed at: a stated statistic of the price history of one zone
// (DESIGN.md "Purchase options"), never the single cheapest observation. Spot prices are a
// step function per zone: each observation holds until the next one in that zone.
#pragma once

#include "clusterplan/sim/hardware.h"

#include <string>
#include <vector>

namespace cp::sim {

enum class SpotStatistic { median, mean, p90, max, latest };

// Scenario field spot.price_rule: which statistic, over how many days, in which zone.
struct SpotPriceRule {
    SpotStatistic statistic = SpotStatistic::median;
    // 30 days: the Spot Advisor's own look-back (its interruption buckets describe "the last
    // month"), so price and interruption data describe the same period.
    int window_days = 30;
    std::string zone; // empty: the zone a price-blind request would get (see summarize)
};

// One stored spot price: zone ("" = region-wide figure with no zone), value and time.
struct SpotObservation {
    std::string zone;
    double usd_per_hour = 0;
    double t_days = 0; // days since any fixed epoch; only differences matter
    std::string as_of; // the stored text, for the basis sentence
};

struct SpotPriceSummary {
    bool known = false;
    double usd_per_hour = kUnknown;     // the statistic in the chosen zone
    std::string zone;                   // chosen zone ("" = region-wide data)
    int zones = 0;                      // zones with an observation in the window
    double min_usd_per_hour = kUnknown; // range over every zone in the window
    double max_usd_per_hour = kUnknown;
    int observations = 0;
    std::string newest_as_of;
    bool zone_missing = false; // rule.zone named a zone with no data
    std::vector<std::string> zone_names;
    std::string basis; // one sentence: statistic, window, zone, range
};

const char* enum_name(SpotStatistic s);
// Parses "median", "mean", "p90", "max", "latest"; false when unknown.
bool parse_spot_statistic(const std::string& text, SpotStatistic& out);

// Summarises the observations of one instance type in one region under `rule`. Without a
// pinned zone the zone is the one whose statistic is the median among zones (the upper one of
// an even count): a price-capacity-optimised request lands where capacity is, not where the
// price is lowest, so the typical zone is the honest default.
SpotPriceSummary summarize_spot_prices(std::vector<SpotObservation> observations,
                                       const SpotPriceRule& rule);

} // namespace cp::sim
