// Refreshing the catalog from what AWS publishes, for `clusterplan catalog refresh` and the GUI's
// Catalog → Refresh: the request checked up front, progress as text and as a share of the whole
// refresh, cancellation, and every failure as one InputError sentence (nothing changed).
#pragma once

#include "clusterplan/catalog/catalog.h"
#include "clusterplan/catalog/refresh.h"

#include <atomic>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace cp::service {

struct RefreshRequest {
    std::vector<std::string> regions; // empty: every region the catalog has prices in
    std::string base_url;             // a mirror serving AWS's paths; empty: AWS itself
    int stall_timeout_s = 60;         // a download that receives nothing this long fails
    std::optional<bool> use_aws_cli;  // nullopt: when installed and configured
};

using RefreshProgressFn = std::function<void(const catalog::RefreshProgress&)>;

// Throws InputError when the base URL is not http(s) or a region is not an AWS region code.
void check_refresh_request(const RefreshRequest& request);

// Downloads and imports in one transaction on `catalog`; throws InputError ("... Nothing was
// changed.") on failure or when `cancel` is set.
catalog::RefreshReport refresh_catalog(catalog::Catalog& catalog, const RefreshRequest& request,
                                       const std::atomic<bool>* cancel = nullptr,
                                       const RefreshProgressFn& progress = {});
// The same on a connection of its own to `database` (for a worker thread).
catalog::RefreshReport refresh_catalog_at(const std::filesystem::path& database,
                                          const RefreshRequest& request,
                                          const std::atomic<bool>* cancel = nullptr,
                                          const RefreshProgressFn& progress = {});

// "[2/6] us-west-2 price list: 12.5 MB of 40.0 MB" (the byte part only once bytes arrived).
std::string progress_text(const catalog::RefreshProgress& progress);
// How far the whole refresh is, 0..1: finished steps plus the current step's byte share.
double progress_fraction(const catalog::RefreshProgress& progress);

// Regions to offer in pickers: every AWS region code (catalog::aws_region_codes()) and any other
// region the catalog holds prices for, sorted.
std::vector<std::string> region_choices(const catalog::Catalog& catalog);

} // namespace cp::service
