// Importers for real-world price data and our own CSV export. Each import runs in ONE
// transaction: either every record is written or nothing is. Errors (ImportError) name the
// file, the record (line or array index) and the field.
#pragma once

#include "clusterplan/catalog/catalog.h"

#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace cp::catalog {

enum class ImportFormat {
    aws_spot_history, // `aws ec2 describe-spot-price-history` JSON
    spot_advisor,     // Spot Instance Advisor JSON (spot_advisor[region][os][type] = {s, r})
    skypilot,         // SkyPilot AWS catalog vms.csv
    aws_price_list,   // AWS bulk price-list CSV for EC2 (on-demand, Linux, shared tenancy)
    csv,              // our own `catalog export` format
    aws_spot_feed,    // spot.json behind the AWS EC2 spot pricing page (region-wide, current)
    capacity_blocks,  // `aws ec2 describe-capacity-block-offerings` JSON
};

// Largest import file read (memory is bounded by it): 64 MiB, as every user file
// (sim/io/input_file.h) - price histories, Spot Advisor data, SkyPilot's vms.csv (~2 MB for every
// AWS type and zone) and our export are far smaller.
inline constexpr std::size_t kMaxImportBytes = std::size_t{64} << 20;
// The AWS EC2 price-list CSV of one region lists every type, OS, tenancy, licence and
// reservation term (several hundred MB); it is read record by record, so 1 GiB is allowed.
inline constexpr std::size_t kMaxPriceListBytes = std::size_t{1} << 30;

// "aws-spot-history", "spot-advisor", "skypilot", "aws-price-list", "csv", "aws-spot-feed",
// "capacity-blocks".
std::string_view format_name(ImportFormat format);
std::optional<ImportFormat> parse_format(std::string_view name);
// Looks at the file's first bytes/header; throws ImportError when it cannot tell reliably.
ImportFormat detect_format(const std::filesystem::path& file);

struct ImportOptions {
    std::optional<ImportFormat> format; // nullopt = detect_format()
    // Date stamped on prices from sources that carry none (SkyPilot vms.csv); "" = today (UTC).
    std::string as_of;
    // Called after each record is staged (inside the transaction). Tests use it to slow an
    // import down or to inject a failure by throwing.
    std::function<void(std::size_t record_index)> on_record;
};

struct ImportReport {
    ImportFormat format = ImportFormat::csv;
    std::size_t records_read = 0;
    std::size_t prices_written = 0;
    std::size_t advisor_rows_written = 0;
    std::size_t skipped = 0;     // rows outside the catalog's scope (other types, OS, ...)
    std::string summary() const; // one line for the CLI
};

// Throws ImportError for bad files (database unchanged), CatalogError for database failures.
ImportReport import_file(Catalog& catalog, const std::filesystem::path& file,
                         const ImportOptions& options = {});

// Writes every price and Spot Advisor row as our CSV format (`import --format csv` reads it
// back). Rows are sorted, so export -> import -> export gives the same bytes.
void export_csv(const Catalog& catalog, const std::filesystem::path& file);

} // namespace cp::catalog
