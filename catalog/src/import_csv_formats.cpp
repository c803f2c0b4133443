// CSV importers: SkyPilot's AWS vms.csv, the AWS bulk EC2 price list, and our own export.
#include "clusterplan/sim/io/output_file.h"
#include "csv.h"
#include "dates.h"
#include "import_common.h"
#include "text_util.h"

#include <cmath>
#include <functional>
#include <map>
#include <optional>

namespace cp::catalog::detail {

namespace {

// A CSV file read record by record, cells addressed by header names. The header is the first
// record for which `is_header` holds; earlier records (the AWS price list's metadata rows) go
// to `preamble`.
class HeaderedCsv {
public:
    using RecordTest = std::function<bool(const CsvRecord&)>;
    HeaderedCsv(const ImportContext& ctx, const std::string& text, const RecordTest& is_header = {},
                const std::function<void(const CsvRecord&)>& preamble = {})
        : ctx_(ctx), reader_(text) {
        bool found = false;
        while (read(header_)) {
            if (!is_header || is_header(header_)) {
                found = true;
                break;
            }
            if (preamble) preamble(header_);
        }
        if (!found) ctx.fail_file("has no header row");
        for (std::size_t i = 0; i < header_.fields.size(); ++i) {
            const std::string name(trim(header_.fields[i]));
            if (!columns_.emplace(name, i).second) repeated_.emplace(name, i);
        }
    }
    void require(std::initializer_list<const char*> names) const {
        for (const char* n : names)
            if (!has(n))
                ctx_.fail("the header (line " + std::to_string(header_.line) + ")", n,
                          "is missing");
    }
    // A column named twice is refused when it is read: which of the two holds the values is
    // anyone's guess (the first one was read, silently).
    bool has(const std::string& name) const {
        const auto it = columns_.find(name);
        if (it == columns_.end()) return false;
        if (const auto again = repeated_.find(name); again != repeated_.end())
            ctx_.fail("the header (line " + std::to_string(header_.line) + ")", name,
                      "names columns " + std::to_string(it->second + 1) + " and " +
                          std::to_string(again->second + 1) + "; give each column once");
        return true;
    }
    // Advances to the next data record; false at the end of the file.
    bool next() {
        if (!read(row_)) return false;
        ++index_;
        return true;
    }
    std::size_t index() const { return index_; } // 1-based data record number
    std::string where() const {
        return "record " + std::to_string(index_) + " (line " + std::to_string(row_.line) + ")";
    }
    std::string cell(const std::string& name) const {
        if (!has(name)) return {};
        const auto it = columns_.find(name);
        const auto& f = row_.fields;
        return it->second < f.size() ? std::string(trim(f[it->second])) : std::string();
    }
    // A row with fewer fields than the header is a cut-off file, not "unknown" cells.
    void check_width() const {
        if (row_.fields.size() < header_.fields.size())
            ctx_.fail(where(), "",
                      "has " + std::to_string(row_.fields.size()) + " fields but the header has " +
                          std::to_string(header_.fields.size()) + " (truncated file?)");
    }
    // Empty -> nullopt; otherwise a non-negative number or an ImportError naming the field.
    std::optional<double> price(const std::string& name) const {
        const std::string text = cell(name);
        if (text.empty()) return std::nullopt;
        const auto v = parse_number(text);
        if (!v) ctx_.fail(where(), name, "'" + text + "' is not a number");
        // $0 stays possible here: SkyPilot and the AWS price list mean "not offered" by it.
        if (*v != 0.0 || std::signbit(*v))
            if (const std::string problem = price_problem(*v); !problem.empty())
                ctx_.fail(where(), name, "'" + text + "' " + problem);
        return v;
    }

private:
    bool read(CsvRecord& rec) {
        try {
            return reader_.next(rec);
        } catch (const CsvSyntaxError& e) {
            ctx_.fail("line " + std::to_string(e.line()), "",
                      std::string(e.what()) + " (truncated or malformed CSV)");
        }
    }

