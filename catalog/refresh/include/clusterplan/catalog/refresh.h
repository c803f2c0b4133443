// `clusterplan catalog refresh`: downloads what AWS publishes without credentials (the EC2 bulk
// price list per region, the spot price feed of the AWS pricing pages, the Spot Instance
// Advisor data) and, where the AWS CLI is configured, `aws ec2 describe-spot-price-history`,
// then imports everything through the catalog's importers in ONE transaction: a failed,
// cancelled or interrupted refresh changes nothing.
#pragma once

#include "clusterplan/catalog/catalog.h"

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cp::catalog {

// Offline, timed out, HTTP error, cancelled, a bad file: one sentence; the catalog is unchanged.
class RefreshError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct RefreshProgress {
    std::size_t step = 0; // 1-based
    std::size_t steps = 0;
    std::string what;              // "us-east-1 price list", "spot price feed", ...
    std::uint64_t bytes = 0;       // received so far in this step
    std::uint64_t bytes_total = 0; // 0 when the server does not say
};

struct RefreshOptions {
    std::vector<std::string> regions; // empty: every region the catalog has prices in
    // Mirror serving the same paths as AWS (tests use a local server): BASE/offers/v1.0/aws/
    // AmazonEC2/current/REGION/index.csv, BASE/spot.json, BASE/spot-advisor-data.json.
    std::string base_url;
    long connect_timeout_s = 20;
    long stall_timeout_s = 60;
    // nullopt: use the AWS CLI when it is installed and configured (credentials in the
    // environment or ~/.aws); false: never; true: required.
    std::optional<bool> use_aws_cli;
    std::string aws_program = "aws";
    std::filesystem::path work_dir; // downloads go here (default: beside the catalog file)
    const std::atomic<bool>* cancel = nullptr;
    std::function<void(const RefreshProgress&)> progress;
};

struct RefreshReport {
    std::vector<std::string> lines; // one per imported file
    std::size_t prices_written = 0;
    std::size_t advisor_rows_written = 0;
};

// AWS's commercial region codes (AWS General Reference, "AWS Regions", as of 2025; GovCloud and
// China excluded: their price lists live elsewhere). For pickers; a refresh accepts any code.
const std::vector<const char*>& aws_region_codes();
// Lower-case letters, digits and dashes, at most 32 characters: what an AWS region code looks
// like, and all a URL path built from it may contain.
bool is_region_code(const std::string& region);

// The URLs a refresh reads (exposed for messages and tests).
std::string price_list_url(const std::string& base_url, const std::string& region);
std::string spot_feed_url(const std::string& base_url);
std::string spot_advisor_url(const std::string& base_url);

RefreshReport refresh_catalog(Catalog& catalog, const RefreshOptions& options);

} // namespace cp::catalog
