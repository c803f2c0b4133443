// The serving report's data: the same study as `clusterplan serve` (ranked deployments, the
// reasons others cannot serve), the catalog prices they are costed at, calibration provenance,
// the model's assumptions and what the published runs validate. No model arithmetic here.
#include "clusterplan/service/clock.h"
#include "clusterplan/service/scenario_input.h"
#include "clusterplan/service/serving_study.h"
#include "report_common.h"

#include <algorithm>
#include <cmath>

namespace cp::service {

namespace {

bool same_price(double a, double b) {
    return std::isfinite(a) && std::isfinite(b) && std::abs(a - b) <= 1e-6 * std::abs(b);
}

// Marks the hourly prices a ranked deployment is costed at (per instance: the plan's hourly
// cost over its instances, on demand and on spot with headroom).
void mark_used(std::vector<report::PriceSource>& prices,
               const std::vector<sim::ServingPlan>& ranked) {
    for (auto& price : prices)
        for (const auto& p : ranked) {
            if (p.instance != price.instance_type) continue;
            const double per_node =
                price.kind == "spot" ? p.spot.usd_per_hour / std::max(1, p.spot.nodes_with_headroom)
                                     : p.usd_per_hour / std::max(1, p.nodes);
            price.used = price.used || same_price(per_node, price.usd_per_hour);
        }
}

} // namespace

report::ReportData build_serving_report_data(const sim::Scenario& scenario,
                                             catalog::Catalog& catalog, int top_n) {
    report::ReportData data;
    data.title = scenario.name;
    data.generated_at_utc = utc_now("%Y-%m-%dT%H:%M:%SZ");
    data.scenario = scenario;
    const bool generation = scenario.serving->output_tokens > 0;
    data.throughput_unit = generation ? "tokens/s" : "samples/s";
    const ServingStudy study = study_serving(scenario, catalog);
    report::ServingReport serving;
    serving.candidates = int(study.ranked.size());
    serving.meeting_slo = study.meeting_slo();
    serving.spot = scenario.pricing == sim::Pricing::spot;
    std::vector<std::string> instances;
    for (const auto& p : study.ranked) {
        if (!p.valid) {
            // Grouped by reason, like the training report's instances without a plan.
            auto it = std::find_if(data.excluded.begin(), data.excluded.end(),
                                   [&](const auto& e) { return e.first == p.limits.reason; });
            if (it == data.excluded.end())
                data.excluded.push_back({p.limits.reason, {p.instance}});
            else
                it->second.push_back(p.instance);
            continue;
        }
        if (int(serving.ranked.size()) >= top_n) continue;
        serving.ranked.push_back(p);
        instances.push_back(p.instance);
    }
    data.evaluated = study.ranked.size();
    data.prices = catalog_prices(instances, scenario.region, catalog);
    mark_used(data.prices, serving.ranked);
    // A single instance is planned with the scenario's calibration; a ranking on datasheets.
    std::optional<sim::CalibrationProfile> calibration;
    if (study.ranked.size() == 1) calibration = resolve_calibration(scenario, catalog);
    data.calibration = provenance(calibration ? &*calibration : nullptr, {});
    if (!serving.ranked.empty()) {
        const sim::ServingPlan& best = serving.ranked.front();
        data.assumptions = best.assumptions;
        if (!best.validation.empty())
            data.caveats.push_back("Validation: " + best.validation + ".");
    }
    data.caveats.push_back(
        "ClusterPlan is an analytical model of serving, validated against published benchmark "
        "runs (see the project's validation report); treat latencies and throughputs as "
        "estimates and confirm the choice with a load test at the planned request rate.");
    data.caveats.push_back(
        "Prices are catalog snapshots; on-demand prices change rarely, spot prices hourly and "
        "per zone. Their dates and sources are listed above.");
    data.caveats.push_back(
        "Serving on spot: a reclaim takes out every replica on the reclaimed instance; the spot "
        "figures include spare replicas that keep the request rate served through one reclaim.");
    data.serving = std::move(serving);
    return data;
}

} // namespace cp::service
