// JSON importers for purchase options beyond the spot history: the spot price feed behind the
// AWS "EC2 Spot Instances pricing" page (spot.json; the legacy spot.js is the same document
// wrapped in callback(...)) and `aws ec2 describe-capacity-block-offerings` output.
#include "clusterplan/sim/io/json_depth.h"
#include "dates.h"
#include "import_common.h"
#include "text_util.h"

#include <cmath>
#include <nlohmann/json.hpp>

namespace cp::catalog::detail {

using nlohmann::json;

namespace {

// Strips a JSONP wrapper "callback( ... );" when present.
std::string_view unwrap_jsonp(std::string_view text) {
    std::string_view body = trim(text);
    if (body.rfind("callback(", 0) == 0) {
        body.remove_prefix(9);
        const auto close = body.rfind(')');
        if (close != std::string_view::npos) body = body.substr(0, close);
    }
    return body;
}

json parse_doc(const ImportContext& ctx, std::string_view text) {
    if (const auto problem = sim::io::json_input_problem(text))
        ctx.fail_file("is not usable JSON: it " + *problem);
    try {
        return json::parse(text);
    } catch (const json::parse_error& e) {
        ctx.fail_file(std::string("is not valid JSON (") +
                      (e.byte >= text.size() ? "the file ends too early; truncated?"
                                             : "malformed at byte " + std::to_string(e.byte)) +
                      ")");
    } catch (const json::exception& e) {
        ctx.fail_file(std::string("is not valid JSON (") + e.what() + ")");
    }
}

const json& member(const ImportContext& ctx, const json& obj, const char* key,
                   const std::string& where) {
    if (!obj.is_object() || !obj.contains(key)) ctx.fail(where, key, "is missing");
    return obj[key];
}

} // namespace

void import_spot_feed(ImportContext& ctx, const std::string& text) {
    const json doc = parse_doc(ctx, unwrap_jsonp(text));
    if (!doc.is_object() || !doc.contains("config"))
        ctx.fail_file(
            "has no \"config\" object (expected the spot.json feed of the AWS spot pricing page)");
    const json& regions = member(ctx, doc["config"], "regions", "config");
    if (!regions.is_array()) ctx.fail("config", "regions", "is not a list");
    // The feed carries no date: the prices are current when downloaded (import date or --as-of).
    const std::string as_of = ctx.default_as_of();
    const std::string source = "AWS EC2 spot pricing page feed (" + ctx.base_name() + ")";
    std::size_t index = 0;
    for (std::size_t r = 0; r < regions.size(); ++r) {
        const std::string where_r = "config.regions[" + std::to_string(r) + "]";
        const json& reg = regions[r];
        const json& name = member(ctx, reg, "region", where_r);
        if (!name.is_string()) ctx.fail(where_r, "region", "is not a string");
        const std::string region = name.get<std::string>();
        // The legacy spot.js used its own names ("us-east"); only region codes are stored.
        if (!looks_like_region(region)) {
            ++ctx.report.skipped;
            continue;
        }
        const json& types = member(ctx, reg, "instanceTypes", where_r);
        if (!types.is_array()) ctx.fail(where_r, "instanceTypes", "is not a list");
        for (std::size_t t = 0; t < types.size(); ++t) {
            const std::string where_t = where_r + ".instanceTypes[" + std::to_string(t) + "]";
            const json& sizes = member(ctx, types[t], "sizes", where_t);
            if (!sizes.is_array()) ctx.fail(where_t, "sizes", "is not a list");
            for (std::size_t s = 0; s < sizes.size(); ++s) {
                const std::string where = where_t + ".sizes[" + std::to_string(s) + "]";
                const json& size = sizes[s];
                const json& type_v = member(ctx, size, "size", where);
                if (!type_v.is_string()) ctx.fail(where, "size", "is not a string");
                const std::string type = type_v.get<std::string>();
                const json& columns = member(ctx, size, "valueColumns", where);
                if (!columns.is_array()) ctx.fail(where, "valueColumns", "is not a list");
                ++ctx.report.records_read;
                if (!ctx.known_type(type)) {
                    ++ctx.report.skipped;
                    continue;
                }
                for (const json& col : columns) {
                    if (!col.is_object() || col.value("name", "") != "linux") continue;
                    const json& prices = member(ctx, col, "prices", where);
                    if (!prices.is_object() || !prices.contains("USD") ||
                        !prices["USD"].is_string())
                        ctx.fail(where, "prices.USD", "is missing or not a string");
                    const std::string price_text = prices["USD"].get<std::string>();
                    // "N/A*" marks types not offered as spot in that region.
                    const auto price = parse_number(price_text);
                    if (!price) {
                        ++ctx.report.skipped;
                        continue;
                    }
                    if (*price <= 0.0 || !std::isfinite(*price))
                        ctx.fail(where, "prices.USD",
                                 "'" + price_text + "' is not a positive price");
                    ctx.put_price(type, region, "", "spot", *price, as_of, source,
                                  "region-wide (spot pricing page)");
                    ctx.staged(index++);
                }
            }
        }
    }
}

void import_capacity_blocks(ImportContext& ctx, const std::string& text) {
    const json doc = parse_doc(ctx, text);
    if (!doc.is_object() || !doc.contains("CapacityBlockOfferings") ||
        !doc["CapacityBlockOfferings"].is_array())
        ctx.fail_file("has no \"CapacityBlockOfferings\" list (expected the JSON that `aws ec2 "
                      "describe-capacity-block-offerings` prints)");
    const json& offers = doc["CapacityBlockOfferings"];
    if (offers.empty()) ctx.fail_file("holds no offerings (CapacityBlockOfferings is empty)");
    const std::string as_of = ctx.default_as_of();
    const std::string source =
        "aws ec2 describe-capacity-block-offerings (" + ctx.base_name() + ")";
    for (std::size_t i = 0; i < offers.size(); ++i) {
        const json& o = offers[i];
        const std::string where = "record " + std::to_string(i + 1) + " of CapacityBlockOfferings";
        auto text_field = [&](const char* key) {
            const json& v = member(ctx, o, key, where);
            if (!v.is_string()) ctx.fail(where, key, "is not a string");
            return v.get<std::string>();
        };
        auto number_field = [&](const char* key) {
            const json& v = member(ctx, o, key, where);
            std::optional<double> x;
            if (v.is_number())
                x = v.get<double>();
            else if (v.is_string())
                x = parse_number(v.get<std::string>());
            if (!x || !std::isfinite(*x) || *x <= 0)
                ctx.fail(where, key, "is not a positive number");
            return *x;
        };
        const std::string type = text_field("InstanceType");
        const std::string zone = text_field("AvailabilityZone");
        const std::string currency = text_field("CurrencyCode");
        const double count = number_field("InstanceCount");
        const double hours = number_field("CapacityBlockDurationHours");
        const double fee = number_field("UpfrontFee");
        if (currency != "USD") ctx.fail(where, "CurrencyCode", "'" + currency + "' is not USD");
        const std::string region = region_of_zone(zone);
        if (region.empty())
            ctx.fail(where, "AvailabilityZone", "'" + zone + "' is not an AWS zone name");
        ++ctx.report.records_read;
        if (!ctx.known_type(type)) {
            ++ctx.report.skipped;
            continue;
        }
        // The upfront fee covers count instances for the whole block: per node-hour it is fee /
        // (count x hours).
        ctx.put_price(type, region, zone, "capacity_block", fee / (count * hours), as_of, source,
                      std::to_string(static_cast<long long>(count)) + " instances x " +
                          std::to_string(static_cast<long long>(hours)) + " h block");
        ctx.staged(i);
    }
}

} // namespace cp::catalog::detail
