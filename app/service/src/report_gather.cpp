// build_report_data(): everything the report shows, from the same planner and JSON
// serialiser as `clusterplan recommend` / `simulate --json`, plus catalog prices and
// calibration provenance. No model arithmetic here: numbers come from sim/.
#include "clusterplan/catalog/catalog.h"
#include "clusterplan/service/clock.h"
#include "clusterplan/service/planning.h"
#include "clusterplan/service/report_data.h"
#include "clusterplan/sim/plan_json.h"
#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/recommend.h"
#include "clusterplan/sim/scaling.h"
#include "clusterplan/sim/search.h"
#include "report_common.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <set>

namespace cp::service {

using report::PriceSource;
using report::ReportData;
using report::ScalingPoint;

namespace {

// Best throughput per strategy at 1, 2, 4 ... devices within a node, then doubling whole
// nodes up to the scenario's limit: data parallel only, model parallel only (dp = 1) and the
// best of every layout, as sim::scaling_curves computes them for the GUI's Scaling page too.
std::vector<ScalingPoint> scaling_curves(const sim::Scenario& scenario, const sim::NodeSpec& node,
                                         const sim::CalibrationProfile* calibration) {
    const int max_nodes = std::min(scenario.constraints.max_nodes, 1024);
    sim::ScalingOptions options;
    options.calibration = calibration;
    const sim::ScalingCurves curves = sim::scaling_curves(
        scenario, node, sim::scaling_sizes(node.accelerators_per_node, max_nodes), options);
    const std::pair<const char*, sim::LayoutFamily> strategies[] = {
        {"Data parallel", sim::LayoutFamily::data},
        {"Model parallel (TP/PP)", sim::LayoutFamily::model},
        {"Best layout (3D)", sim::LayoutFamily::any}};
    std::vector<ScalingPoint> points;
    for (const sim::ScalingRow& row : curves.rows) {
        for (const auto& [name, family] : strategies) {
            const sim::ScalingPoint& p = row.at(family);
            if (p.found)
                points.push_back({name, row.size.devices(), p.throughput, p.scaling_efficiency});
        }
    }
    return points;
}

} // namespace

std::vector<PriceSource> catalog_prices(const std::vector<std::string>& instances,
                                        const std::string& region,
                                        const catalog::Catalog& catalog) {
    std::vector<PriceSource> out;
    for (const auto& type : instances) {
        for (const auto& row : catalog.prices(type, true)) {
            if (row.region != region) continue;
            out.push_back({row.instance_type, row.region, row.kind, row.usd_per_hour, row.as_of,
                           row.age_days ? *row.age_days : std::nan(""), row.source, row.note});
        }
    }
    return out;
}

std::vector<std::pair<std::string, std::string>>
provenance(const sim::CalibrationProfile* calibration, const nlohmann::ordered_json& best) {
    std::vector<std::pair<std::string, std::string>> rows;
    if (calibration == nullptr) {
        rows.emplace_back("Source", "datasheet figures (no measured calibration applied)");
        rows.emplace_back("Efficiency curves",
                          "published size-dependent GEMM/HBM efficiencies (DESIGN.md, Calculon)");
        return rows;
    }
    rows.emplace_back("Profile", calibration->name);
    rows.emplace_back("Source", calibration->source);
    rows.emplace_back("Measured on host", calibration->host.empty() ? "—" : calibration->host);
    rows.emplace_back("Instance type",
                      calibration->instance_type.empty() ? "—" : calibration->instance_type);
    rows.emplace_back("Accelerator",
                      calibration->accelerator.empty() ? "—" : calibration->accelerator);
    rows.emplace_back("Measured at",
                      calibration->measured_at.empty() ? "—" : calibration->measured_at);
    std::string tools;
    for (const auto& [tool, version] : calibration->tool_versions) {
        if (!tools.empty()) tools += ", ";
        tools.append(tool).append(" ").append(version);
    }
    if (!tools.empty()) rows.emplace_back("Tool versions", tools);
    rows.emplace_back(
        "Measured figures",
        std::to_string(calibration->intra_node.size() + calibration->inter_node.size()) +
            " collective fits, " + std::to_string(calibration->gemm.size()) + " GEMM curves");
    if (best.contains("calibration") && best["calibration"].contains("source") &&
        best["calibration"]["source"].is_string()) {
        rows.emplace_back("Applied to the plans as",
                          best["calibration"]["source"].get<std::string>());
    }
    return rows;
}

ReportData build_report_data(const sim::Scenario& scenario, catalog::Catalog& catalog, int top_n,
                             const sim::SweepOptions& options) {
    if (scenario.serving) return build_serving_report_data(scenario, catalog, top_n);
    ReportData data;
    data.title = scenario.name;
    data.generated_at_utc = utc_now("%Y-%m-%dT%H:%M:%SZ");
    data.scenario = scenario;
    data.throughput_unit =
        scenario.workload.kind == sim::WorkloadKind::transformer ? "tokens/s" : "samples/s";

    SearchInputs inputs = search_inputs(scenario, catalog);
    const sim::CalibrationProfile* cal = inputs.profile();
    const sim::RecommendResult result =
        sim::recommend(scenario, std::move(inputs.candidates), cal, top_n, options);
    data.evaluated = result.sweep.evaluated;
    data.search_s = result.sweep.elapsed_s;

    std::vector<std::string> instances;
    for (const auto& rec : result.recommendations) {
        data.plans.push_back(sim::plan_report_json(rec.report));
        data.reasons.push_back(rec.reasons);
        data.limits.push_back(rec.limits);
        if (rec.report.instance != "custom" &&
            std::find(instances.begin(), instances.end(), rec.report.instance) == instances.end()) {
            instances.push_back(rec.report.instance);
        }
    }

    // Time-vs-cost points: every option meeting the constraints (thinned for very large
    // sweeps), the Pareto front, and the ranked ones marked so the chart can label them.
    const auto& sorted = result.ranking.sorted;
    const size_t stride = std::max<size_t>(1, sorted.size() / 3000);
    std::set<std::pair<int, bool>> front;
    for (const auto& o : result.ranking.pareto)
        front.insert({o.config, o.spot});
    std::map<std::pair<int, bool>, int> ranks;
    for (size_t i = 0; i < result.ranking.ranked.size(); ++i) {
        ranks[{result.ranking.ranked[i].config, result.ranking.ranked[i].spot}] =
            static_cast<int>(i) + 1;
    }
    for (size_t i = 0; i < sorted.size(); ++i) {
        const auto& o = sorted[i];
        const bool on_front = front.count({o.config, o.spot}) != 0;
        const auto rank = ranks.find({o.config, o.spot});
        if (i % stride != 0 && !on_front && rank == ranks.end()) continue;
        const sim::ConfigBest& config = result.sweep.configs[static_cast<size_t>(o.config)];
        std::string label;
        if (on_front) {
            label = std::to_string(config.nodes) + "× " +
                    result.sweep.candidates[static_cast<size_t>(config.candidate)].instance_type +
                    (o.spot ? " spot" : "");
        }
        data.cost_time.push_back({o.wall_time_h, o.cost_usd, on_front,
                                  rank == ranks.end() ? 0 : rank->second, std::move(label)});
    }

    if (!result.recommendations.empty()) {
        data.scaling = scaling_curves(scenario, result.recommendations.front().report.node, cal);
        for (const auto& a : result.recommendations.front().report.assumptions)
            data.assumptions.push_back(a);
    }
    data.prices = catalog_prices(instances, scenario.region, catalog);
    // Mark the rows the plans are costed at: a catalog may hold several spot prices of one
    // type (e.g. min and max over zones) and the reader must know which one the totals use.
    for (auto& price : data.prices) {
        for (const auto& plan : data.plans) {
            if (!plan.contains("prices") || plan.value("instance", "") != price.instance_type)
                continue;
            const auto& used = plan["prices"][price.kind == "spot" ? "usd_per_node_hour_spot"
                                                                   : "usd_per_node_hour"];
            if (used.is_number() && std::abs(used.get<double>() - price.usd_per_hour) <=
                                        1e-9 * std::abs(price.usd_per_hour)) {
                price.used = true;
            }
        }
    }
    data.calibration =
        provenance(cal, data.plans.empty() ? nlohmann::ordered_json() : data.plans.front());

    // Instances without any plan, grouped by reason (a dozen G5 sizes share one reason).
    auto exclude = [&data](const std::string& instance, std::string reason) {
        if (reason.rfind(instance + ": ", 0) == 0) reason.erase(0, instance.size() + 2);
        for (auto& [why, list] : data.excluded) {
            if (why == reason) {
                list.push_back(instance);
                return;
            }
        }
        data.excluded.push_back({reason, {instance}});
    };
    for (size_t i = 0; i < result.sweep.summaries.size(); ++i) {
        const auto& s = result.sweep.summaries[i];
        if (!s.skipped.empty()) {
            exclude(s.instance, s.skipped);
        } else if (s.configs_fitting == 0) {
            exclude(s.instance, sim::why_nothing_fits(s, result.sweep.candidates[i], scenario));
        }
    }
    // The rest of the planner's summary (deadline, budget, unpriced options) are caveats.
    for (const auto& line : result.summary) {
        bool per_instance = line.rfind("skipped: ", 0) == 0;
        for (const auto& s : result.sweep.summaries)
            per_instance = per_instance || line.rfind(s.instance + ": ", 0) == 0;
        if (!per_instance) {
            data.caveats.push_back(line);
            data.planner_summary.push_back(line);
        }
    }
    data.caveats.push_back(
        "ClusterPlan is an analytical model, validated against published runs (see the "
        "project's validation report); treat step times as estimates and confirm the winner "
        "with a short benchmark run before committing budget.");
    data.caveats.push_back(
        "Prices are catalog snapshots; on-demand prices change rarely, spot prices hourly and "
        "per zone. Their dates and sources are listed above.");
    // A budget is only as current as its prices: name the oldest one the plans use.
    for (const auto& price : data.prices) {
        if (price.used && std::isfinite(price.age_days) &&
            (std::isnan(data.price_age.days) || price.age_days > data.price_age.days))
            data.price_age = {price.age_days, price.as_of, price.instance_type, price.kind};
    }
    if (data.price_age.days > report::kPriceAgeAlertDays) {
        data.caveats.push_back("The oldest price the plans use is " +
                               std::to_string(std::lround(data.price_age.days)) +
                               " days old (as of " + data.price_age.as_of +
                               "); refresh the catalog before committing budget.");
    }
    data.caveats.push_back(
        "Spot estimates use the Spot Advisor interruption bucket of each instance type; actual "
        "capacity and interruption rates vary by zone and over time.");
    return data;
}

} // namespace cp::service
