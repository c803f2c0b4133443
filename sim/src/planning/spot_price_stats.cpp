#include "clusterplan/sim/spot_price_stats.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

namespace cp::sim {
namespace {

struct Segment {
    double usd_per_hour;
    double weight; // days in effect inside the window (equal weights for a same-day snapshot)
};

// Weighted quantile q of the segments: the smallest value whose cumulative weight reaches q of
// the total; exactly on a boundary the two neighbours are averaged (a min/max pair -> midpoint).
double weighted_quantile(std::vector<Segment> s, double q) {
    std::sort(s.begin(), s.end(),
              [](const Segment& a, const Segment& b) { return a.usd_per_hour < b.usd_per_hour; });
    double total = 0;
    for (const Segment& x : s)
        total += x.weight;
    const double target = q * total;
    const double eps = 1e-12 * std::max(total, 1.0);
    double cum = 0;
    for (std::size_t i = 0; i < s.size(); ++i) {
        cum += s[i].weight;
        if (cum >= target - eps) {
            if (std::abs(cum - target) <= eps && i + 1 < s.size())
                return 0.5 * (s[i].usd_per_hour + s[i + 1].usd_per_hour);
            return s[i].usd_per_hour;
        }
    }
    return s.back().usd_per_hour;
}

double statistic_of(const std::vector<Segment>& s, double latest, SpotStatistic stat) {
    switch (stat) {
    case SpotStatistic::median:
        return weighted_quantile(s, 0.5);
    case SpotStatistic::p90:
        return weighted_quantile(s, 0.9);
    case SpotStatistic::max: {
        double m = 0;
        for (const Segment& x : s)
            m = std::max(m, x.usd_per_hour);
        return m;
    }
    case SpotStatistic::mean: {
        double w = 0, v = 0;
        for (const Segment& x : s) {
            w += x.weight;
            v += x.weight * x.usd_per_hour;
        }
        return w > 0 ? v / w : kUnknown;
    }
    case SpotStatistic::latest:
        return latest;
    }
    return kUnknown;
}

std::string money(double v) {
    std::ostringstream s;
    s.setf(std::ios::fixed);
    s.precision(v < 10 ? 3 : 2);
    s << "$" << v;
    return s.str();
}

} // namespace

const char* enum_name(SpotStatistic s) {
    switch (s) {
    case SpotStatistic::median:
        return "median";
    case SpotStatistic::mean:
        return "mean";
    case SpotStatistic::p90:
        return "p90";
    case SpotStatistic::max:
        return "max";
    case SpotStatistic::latest:
        return "latest";
    }
    return "median";
}

bool parse_spot_statistic(const std::string& text, SpotStatistic& out) {
    for (SpotStatistic s : {SpotStatistic::median, SpotStatistic::mean, SpotStatistic::p90,
                            SpotStatistic::max, SpotStatistic::latest})
        if (text == enum_name(s)) {
            out = s;
            return true;
        }
    return false;
}

SpotPriceSummary summarize_spot_prices(std::vector<SpotObservation> obs,
                                       const SpotPriceRule& rule) {
    SpotPriceSummary out;
    if (obs.empty()) return out;
    std::sort(obs.begin(), obs.end(), [](const SpotObservation& a, const SpotObservation& b) {
        return a.zone != b.zone ? a.zone < b.zone : a.t_days < b.t_days;
    });
    double end = obs.front().t_days;
    for (const auto& o : obs)
        if (o.t_days >= end) {
            end = o.t_days;
            out.newest_as_of = o.as_of;
        }
    const double start = end - rule.window_days;

    struct ZoneData {
        std::vector<Segment> segments;
        double latest = kUnknown;
        double stat = kUnknown;
    };
    std::map<std::string, ZoneData> zones;
    // Observations stamped at the same moment in one zone (a snapshot such as the seed's min and
    // max over unnamed zones) share that moment's duration equally.
    for (std::size_t i = 0; i < obs.size();) {
        std::size_t j = i;
        while (j < obs.size() && obs[j].zone == obs[i].zone && obs[j].t_days == obs[i].t_days)
            ++j;
        const bool last_in_zone = j == obs.size() || obs[j].zone != obs[i].zone;
        const double until = last_in_zone ? end : obs[j].t_days;
        const double from = std::max(obs[i].t_days, start);
        ZoneData& z = zones[obs[i].zone];
        if (last_in_zone) z.latest = obs[j - 1].usd_per_hour;
        if (until > start || last_in_zone) {
            const double share = std::max(until - from, 0.0) / static_cast<double>(j - i);
            for (std::size_t k = i; k < j; ++k)
                z.segments.push_back({obs[k].usd_per_hour, share});
        }
        i = j;
    }
    double lo = kUnknown, hi = kUnknown;
    std::vector<std::pair<double, std::string>> by_stat;
    for (auto& [name, z] : zones) {
        if (z.segments.empty()) continue;
        // A snapshot (several values stamped at one moment, like the seed's min and max over
        // unnamed zones) has no durations: weigh its values equally.
        double total = 0;
        for (const Segment& s : z.segments)
            total += s.weight;
        if (total <= 0)
            for (Segment& s : z.segments)
                s.weight = 1.0;
        for (const Segment& s : z.segments) {
            lo = is_known(lo) ? std::min(lo, s.usd_per_hour) : s.usd_per_hour;
            hi = is_known(hi) ? std::max(hi, s.usd_per_hour) : s.usd_per_hour;
            ++out.observations;
        }
        z.stat = statistic_of(z.segments, z.latest, rule.statistic);
        by_stat.emplace_back(z.stat, name);
        out.zone_names.push_back(name);
    }
    if (by_stat.empty()) return out;
    out.zones = static_cast<int>(by_stat.size());
    out.min_usd_per_hour = lo;
    out.max_usd_per_hour = hi;
    std::sort(by_stat.begin(), by_stat.end());
    std::string chosen;
    std::string why;
    if (!rule.zone.empty()) {
        if (!zones.count(rule.zone) || zones[rule.zone].segments.empty()) {
            out.zone_missing = true;
            return out;
        }
        chosen = rule.zone;
        why = "the zone spot.zone names";
    } else {
        chosen = by_stat[by_stat.size() / 2].second;
        why = out.zones == 1
                  ? "the only zone with data"
                  : "the middle of " + std::to_string(out.zones) +
                        " zones by price (a capacity-optimised request is not price-aware)";
    }
    out.zone = chosen;
    out.usd_per_hour = zones[chosen].stat;
    out.known = is_known(out.usd_per_hour);

    std::ostringstream b;
    b << "spot " << money(out.usd_per_hour) << "/h: " << enum_name(rule.statistic);
    if (rule.statistic != SpotStatistic::latest)
        b << " of the last " << rule.window_days << " days";
    if (chosen.empty())
        b << " of the region-wide figures (zones not recorded)";
    else
        b << " in " << chosen << " (" << why << ")";
    if (lo < hi) b << "; observed range " << money(lo) << "-" << money(hi) << "/h";
    b << "; newest price " << out.newest_as_of;
    out.basis = b.str();
    return out;
}

} // namespace cp::sim
