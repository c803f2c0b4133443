#include "clusterplan/service/catalog_refresh.h"

#include "clusterplan/service/errors.h"
#include "clusterplan/sim/format.h"

#include <algorithm>
#include <set>

namespace cp::service {
namespace {

std::string megabytes(std::uint64_t bytes) {
    return sim::fmt::number(static_cast<double>(bytes) / 1e6, 1) + " MB";
}

catalog::RefreshOptions options_for(const RefreshRequest& request, const std::atomic<bool>* cancel,
                                    const RefreshProgressFn& progress) {
    catalog::RefreshOptions options;
    options.regions = request.regions;
    options.base_url = request.base_url;
    options.stall_timeout_s = request.stall_timeout_s;
    // Connecting takes a round trip or two; a server that does not answer in 20 s is down.
    options.connect_timeout_s = std::min<long>(request.stall_timeout_s, 20);
    options.use_aws_cli = request.use_aws_cli;
    options.cancel = cancel;
    options.progress = progress;
    return options;
}

} // namespace

void check_refresh_request(const RefreshRequest& request) {
    const std::string& base = request.base_url;
    if (!base.empty() && base.rfind("http://", 0) != 0 && base.rfind("https://", 0) != 0)
        throw InputError("--base-url '" + base + "' must start with http:// or https://");
    for (const auto& region : request.regions)
        if (!catalog::is_region_code(region))
            throw InputError("--region '" + region +
                             "' is not an AWS region code (such as us-east-1)");
}

catalog::RefreshReport refresh_catalog(catalog::Catalog& catalog, const RefreshRequest& request,
                                       const std::atomic<bool>* cancel,
                                       const RefreshProgressFn& progress) {
    check_refresh_request(request);
    try {
        return catalog::refresh_catalog(catalog, options_for(request, cancel, progress));
    } catch (const catalog::RefreshError& e) {
        throw InputError(std::string("catalog refresh: ") + e.what());
    }
}

catalog::RefreshReport refresh_catalog_at(const std::filesystem::path& database,
                                          const RefreshRequest& request,
                                          const std::atomic<bool>* cancel,
                                          const RefreshProgressFn& progress) {
    catalog::Catalog catalog(database);
    return refresh_catalog(catalog, request, cancel, progress);
}

std::string progress_text(const catalog::RefreshProgress& p) {
    std::string out = "[" + std::to_string(p.step) + "/" + std::to_string(p.steps) + "] " + p.what;
    if (p.bytes > 0) {
        out += ": " + megabytes(p.bytes);
        if (p.bytes_total > 0) out += " of " + megabytes(p.bytes_total);
    }
    return out;
}

double progress_fraction(const catalog::RefreshProgress& p) {
    if (p.steps == 0) return 0.0;
    double within = 0.0;
    if (p.bytes_total > 0)
        within = std::min(1.0, static_cast<double>(p.bytes) / static_cast<double>(p.bytes_total));
    const double done = static_cast<double>(p.step > 0 ? p.step - 1 : 0) + within;
    return std::clamp(done / static_cast<double>(p.steps), 0.0, 1.0);
}

std::vector<std::string> region_choices(const catalog::Catalog& catalog) {
    std::set<std::string> all;
    for (const char* code : catalog::aws_region_codes())
        all.insert(code);
    for (const auto& r : catalog.regions())
        all.insert(r);
    return {all.begin(), all.end()};
}

} // namespace cp::service
