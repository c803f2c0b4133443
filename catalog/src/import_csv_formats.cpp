// CSV importers: SkyPilot's AWS vms.csv, the AWS bulk EC2 price list, and our own export.
#include "csv.h"
#include "dates.h"
#include "import_common.h"
#include "text_util.h"

#include <cmath>
#include <fstream>
#include <map>
#include <optional>

namespace cp::catalog::detail {

namespace {

// Rows of a CSV file addressed by header names. `header_row` is the index of the header among
// the parsed records (the AWS price list has metadata rows before it).
class HeaderedCsv {
public:
    HeaderedCsv(const ImportContext& ctx, const std::string& text, std::size_t header_row = 0)
        : ctx_(ctx) {
        try {
            rows_ = parse_csv(text);
        } catch (const CsvSyntaxError& e) {
            ctx.fail("line " + std::to_string(e.line()), "",
                     std::string(e.what()) + " (truncated or malformed CSV)");
        }
        if (rows_.size() <= header_row) ctx.fail_file("has no header row");
        header_ = header_row;
        const auto& names = rows_[header_row].fields;
        for (std::size_t i = 0; i < names.size(); ++i)
            columns_[std::string(trim(names[i]))] = i;
    }
    void require(std::initializer_list<const char*> names) const {
        for (const char* n : names)
            if (!columns_.count(n))
                ctx_.fail("the header (line " + std::to_string(rows_[header_].line) + ")", n,
                          "is missing");
    }
    bool has(const std::string& name) const { return columns_.count(name) != 0; }
    std::size_t first() const { return header_ + 1; }
    std::size_t end() const { return rows_.size(); }
    const CsvRecord& row(std::size_t r) const { return rows_[r]; }
    std::string where(std::size_t r) const {
        return "record " + std::to_string(r - header_) + " (line " +
               std::to_string(rows_[r].line) + ")";
    }
    std::string cell(std::size_t r, const std::string& name) const {
        const auto it = columns_.find(name);
        if (it == columns_.end()) return {};
        const auto& f = rows_[r].fields;
        return it->second < f.size() ? std::string(trim(f[it->second])) : std::string();
    }
    // A row with fewer fields than the header is a cut-off file, not "unknown" cells.
    void check_width(std::size_t r) const {
        if (rows_[r].fields.size() < rows_[header_].fields.size())
            ctx_.fail(where(r), "", "has " + std::to_string(rows_[r].fields.size()) +
                                        " fields but the header has " +
                                        std::to_string(rows_[header_].fields.size()) +
                                        " (truncated file?)");
    }
    // Empty -> nullopt; otherwise a non-negative number or an ImportError naming the field.
    std::optional<double> price(std::size_t r, const std::string& name) const {
        const std::string text = cell(r, name);
        if (text.empty()) return std::nullopt;
        const auto v = parse_number(text);
        if (!v) ctx_.fail(where(r), name, "'" + text + "' is not a number");
        if (*v < 0.0) ctx_.fail(where(r), name, "'" + text + "' is negative");
        return v;
    }

private:
    const ImportContext& ctx_;
    std::vector<CsvRecord> rows_;
    std::size_t header_ = 0;
    std::map<std::string, std::size_t> columns_;
};

} // namespace

void import_skypilot(ImportContext& ctx, const std::string& text) {
    const HeaderedCsv csv(ctx, text);
    csv.require({"InstanceType", "Price", "SpotPrice", "Region"});
    // vms.csv carries no date: stamp the import date (or --as-of) and say so in the source.
    const std::string as_of = ctx.default_as_of();
    const std::string source = "SkyPilot vms.csv (" + ctx.base_name() + ", dated at import)";
    for (std::size_t r = csv.first(); r < csv.end(); ++r) {
        csv.check_width(r);
        const std::string type = csv.cell(r, "InstanceType");
        const std::string region = csv.cell(r, "Region");
        if (type.empty()) ctx.fail(csv.where(r), "InstanceType", "is empty");
        if (!looks_like_region(region))
            ctx.fail(csv.where(r), "Region", "'" + region + "' is not an AWS region code");
        const auto on_demand = csv.price(r, "Price");
        const auto spot = csv.price(r, "SpotPrice");
        ++ctx.report.records_read;
        if (!ctx.known_type(type)) {  // vms.csv lists every EC2 type
            ++ctx.report.skipped;
            continue;
        }
        // The on-demand price repeats on every zone's row; one region-wide row results.
        if (on_demand && *on_demand > 0.0)
            ctx.put_price(type, region, "", "on_demand", *on_demand, as_of, source);
        if (spot && *spot > 0.0)
            ctx.put_price(type, region, csv.cell(r, "AvailabilityZone"), "spot", *spot, as_of,
                          source);
        ctx.staged(r);
    }
}

void import_price_list(ImportContext& ctx, const std::string& text) {
    // Layout: five "key","value" metadata rows (FormatVersion, Disclaimer, Publication Date,
    // Version, OfferCode), then the header row starting with "SKU".
    std::vector<CsvRecord> head;
    try {
        head = parse_csv(text.substr(0, std::min<std::size_t>(text.size(), 1 << 16)));
    } catch (const CsvSyntaxError&) {
        // A cut inside the first 64 KiB is reported by the full parse below.
    }
    std::size_t header_row = head.size();
    std::string published;
    for (std::size_t i = 0; i < head.size(); ++i) {
        if (!head[i].fields.empty() && trim(head[i].fields[0]) == "SKU") {
            header_row = i;
            break;
        }
        if (head[i].fields.size() >= 2 && trim(head[i].fields[0]) == "Publication Date")
            published = std::string(trim(head[i].fields[1]));
    }
    if (header_row == head.size())
        ctx.fail_file("has no \"SKU\" header row (expected the AWS EC2 price-list CSV)");
    const auto as_of = normalize_timestamp(published);
    if (published.empty()) ctx.fail("the metadata rows", "Publication Date", "is missing");
    if (!as_of)
        ctx.fail("the metadata rows", "Publication Date",
                 "'" + published + "' is not an ISO 8601 timestamp");

    const HeaderedCsv csv(ctx, text, header_row);
    csv.require({"TermType", "PricePerUnit", "Unit", "Instance Type", "Tenancy",
                 "Operating System", "Product Family"});
    if (!csv.has("Region Code") && !csv.has("Location"))
        ctx.fail("the header", "Region Code", "is missing");
    const std::string source = "AWS EC2 price list (" + ctx.base_name() + ")";
    for (std::size_t r = csv.first(); r < csv.end(); ++r) {
        csv.check_width(r);
        ++ctx.report.records_read;
        const std::string type = csv.cell(r, "Instance Type");
        // Keep what a training job pays: on-demand, Linux, shared tenancy, no pre-installed
        // software (SQL Server etc.), capacity actually used (not reservations), per hour.
        const bool wanted =
            csv.cell(r, "TermType") == "OnDemand" &&
            csv.cell(r, "Product Family") == "Compute Instance" &&
            csv.cell(r, "Operating System") == "Linux" && csv.cell(r, "Tenancy") == "Shared" &&
            (!csv.has("Pre Installed S/W") || csv.cell(r, "Pre Installed S/W") == "NA") &&
            (!csv.has("CapacityStatus") || csv.cell(r, "CapacityStatus") == "Used") &&
            (!csv.has("License Model") || csv.cell(r, "License Model") != "Bring your own license") &&
            (!csv.has("Currency") || csv.cell(r, "Currency") == "USD");
        if (!wanted || !ctx.known_type(type)) {
            ++ctx.report.skipped;
            continue;
        }
        const std::string unit = csv.cell(r, "Unit");
        if (unit != "Hrs") ctx.fail(csv.where(r), "Unit", "'" + unit + "' is not hourly (Hrs)");
        const auto price = csv.price(r, "PricePerUnit");
        if (!price) ctx.fail(csv.where(r), "PricePerUnit", "is empty");
        const std::string region = csv.cell(r, "Region Code");
        if (!looks_like_region(region))
            ctx.fail(csv.where(r), "Region Code", "'" + region + "' is not an AWS region code");
        if (*price == 0.0) {  // $0 rows are placeholders for capacity reservations
            ++ctx.report.skipped;
            continue;
        }
        ctx.put_price(type, region, "", "on_demand", *price, *as_of, source);
        ctx.staged(r);
    }
}

void import_own_csv(ImportContext& ctx, const std::string& text) {
    const HeaderedCsv csv(ctx, text);
    csv.require({"record", "instance_type", "region", "zone", "os", "usd_per_hour",
                 "interruption_bucket", "savings_pct", "as_of", "source", "note"});
    for (std::size_t r = csv.first(); r < csv.end(); ++r) {
        csv.check_width(r);
        const std::string record = csv.cell(r, "record");
        const std::string type = csv.cell(r, "instance_type");
        const std::string region = csv.cell(r, "region");
        const std::string stamp = csv.cell(r, "as_of");
        const std::string source = csv.cell(r, "source");
        if (!ctx.known_type(type))
            ctx.fail(csv.where(r), "instance_type",
                     "'" + type + "' is not an instance type in the catalog");
        if (!looks_like_region(region))
            ctx.fail(csv.where(r), "region", "'" + region + "' is not an AWS region code");
        const auto as_of = normalize_timestamp(stamp);
        if (!as_of) ctx.fail(csv.where(r), "as_of", "'" + stamp + "' is not an ISO 8601 date");
        if (source.empty()) ctx.fail(csv.where(r), "source", "is empty");
        ++ctx.report.records_read;
        if (record == "on_demand" || record == "spot") {
            const auto price = csv.price(r, "usd_per_hour");
            if (!price) ctx.fail(csv.where(r), "usd_per_hour", "is empty");
            ctx.put_price(type, region, csv.cell(r, "zone"), record, *price, *as_of, source,
                          csv.cell(r, "note"));
        } else if (record == "spot_advisor") {
            const std::string bucket_text = csv.cell(r, "interruption_bucket");
            const auto bucket = parse_number(bucket_text);
            if (!bucket || *bucket < 0 || *bucket > 4 || *bucket != std::floor(*bucket))
                ctx.fail(csv.where(r), "interruption_bucket",
                         "'" + bucket_text + "' is not a bucket 0..4");
            const std::string os = csv.cell(r, "os");
            if (os.empty()) ctx.fail(csv.where(r), "os", "is empty");
            std::optional<double> savings;
            if (!csv.cell(r, "savings_pct").empty()) {
                savings = parse_number(csv.cell(r, "savings_pct"));
                if (!savings || *savings < 0.0 || *savings > 100.0)
                    ctx.fail(csv.where(r), "savings_pct", "is not a percentage");
            }
            ctx.put_advisor(type, region, os, static_cast<int>(*bucket), savings, *as_of, source);
        } else {
            ctx.fail(csv.where(r), "record",
                     "'" + record + "' is not on_demand, spot or spot_advisor");
        }
        ctx.staged(r);
    }
}

} // namespace cp::catalog::detail

