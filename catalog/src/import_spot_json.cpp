// JSON importers: `aws ec2 describe-spot-price-history` output and the Spot Instance Advisor
// data file (spot-advisor-data.json).
#include "clusterplan/sim/io/json_depth.h"
#include "dates.h"
#include "import_common.h"
#include "text_util.h"

#include <cstdint>
#include <nlohmann/json.hpp>

namespace cp::catalog::detail {

using nlohmann::json;

namespace {

json parse_json(const ImportContext& ctx, const std::string& text) {
    if (const auto problem = sim::io::json_input_problem(text))
        ctx.fail_file("is not usable JSON: it " + *problem);
    try {
        return json::parse(text);
    } catch (const json::parse_error& e) {
        const bool at_end = e.byte >= text.size();
        ctx.fail_file(std::string("is not valid JSON ") +
                      (at_end ? "(the file ends too early; truncated?)"
                              : "(malformed at line " + std::to_string(line_of(text, e.byte - 1)) +
                                    ", byte " + std::to_string(e.byte) + ")"));
    } catch (const json::exception& e) {
        // e.g. out_of_range 406 for a number beyond double range ("1e309"); found by fuzzing.
        ctx.fail_file(std::string("is not valid JSON (") + e.what() + ")");
    }
}

std::string json_text(const json& v) {
    return v.is_string() ? v.get<std::string>() : v.dump();
}

// Product descriptions that are plain Linux (the on-demand prices we keep are Linux too).
bool is_linux(const std::string& product) {
    return product == "Linux/UNIX" || product == "Linux/UNIX (Amazon VPC)";
}

} // namespace

void import_spot_history(ImportContext& ctx, const std::string& text) {
    const json doc = parse_json(ctx, text);
    if (!doc.is_object() || !doc.contains("SpotPriceHistory"))
        ctx.fail_file("has no \"SpotPriceHistory\" array (expected the JSON that `aws ec2 "
                      "describe-spot-price-history` prints)");
    const json& history = doc["SpotPriceHistory"];
    if (!history.is_array()) ctx.fail("SpotPriceHistory", "", "is not an array");
    if (history.empty()) ctx.fail_file("holds no spot prices (SpotPriceHistory is empty)");

    const std::string source = "aws ec2 describe-spot-price-history (" + ctx.base_name() + ")";
    for (std::size_t i = 0; i < history.size(); ++i) {
        const json& rec = history[i];
        const std::string where = "record " + std::to_string(i + 1) + " of SpotPriceHistory";
        if (!rec.is_object()) ctx.fail(where, "", "is not an object");
        auto field = [&](const char* name) -> std::string {
            if (!rec.contains(name)) ctx.fail(where, name, "is missing");
            const json& v = rec[name];
            if (!v.is_string() && !v.is_number()) ctx.fail(where, name, "is not a string");
            return std::string(trim(json_text(v)));
        };
        const std::string type = field("InstanceType");
        const std::string zone = field("AvailabilityZone");
        const std::string product = field("ProductDescription");
        const std::string price_text = field("SpotPrice");
        const std::string stamp = field("Timestamp");

        if (!ctx.known_type(type))
            ctx.fail(where, "InstanceType",
                     "'" + type +
                         "' is not an instance type in the catalog (filter the query with "
                         "--instance-types)");
        const std::string region = region_of_zone(zone);
        if (region.empty())
            ctx.fail(where, "AvailabilityZone", "'" + zone + "' is not an AWS zone name");
        const auto price = parse_number(price_text);
        if (!price) ctx.fail(where, "SpotPrice", "'" + price_text + "' is not a number");
        if (const std::string problem = price_problem(*price); !problem.empty())
            ctx.fail(where, "SpotPrice", "'" + price_text + "' " + problem);
        const auto as_of = normalize_timestamp(stamp);
        if (!as_of) ctx.fail(where, "Timestamp", "'" + stamp + "' is not an ISO 8601 timestamp");
        ctx.check_not_future(where, "Timestamp", stamp, *as_of);
        ++ctx.report.records_read;
        if (!is_linux(product)) { // SUSE, RHEL, Windows prices include licences
            ++ctx.report.skipped;
            continue;
        }
        ctx.put_price(type, region, zone, "spot", *price, *as_of, source);
        ctx.staged(i);
    }
}

void import_spot_advisor(ImportContext& ctx, const std::string& text) {
    const json doc = parse_json(ctx, text);
    if (!doc.is_object() || !doc.contains("spot_advisor") || !doc["spot_advisor"].is_object())
        ctx.fail_file("has no \"spot_advisor\" object (expected the Spot Instance Advisor "
                      "spot-advisor-data.json)");
    // "ranges" lists the interruption buckets; when present, r must index into it.
    int max_bucket = 4;
    if (doc.contains("ranges")) {
        const json& ranges = doc["ranges"];
        if (!ranges.is_array() || ranges.empty())
            ctx.fail("ranges", "", "is not a list of buckets");
        for (std::size_t i = 0; i < ranges.size(); ++i) {
            const json& r = ranges[i];
            const std::string where = "ranges[" + std::to_string(i) + "]";
            if (!r.is_object() || !r.contains("index") || !r["index"].is_number_integer())
                ctx.fail(where, "index", "is missing or not an integer");
            if (r["index"].get<std::int64_t>() != static_cast<std::int64_t>(i))
                ctx.fail(where, "index", "does not match its position");
        }
        max_bucket = static_cast<int>(ranges.size()) - 1;
        if (max_bucket > 4)
            ctx.fail("ranges", "",
                     "has " + std::to_string(ranges.size()) +
                         " buckets; ClusterPlan knows the five Spot Advisor buckets");
    }
    const std::string as_of = ctx.default_as_of();
    const std::string source = "AWS Spot Instance Advisor (" + ctx.base_name() + ")";
    std::size_t index = 0;
    for (const auto& [region, by_os] : doc["spot_advisor"].items()) {
        if (!looks_like_region(region))
            ctx.fail("spot_advisor." + region, "", "'" + region + "' is not an AWS region code");
        if (!by_os.is_object()) ctx.fail("spot_advisor." + region, "", "is not an object");
        for (const auto& [os, by_type] : by_os.items()) {
            if (!by_type.is_object())
                ctx.fail("spot_advisor." + region + "." + os, "", "is not an object");
            for (const auto& [type, stats] : by_type.items()) {
                const std::string where = "spot_advisor." + region + "." + os + "." + type;
                if (!stats.is_object()) ctx.fail(where, "", "is not an object");
                if (!stats.contains("r") || !stats["r"].is_number_integer())
                    ctx.fail(where, "r", "is missing or not an integer bucket");
                // Read as 64-bit so a huge value cannot wrap into the valid range.
                const std::int64_t r = stats["r"].get<std::int64_t>();
                if (r < 0 || r > max_bucket)
                    ctx.fail(where, "r",
                             json_text(stats["r"]) + " is not a bucket 0.." +
                                 std::to_string(max_bucket));
                const int bucket = static_cast<int>(r);
                std::optional<double> savings;
                if (stats.contains("s")) {
                    if (!stats["s"].is_number()) ctx.fail(where, "s", "is not a number");
                    savings = stats["s"].get<double>();
                    if (*savings < 0.0 || *savings > 100.0)
                        ctx.fail(where, "s", json_text(stats["s"]) + " is not a percentage");
                }
                ++ctx.report.records_read;
                if (!ctx.known_type(type)) { // the advisor covers every EC2 type
                    ++ctx.report.skipped;
                    continue;
                }
                ctx.put_advisor(type, region, os, bucket, savings, as_of, source);
                ctx.staged(index++);
            }
        }
    }
}

} // namespace cp::catalog::detail