    const ImportContext& ctx_;
    CsvReader reader_;
    CsvRecord header_;
    CsvRecord row_;
    std::size_t index_ = 0;
    std::map<std::string, std::size_t> columns_;
    std::map<std::string, std::size_t> repeated_; // a name's second column
};

} // namespace

void import_skypilot(ImportContext& ctx, const std::string& text) {
    HeaderedCsv csv(ctx, text);
    csv.require({"InstanceType", "Price", "SpotPrice", "Region"});
    // vms.csv carries no date: stamp the import date (or --as-of) and say so in the source.
    const std::string as_of = ctx.default_as_of();
    const std::string source = "SkyPilot vms.csv (" + ctx.base_name() + ", dated at import)";
    while (csv.next()) {
        csv.check_width();
        const std::string type = csv.cell("InstanceType");
        const std::string region = csv.cell("Region");
        if (type.empty()) ctx.fail(csv.where(), "InstanceType", "is empty");
        if (!looks_like_region(region))
            ctx.fail(csv.where(), "Region", "'" + region + "' is not an AWS region code");
        const auto on_demand = csv.price("Price");
        const auto spot = csv.price("SpotPrice");
        ++ctx.report.records_read;
        if (!ctx.known_type(type)) { // vms.csv lists every EC2 type
            ++ctx.report.skipped;
            continue;
        }
        // The on-demand price repeats on every zone's row; one region-wide row results.
        if (on_demand && *on_demand > 0.0)
            ctx.put_price(type, region, "", "on_demand", *on_demand, as_of, source);
        if (spot && *spot > 0.0)
            ctx.put_price(type, region, csv.cell("AvailabilityZone"), "spot", *spot, as_of, source);
        ctx.staged(csv.index());
    }
}

void import_price_list(ImportContext& ctx, const std::string& text) {
    // Layout: five "key","value" metadata rows (FormatVersion, Disclaimer, Publication Date,
    // Version, OfferCode), then the header row starting with "SKU".
    std::string published;
    std::size_t preamble_rows = 0;
    HeaderedCsv csv(
        ctx, text,
        [&](const CsvRecord& rec) {
            if (!rec.fields.empty() && trim(rec.fields[0]) == "SKU") return true;
            if (++preamble_rows > 20) // not a price list: stop before reading the whole file
                ctx.fail_file("has no \"SKU\" header row (expected the AWS EC2 price-list CSV)");
            return false;
        },
        [&](const CsvRecord& rec) {
            if (rec.fields.size() >= 2 && trim(rec.fields[0]) == "Publication Date")
                published = std::string(trim(rec.fields[1]));
        });
    if (published.empty()) ctx.fail("the metadata rows", "Publication Date", "is missing");
    const auto as_of = normalize_timestamp(published);
    if (!as_of)
        ctx.fail("the metadata rows", "Publication Date",
                 "'" + published + "' is not an ISO 8601 timestamp");
    ctx.check_not_future("the metadata rows", "Publication Date", published, *as_of);
    csv.require({"TermType", "PricePerUnit", "Unit", "Instance Type", "Tenancy", "Operating System",
                 "Product Family", "Region Code"});
    const std::string source = "AWS EC2 price list (" + ctx.base_name() + ")";
    while (csv.next()) {
        csv.check_width();
        ++ctx.report.records_read;
        const std::string type = csv.cell("Instance Type");
        // Keep what a training job pays: on-demand, Linux, shared tenancy, no pre-installed
        // software (SQL Server etc.), capacity actually used (not reservations), per hour.
        const bool wanted =
            csv.cell("TermType") == "OnDemand" &&
            csv.cell("Product Family") == "Compute Instance" &&
            csv.cell("Operating System") == "Linux" && csv.cell("Tenancy") == "Shared" &&
            (!csv.has("Pre Installed S/W") || csv.cell("Pre Installed S/W") == "NA") &&
            (!csv.has("CapacityStatus") || csv.cell("CapacityStatus") == "Used") &&
            (!csv.has("License Model") || csv.cell("License Model") != "Bring your own license") &&
            (!csv.has("Currency") || csv.cell("Currency") == "USD");
        if (!wanted || !ctx.known_type(type)) {
            ++ctx.report.skipped;
            continue;
        }
        const std::string unit = csv.cell("Unit");
        if (unit != "Hrs") ctx.fail(csv.where(), "Unit", "'" + unit + "' is not hourly (Hrs)");
        const auto price = csv.price("PricePerUnit");
        if (!price) ctx.fail(csv.where(), "PricePerUnit", "is empty");
        const std::string region = csv.cell("Region Code");
        if (!looks_like_region(region))
            ctx.fail(csv.where(), "Region Code", "'" + region + "' is not an AWS region code");
        if (*price == 0.0) { // $0 rows are placeholders for capacity reservations
            ++ctx.report.skipped;
            continue;
        }
        ctx.put_price(type, region, "", "on_demand", *price, *as_of, source);
        ctx.staged(csv.index());
    }
}

void import_own_csv(ImportContext& ctx, const std::string& text) {
    HeaderedCsv csv(ctx, text);
    csv.require({"record", "instance_type", "region", "zone", "os", "usd_per_hour",
                 "interruption_bucket", "savings_pct", "as_of", "source", "note"});
    while (csv.next()) {
        csv.check_width();
        const std::string record = csv.cell("record");
        const std::string type = csv.cell("instance_type");
        const std::string region = csv.cell("region");
        const std::string stamp = csv.cell("as_of");
        const std::string source = csv.cell("source");
        if (!ctx.known_type(type))
            ctx.fail(csv.where(), "instance_type",
                     "'" + type + "' is not an instance type in the catalog");
        if (!looks_like_region(region))
            ctx.fail(csv.where(), "region", "'" + region + "' is not an AWS region code");
        const auto as_of = normalize_timestamp(stamp);
        if (!as_of) ctx.fail(csv.where(), "as_of", "'" + stamp + "' is not an ISO 8601 date");
        ctx.check_not_future(csv.where(), "as_of", stamp, *as_of);
        if (source.empty()) ctx.fail(csv.where(), "source", "is empty");
        ++ctx.report.records_read;
        if (record == "on_demand" || record == "spot" || record == "capacity_block" ||
            record == "reserved_1y" || record == "reserved_3y") {
            const auto price = csv.price("usd_per_hour");
            if (!price) ctx.fail(csv.where(), "usd_per_hour", "is empty");
            if (*price == 0.0) ctx.fail(csv.where(), "usd_per_hour", price_problem(*price));
            ctx.put_price(type, region, csv.cell("zone"), record, *price, *as_of, source,
                          csv.cell("note"));
        } else if (record == "spot_advisor") {
            const std::string bucket_text = csv.cell("interruption_bucket");
            const auto bucket = parse_number(bucket_text);
            if (!bucket || *bucket < 0 || *bucket > 4 || *bucket != std::floor(*bucket))
                ctx.fail(csv.where(), "interruption_bucket",
                         "'" + bucket_text + "' is not a bucket 0..4");
            const std::string os = csv.cell("os");
            if (os.empty()) ctx.fail(csv.where(), "os", "is empty");
            std::optional<double> savings;
            if (!csv.cell("savings_pct").empty()) {
                savings = parse_number(csv.cell("savings_pct"));
                if (!savings || *savings < 0.0 || *savings > 100.0)
                    ctx.fail(csv.where(), "savings_pct", "is not a percentage");
            }
            ctx.put_advisor(type, region, os, static_cast<int>(*bucket), savings, *as_of, source);
        } else {
            ctx.fail(csv.where(), "record",
                     "'" + record +
                         "' is not on_demand, spot, capacity_block, reserved_1y, reserved_3y or "
                         "spot_advisor");
        }
        ctx.staged(csv.index());
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
    // A fresh, unpredictably named temporary file renamed over the target: a failed export never
    // leaves half a file, and no planted symlink is followed (sim/io/output_file.h).
    try {
        sim::io::write_output_file(file, out);
    } catch (const sim::io::OutputFileError& e) {
        throw CatalogError(std::string(e.what()) + ".");
    }
}

} // namespace cp::catalog
