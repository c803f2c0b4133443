#include "io/scenario_pricing.h"

#include "clusterplan/sim/scenario_limits.h"

#include <algorithm>

namespace cp::sim::scenario_io {

void parse_precision(Reader& top, Scenario& sc) {
    const json* v = top.get("precision");
    if (!v) return;
    auto one = [&](const json& item) -> Precision {
        if (item.is_string())
            for (const auto& [p, name] : kPrecisions)
                if (item.get<std::string>() == name) return p;
        const std::string shown =
            item.is_string() ? "'" + item.get<std::string>() + "'" : item.dump();
        top.fail("precision",
                 "unknown value " + shown +
                     " (expected one of fp32, tf32, fp16, bf16, fp8, \"auto\" or a list of them)");
    };
    if (v->is_string() && v->get<std::string>() == "auto") {
        // Mixed precision where the part has it: bf16 (Ampere and later, Trainium), else fp16
        // with loss scaling (Volta, Turing), else plain fp32.
        sc.precision = Precision::bf16;
        sc.precision_fallbacks = {Precision::fp16, Precision::fp32};
        sc.precision_auto = true;
        return;
    }
    if (v->is_array()) {
        if (v->empty()) top.fail("precision", "must list at least one precision");
        std::vector<Precision> list;
        for (const json& item : *v) {
            const Precision p = one(item);
            if (std::find(list.begin(), list.end(), p) != list.end())
                top.fail("precision", "lists " + item.dump() + " twice");
            list.push_back(p);
        }
        sc.precision = list.front();
        sc.precision_fallbacks.assign(list.begin() + 1, list.end());
        return;
    }
    sc.precision = one(*v);
}

void parse_custom_figures(Reader& r, CustomHardware& c) {
    if (auto peaks = r.object("peak_tflops")) {
        for (const auto& [p, name] : kPrecisions)
            if (auto x = peaks->number(name, limits::kMinTflops, true, limits::kMaxTflops))
                c.peak_tflops[static_cast<int>(p)] = *x;
        peaks->reject_unknown();
    }
    if (auto v = r.number("memory_gib", 0, false, limits::kMaxDeviceMemoryGib)) c.memory_gib = *v;
    if (auto v = r.number("hbm_gbytes_per_s", limits::kMinGbytesPerS, true, limits::kMaxGbytesPerS))
        c.hbm_gbytes_per_s = *v;
}

void parse_spot_price_rule(Reader& r, SpotSpec& spot) {
    if (auto v = r.string("price_statistic")) {
        if (!parse_spot_statistic(*v, spot.price_rule.statistic))
            r.fail("price_statistic",
                   "unknown value '" + *v + "' (expected median, mean, p90, max or latest)");
    }
    // Up to 90 days: the history AWS keeps for describe-spot-price-history.
    if (auto v = r.integer("price_window_days", 1, 90)) spot.price_rule.window_days = *v;
    if (auto v = r.string("zone")) {
        if (v->empty()) r.fail("zone", "must not be empty (leave it out for the typical zone)");
        spot.price_rule.zone = *v;
    }
}

void parse_storage(Reader& r, Scenario& sc) {
    StorageSpec& s = sc.storage;
    if (auto v = r.enumeration("service", kStorageServices)) s.service = *v;
    if (auto v = r.integer("checkpoints_kept", 1, 1000)) s.checkpoints_kept = *v;
    if (auto v = r.number("usd_per_gb_month", 0, true)) s.usd_per_gb_month = *v;
    if (auto v = r.number("checkpoint_gb", 0, false)) s.checkpoint_gb = *v;
    r.reject_unknown();
    if (s.service == StorageService::none &&
        (is_known(s.usd_per_gb_month) || is_known(s.checkpoint_gb)))
        r.fail("service", "required (s3 or fsx_lustre) when a storage price or size is given");
}

void check_purchase_consistency(const Scenario& sc, const std::string& origin) {
    if (sc.pricing == Pricing::spot && !sc.constraints.allow_spot)
        throw ScenarioError(
            origin, "cluster.pricing",
            "\"spot\" contradicts constraints.allow_spot false; choose one (pricing names the "
            "purchase option, allow_spot only limits pricing \"any\")");
}

} // namespace cp::sim::scenario_io

namespace cp::sim::scenario_io {

void write_pricing_fields(const Scenario& sc, nlohmann::ordered_json& doc) {
    using ojson = nlohmann::ordered_json;
    if (sc.precision_auto) {
        doc["precision"] = "auto";
    } else if (!sc.precision_fallbacks.empty()) {
        ojson list = ojson::array({enum_name(sc.precision)});
        for (Precision p : sc.precision_fallbacks)
            list.push_back(enum_name(p));
        doc["precision"] = list;
    }
    if (sc.custom && doc["cluster"].contains("custom")) {
        ojson& custom = doc["cluster"]["custom"];
        ojson peaks = ojson::object();
        for (const auto& [p, name] : kPrecisions)
            if (is_known(sc.custom->peak_tflops[static_cast<int>(p)]))
                peaks[name] = sc.custom->peak_tflops[static_cast<int>(p)];
        if (!peaks.empty()) custom["peak_tflops"] = peaks;
        if (is_known(sc.custom->memory_gib)) custom["memory_gib"] = sc.custom->memory_gib;
        if (is_known(sc.custom->hbm_gbytes_per_s))
            custom["hbm_gbytes_per_s"] = sc.custom->hbm_gbytes_per_s;
    }
    const SpotPriceRule& rule = sc.spot.price_rule;
    doc["spot"]["price_statistic"] = enum_name(rule.statistic);
    doc["spot"]["price_window_days"] = rule.window_days;
    if (!rule.zone.empty()) doc["spot"]["zone"] = rule.zone;
    if (sc.storage.service != StorageService::none) {
        ojson st{{"service", enum_name(sc.storage.service)},
                 {"checkpoints_kept", sc.storage.checkpoints_kept}};
        if (is_known(sc.storage.usd_per_gb_month))
            st["usd_per_gb_month"] = sc.storage.usd_per_gb_month;
        if (is_known(sc.storage.checkpoint_gb)) st["checkpoint_gb"] = sc.storage.checkpoint_gb;
        doc["storage"] = st;
    }
}

} // namespace cp::sim::scenario_io
