// Import entry point: format names and detection, the shared ImportContext, and the single
// transaction around every importer.
#include "clusterplan/catalog/importers.h"

#include "clusterplan/sim/io/input_file.h"
#include "dates.h"
#include "import_common.h"
#include "text_util.h"

#include <cmath>
#include <regex>
#include <sstream>

namespace cp::catalog {

namespace fs = std::filesystem;

std::string_view format_name(ImportFormat format) {
    switch (format) {
    case ImportFormat::aws_spot_history:
        return "aws-spot-history";
    case ImportFormat::spot_advisor:
        return "spot-advisor";
    case ImportFormat::skypilot:
        return "skypilot";
    case ImportFormat::aws_price_list:
        return "aws-price-list";
    case ImportFormat::csv:
        return "csv";
    case ImportFormat::aws_spot_feed:
        return "aws-spot-feed";
    case ImportFormat::capacity_blocks:
        return "capacity-blocks";
    }
    return "csv";
}

std::optional<ImportFormat> parse_format(std::string_view name) {
    for (auto f : {ImportFormat::aws_spot_history, ImportFormat::spot_advisor,
                   ImportFormat::skypilot, ImportFormat::aws_price_list, ImportFormat::csv,
                   ImportFormat::aws_spot_feed, ImportFormat::capacity_blocks})
        if (format_name(f) == name) return f;
    return std::nullopt;
}

std::string ImportReport::summary() const {
    std::ostringstream s;
    s << "imported " << records_read << " record" << (records_read == 1 ? "" : "s") << " ("
      << format_name(format) << "): " << prices_written << " price"
      << (prices_written == 1 ? "" : "s");
    if (advisor_rows_written) s << ", " << advisor_rows_written << " Spot Advisor rows";
    if (skipped) s << "; skipped " << skipped << " outside the catalog (other types or OS)";
    return s.str();
}

namespace detail {

std::string read_import_file(const fs::path& file, std::size_t max_bytes) {
    std::string text;
    try {
        text = sim::io::read_input_file(file, "the import file", max_bytes);
    } catch (const sim::io::InputFileError& e) {
        std::string msg = e.what();
        if (max_bytes < kMaxPriceListBytes && msg.find(" limit") != std::string::npos)
            msg += " (an AWS price-list CSV may hold up to " +
                   sim::io::format_byte_limit(kMaxPriceListBytes) +
                   ": pass --format aws-price-list)";
        throw ImportError(msg + ".");
    }
    if (trim(text).empty()) throw ImportError(file.string() + ": the file is empty.");
    return text;
}

std::size_t line_of(std::string_view text, std::size_t byte) {
    std::size_t line = 1;
    for (std::size_t i = 0; i < byte && i < text.size(); ++i)
        if (text[i] == '\n') ++line;
    return line;
}

std::string region_of_zone(std::string_view zone) {
    // Zone names are the region code plus a letter ("us-east-1a"), or a Local/Wavelength zone
    // suffix ("us-east-1-bos-1a"). Zone IDs ("use1-az1", used by SkyPilot) carry no region.
    static const std::regex re(R"(^([a-z]{2}(?:-[a-z]+)+-\d+)(?:[a-z]|-[a-z0-9-]+)$)");
    // std::regex recurses per character: a megabyte-long field overflowed the stack (issue 7).
    if (zone.size() > 64) return {};
    std::match_results<std::string_view::const_iterator> m;
    if (std::regex_match(zone.begin(), zone.end(), m, re)) return m[1].str();
    return {};
}

bool looks_like_region(std::string_view region) {
    static const std::regex re(R"(^[a-z]{2}(?:-[a-z]+)+-\d+$)");
    if (region.size() > 64) return false; // see region_of_zone: keeps std::regex off huge input
    return std::regex_match(region.begin(), region.end(), re);
}

ImportContext::ImportContext(Catalog& cat, const fs::path& file, const ImportOptions& opts,
                             ImportReport& rep)
    : catalog(cat), options(opts), report(rep), file_name(file.string()),
      price_(cat.handle(),
             "INSERT OR REPLACE INTO prices(instance_type, region, zone, kind, usd_per_hour, "
             "as_of, source, note) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)"),
      advisor_(cat.handle(),
               "INSERT OR REPLACE INTO spot_advisor(instance_type, region, os, "
               "interruption_bucket, savings_pct, as_of, source) VALUES (?1, ?2, ?3, ?4, ?5, "
               "?6, ?7)") {
    Stmt s(cat.handle(), "SELECT instance_type FROM instance_types");
    while (s.step())
        types_.insert(s.get_text(0));
}

void ImportContext::fail(const std::string& record, const std::string& field,
                         const std::string& reason) const {
    std::string msg = file_name + ": " + record;
    if (!field.empty()) msg += ", field '" + field + "'";
    throw ImportError(msg + ": " + reason + ".");
}

void ImportContext::fail_file(const std::string& reason) const {
    throw ImportError(file_name + ": " + reason + ".");
}

std::string ImportContext::default_as_of() const {
    if (options.as_of.empty()) return today_utc();
    const auto norm = normalize_timestamp(options.as_of);
    if (!norm)
        throw ImportError("the --as-of date '" + options.as_of +
                          "' is not an ISO 8601 date (YYYY-MM-DD).");
    if (age_days(*norm).value_or(0.0) < -1.0)
        throw ImportError("the --as-of date '" + options.as_of + "' lies in the future.");
    return *norm;
}

void ImportContext::check_not_future(const std::string& record, const std::string& field,
                                     const std::string& stamp, const std::string& iso) const {
    // Up to a day of clock skew between the source and this machine is tolerated.
    if (age_days(iso).value_or(0.0) < -1.0)
        fail(record, field, "'" + stamp + "' lies in the future");
}

std::string price_problem(double usd_per_hour) {
    if (!std::isfinite(usd_per_hour)) return "is not a finite number";
    if (usd_per_hour < 0.0 || std::signbit(usd_per_hour)) return "is negative";
    if (usd_per_hour == 0.0) return "is zero (not a price)";
    if (usd_per_hour < kMinUsdPerHour || usd_per_hour > kMaxUsdPerHour)
        return "is outside $0.0001-$10,000 per hour (no EC2 instance costs that; a unit error?)";
    return {};
}

std::string ImportContext::base_name() const {
    return fs::path(file_name).filename().string();
}

void ImportContext::put_price(const std::string& type, const std::string& region,
                              const std::string& zone, const std::string& kind, double usd_per_hour,
                              const std::string& as_of, const std::string& source,
                              const std::string& note) {
    price_.bind(1, type)
        .bind(2, region)
        .bind(3, zone)
        .bind(4, kind)
        .bind(5, usd_per_hour)
        .bind(6, as_of)
        .bind(7, source)
        .bind(8, note)
        .run();
    ++report.prices_written;
}

void ImportContext::put_advisor(const std::string& type, const std::string& region,
                                const std::string& os, int bucket,
                                std::optional<double> savings_pct, const std::string& as_of,
                                const std::string& source) {
    advisor_.bind(1, type)
        .bind(2, region)
        .bind(3, os)
        .bind(4, bucket)
        .bind(5, savings_pct)
        .bind(6, as_of)
        .bind(7, source)
        .run();
    ++report.advisor_rows_written;
}

void ImportContext::staged(std::size_t index) const {
    if (options.on_record) options.on_record(index);
}

} // namespace detail

namespace {

ImportFormat detect_format_of(const fs::path& file, const std::string& text) {
    const std::string_view body = detail::trim(text);
    if (!body.empty() && body.front() == '{') {
        if (body.find("\"SpotPriceHistory\"") != std::string_view::npos)
            return ImportFormat::aws_spot_history;
        if (body.find("\"spot_advisor\"") != std::string_view::npos)
            return ImportFormat::spot_advisor;
        if (body.find("\"CapacityBlockOfferings\"") != std::string_view::npos)
            return ImportFormat::capacity_blocks;
        if (body.find("\"valueColumns\"") != std::string_view::npos)
            return ImportFormat::aws_spot_feed;
    } else if (body.rfind("callback(", 0) == 0) {
        return ImportFormat::aws_spot_feed;
    } else {
        const std::string_view first = body.substr(0, body.find('\n'));
        if (first.rfind("\"FormatVersion\"", 0) == 0 || first.rfind("FormatVersion", 0) == 0)
            return ImportFormat::aws_price_list;
        if (detail::trim(first) == detail::kExportHeader) return ImportFormat::csv;
        if (first.find("InstanceType") != std::string_view::npos &&
            first.find("SpotPrice") != std::string_view::npos)
            return ImportFormat::skypilot;
    }
    throw ImportError(
        file.string() +
        ": the format cannot be recognised; pass --format aws-spot-history, "
        "spot-advisor, skypilot, aws-price-list, csv, aws-spot-feed or capacity-blocks.");
}

} // namespace

ImportFormat detect_format(const fs::path& file) {
    return detect_format_of(file, detail::read_import_file(file, kMaxImportBytes));
}

ImportReport import_file(Catalog& catalog, const fs::path& file, const ImportOptions& options) {
    ImportReport report;
    // The file is read once, bounded (a FIFO or /dev/zero is refused, not read forever).
    const std::string text = detail::read_import_file(
        file,
        options.format == ImportFormat::aws_price_list ? kMaxPriceListBytes : kMaxImportBytes);
    report.format = options.format ? *options.format : detect_format_of(file, text);
    // One transaction: a bad record anywhere, an injected failure or a crash leaves the
    // database exactly as it was (SQLite rolls back an interrupted WAL transaction).
    catalog.transaction([&] {
        detail::ImportContext ctx(catalog, file, options, report);
        switch (report.format) {
        case ImportFormat::aws_spot_history:
            detail::import_spot_history(ctx, text);
            break;
        case ImportFormat::spot_advisor:
            detail::import_spot_advisor(ctx, text);
            break;
        case ImportFormat::skypilot:
            detail::import_skypilot(ctx, text);
            break;
        case ImportFormat::aws_price_list:
            detail::import_price_list(ctx, text);
            break;
        case ImportFormat::csv:
            detail::import_own_csv(ctx, text);
            break;
        case ImportFormat::aws_spot_feed:
            detail::import_spot_feed(ctx, text);
            break;
        case ImportFormat::capacity_blocks:
            detail::import_capacity_blocks(ctx, text);
            break;
        }
    });
    return report;
}

} // namespace cp::catalog