namespace cp::catalog {

void export_csv(const Catalog& catalog, const std::filesystem::path& file) {
    using detail::csv_escape;
    using detail::format_number;
    std::string out(detail::kExportHeader);
    out += '\n';
    {
        detail::Stmt s(catalog.handle(),
                       "SELECT kind, instance_type, region, zone, usd_per_hour, as_of, source, "
                       "note FROM prices ORDER BY instance_type, region, kind, zone, as_of, note");
        while (s.step()) {
            out += s.get_text(0) + ',' + csv_escape(s.get_text(1)) + ',' +
                   csv_escape(s.get_text(2)) + ',' + csv_escape(s.get_text(3)) + ",," +
                   format_number(s.get_double(4)) + ",,," + csv_escape(s.get_text(5)) + ',' +
                   csv_escape(s.get_text(6)) + ',' + csv_escape(s.get_text(7)) + '\n';
        }
    }
    {
        detail::Stmt s(catalog.handle(),
                       "SELECT instance_type, region, os, interruption_bucket, savings_pct, as_of, "
                       "source FROM spot_advisor ORDER BY instance_type, region, os");
        while (s.step()) {
            out += "spot_advisor," + csv_escape(s.get_text(0)) + ',' + csv_escape(s.get_text(1)) +
                   ",," + csv_escape(s.get_text(2)) + ",," + std::to_string(s.get_int(3)) + ',' +
                   (s.is_null(4) ? std::string() : format_number(s.get_double(4))) + ',' +
                   csv_escape(s.get_text(5)) + ',' + csv_escape(s.get_text(6)) + ",\n";
        }
    }
    // Write next to the target and rename, so a failed export never leaves half a file.
    std::filesystem::path tmp = file;
    tmp += ".tmp";
    {
        std::ofstream f(tmp, std::ios::binary | std::ios::trunc);
        if (!f) throw CatalogError("cannot write " + file.string() + ".");
        f << out;
        f.flush();
        if (!f) throw CatalogError("cannot write " + file.string() + " (disk full?).");
    }
    std::error_code ec;
    std::filesystem::rename(tmp, file, ec);
    if (ec) throw CatalogError("cannot write " + file.string() + ": " + ec.message() + ".");
}

} // namespace cp::catalog
