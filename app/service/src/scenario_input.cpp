#include "clusterplan/service/scenario_input.h"

#include "clusterplan/catalog/calibration_store.h"
#include "clusterplan/catalog/name_lookup.h"
#include "clusterplan/service/errors.h"
#include "clusterplan/sim/calibration_lookup.h"
#include "clusterplan/sim/io/input_file.h"
#include "clusterplan/sim/planner.h"

#include <algorithm>

namespace cp::service {
namespace {

sim::NodeSpec catalog_node(const sim::Scenario& sc, const catalog::Catalog& cat,
                           const std::string& type, const std::string& field) {
    const auto found = catalog::find_instance_type(cat, type); // any letter case
    auto node = found ? cat.node_spec(*found, sc.region, sc.spot.price_rule) : std::nullopt;
    if (!node)
        throw sim::ScenarioError(
            sc.origin, field,
            "unknown instance type '" + type + "'" +
                catalog::did_you_mean(type, catalog::instance_type_names(cat)) +
                " (see `clusterplan catalog list`)");
    return *node;
}

// spot.zone pins the zone whose history prices spot; one with no data for a scenario's own
// instance is a typo or a zone the type is not sold in.
void check_spot_zone(const sim::Scenario& sc, const catalog::Catalog& cat,
                     const std::string& type) {
    if (sc.spot.price_rule.zone.empty()) return;
    const auto summary = cat.spot_price_summary(type, sc.region, sc.spot.price_rule);
    if (!summary.zone_missing) return;
    std::string zones;
    for (const auto& z : summary.zone_names)
        zones += (zones.empty() ? "" : ", ") + (z.empty() ? std::string("region-wide") : z);
    throw sim::ScenarioError(
        sc.origin, "spot.zone",
        "no spot price of " + type + " in '" + sc.spot.price_rule.zone + "' (" +
            (zones.empty() ? std::string("no zone has one") : "zones with prices: " + zones) + ")");
}

std::string joined(const std::vector<std::string>& items) {
    std::string out;
    for (const auto& item : items)
        out += (out.empty() ? "" : ", ") + item;
    return out.empty() ? std::string("none") : out;
}

// Catalog prices are looked up in cluster.region; a region with no price at all (a typo, or one
// the catalog does not cover) would leave every cost unknown. Not needed when the scenario
// gives the price.
void check_region_has_prices(const sim::Scenario& sc, const catalog::Catalog& cat) {
    if (sc.custom && sim::is_known(sc.custom->usd_per_node_hour)) return;
    const std::vector<std::string> regions = cat.price_regions();
    if (std::find(regions.begin(), regions.end(), sc.region) != regions.end()) return;
    throw sim::ScenarioError(sc.origin, "cluster.region",
                             "the catalog has no price in '" + sc.region +
                                 "' (regions with prices: " + joined(regions) +
                                 "; or give cluster.custom.usd_per_node_hour)");
}

std::optional<sim::AcceleratorSpec> custom_accelerator(const sim::Scenario& sc,
                                                       const catalog::Catalog& cat) {
    if (!sc.custom || sc.custom->accelerator.empty()) return std::nullopt;
    auto acc = cat.accelerator_spec(sc.custom->accelerator);
    if (!acc) {
        std::string known;
        for (const auto& a : cat.accelerators())
            known += (known.empty() ? "" : ", ") + a.id;
        throw sim::ScenarioError(sc.origin, "cluster.custom.accelerator",
                                 "unknown accelerator '" + sc.custom->accelerator +
                                     "' (known: " + known + ")");
    }
    return acc;
}

} // namespace

sim::Scenario load_scenario_file(const std::string& path) {
    std::string text;
    try {
        text = sim::io::read_input_file(path, "the scenario file");
    } catch (const sim::io::InputFileError& e) {
        throw InputError(e.what()); // the CLI's and GUI's one kind of unreadable-input error
    }
    return sim::parse_scenario(text, path);
}

sim::NodeSpec resolve_node(const sim::Scenario& sc, const catalog::Catalog& cat) {
    const auto acc = custom_accelerator(sc, cat);
    if (sc.instance.empty()) {
        if (!sc.custom)
            throw sim::ScenarioError(
                sc.origin, "cluster.instance",
                "required by simulate (or describe the hardware in cluster.custom); "
                "`clusterplan recommend` searches the instance types for this scenario");
        return sim::apply_custom_hardware(nullptr, *sc.custom, acc ? &*acc : nullptr, sc.origin);
    }
    sim::NodeSpec node = catalog_node(sc, cat, sc.instance, "cluster.instance");
    check_spot_zone(sc, cat, sc.instance);
    check_region_has_prices(sc, cat);
    if (sc.custom)
        node = sim::apply_custom_hardware(&node, *sc.custom, acc ? &*acc : nullptr, sc.origin);
    return node;
}

std::vector<sim::NodeSpec> resolve_candidates(const sim::Scenario& sc,
                                              const catalog::Catalog& cat) {
    if (!sc.instance.empty() || (sc.custom && !sc.custom->accelerator.empty()))
        return {resolve_node(sc, cat)};
    std::vector<sim::NodeSpec> out;
    check_region_has_prices(sc, cat);
    if (!sc.constraints.instances.empty()) {
        for (const auto& type : sc.constraints.instances) {
            sim::NodeSpec node = catalog_node(sc, cat, type, "constraints.instances");
            out.push_back(std::move(node));
        }
    } else {
        out = cat.trainable_node_specs(sc.region, sc.spot.price_rule);
    }
    if (sc.custom) {
        // Overrides without an instance apply to every candidate (e.g. a negotiated price).
        for (auto& node : out)
            node = sim::apply_custom_hardware(&node, *sc.custom, nullptr, sc.origin);
    }
    return out;
}

std::optional<sim::CalibrationProfile> resolve_calibration(const sim::Scenario& sc,
                                                           catalog::Catalog& cat) {
    // An editor's unset field means the same as "datasheet" (parsed files never leave it
    // empty).
    if (sc.calibration.empty() || sc.calibration == "datasheet") return std::nullopt;
    catalog::CalibrationStore store(cat);
    auto profile = store.load(sc.calibration);
    if (!profile) {
        std::string known;
        for (const auto& row : store.list())
            known += (known.empty() ? "" : ", ") + row.name;
        throw sim::ScenarioError(
            sc.origin, "cluster.calibration",
            "no calibration profile named '" + sc.calibration + "' (known: " +
                (known.empty() ? std::string("none; import one with `clusterplan calibrate import`")
                               : known) +
                "; or use \"datasheet\")");
    }
    return profile;
}

void check_calibration_applies(const sim::Scenario& sc,
                               const std::vector<sim::NodeSpec>& candidates,
                               const std::optional<sim::CalibrationProfile>& calibration) {
    if (!calibration) return;
    for (const auto& node : candidates)
        if (sim::calibration_matches(*calibration, node)) return;
    const std::string measured_on =
        calibration->accelerator.empty() ? calibration->instance_type : calibration->accelerator;
    const std::string target = candidates.size() == 1 ? candidates.front().instance_type + "'s " +
                                                            candidates.front().accelerator.id
                                                      : "any instance searched";
    throw sim::ScenarioError(sc.origin, "cluster.calibration",
                             "profile '" + calibration->name + "' was measured on " + measured_on +
                                 ", not on " + target +
                                 " (use \"datasheet\" or a profile of this hardware)");
}

} // namespace cp::service
