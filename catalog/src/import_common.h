// Plumbing shared by the importers: error messages that name file, record and field, the set of
// known instance types, and the one prepared statement that writes prices.
#pragma once

#include "clusterplan/catalog/importers.h"
#include "sqlite_util.h"

#include <filesystem>
#include <set>
#include <string>
#include <string_view>

namespace cp::catalog::detail {

class ImportContext {
public:
    ImportContext(Catalog& catalog, const std::filesystem::path& file, const ImportOptions& options,
                  ImportReport& report);

    Catalog& catalog;
    const ImportOptions& options;
    ImportReport& report;
    std::string file_name; // as given by the user, for messages

    // Throws ImportError: "<file>: <record>, field '<field>': <reason>."
    [[noreturn]] void fail(const std::string& record, const std::string& field,
                           const std::string& reason) const;
    [[noreturn]] void fail_file(const std::string& reason) const; // "<file>: <reason>."

    bool known_type(const std::string& type) const { return types_.count(type) != 0; }
    // as_of for sources without dates: the --as-of option (validated, not in the future) or today.
    std::string default_as_of() const;
    // Fails when `iso` (normalised from `stamp`) lies more than a day ahead of this machine's
    // clock: a future date would shadow every real price as the "newest" one.
    void check_not_future(const std::string& record, const std::string& field,
                          const std::string& stamp, const std::string& iso) const;
    // Base name of the file, used in the `source` column.
    std::string base_name() const;

    void put_price(const std::string& type, const std::string& region, const std::string& zone,
                   const std::string& kind, double usd_per_hour, const std::string& as_of,
                   const std::string& source, const std::string& note = "");
    void put_advisor(const std::string& type, const std::string& region, const std::string& os,
                     int bucket, std::optional<double> savings_pct, const std::string& as_of,
                     const std::string& source);
    // Called once per staged record (the test hook).
    void staged(std::size_t index) const;

private:
    std::set<std::string> types_;
    Stmt price_;
    Stmt advisor_;
};

// Hourly prices outside [$0.0001, $10,000] are not EC2 prices but unit errors (per second, per
// month, cents) or junk that would win or poison every ranking: the cheapest EC2 instance,
// t4g.nano, lists at $0.0042/h on demand (spot about a third of that), the most expensive,
// u7in-32tb.224xlarge, at about $408/h (AWS EC2 On-Demand pricing, us-east-1, 2025).
inline constexpr double kMinUsdPerHour = 1e-4;
inline constexpr double kMaxUsdPerHour = 1e4;
// "" when `usd_per_hour` is a price ClusterPlan stores; else why not ("is not positive" ...).
// Zero is not a price either; importers whose sources use $0 for "not offered" skip it first.
std::string price_problem(double usd_per_hour);

// Reads the whole file, at most `max_bytes` (see importers.h); ImportError when missing, not a
// regular file, unreadable, too large or empty.
std::string read_import_file(const std::filesystem::path& file, std::size_t max_bytes);
// 1-based line of byte offset `byte` in `text`.
std::size_t line_of(std::string_view text, std::size_t byte);
// "us-east-1a" / "us-east-1-bos-1a" -> "us-east-1"; "" when not a zone name.
std::string region_of_zone(std::string_view zone);
// Region code shape: "us-east-1", "ap-southeast-2", "us-gov-west-1".
bool looks_like_region(std::string_view region);

void import_spot_history(ImportContext& ctx, const std::string& text);
void import_spot_advisor(ImportContext& ctx, const std::string& text);
void import_skypilot(ImportContext& ctx, const std::string& text);
void import_price_list(ImportContext& ctx, const std::string& text);
void import_own_csv(ImportContext& ctx, const std::string& text);
void import_spot_feed(ImportContext& ctx, const std::string& text);
void import_capacity_blocks(ImportContext& ctx, const std::string& text);

// Header of our export format (also what detect_format looks for).
inline constexpr std::string_view kExportHeader =
    "record,instance_type,region,zone,os,usd_per_hour,interruption_bucket,savings_pct,as_of,"
    "source,note";

} // namespace cp::catalog::detail
