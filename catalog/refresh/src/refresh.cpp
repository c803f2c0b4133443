#include "clusterplan/catalog/refresh.h"

#include "aws_cli.h"
#include "clusterplan/catalog/importers.h"
#include "http_fetch.h"
#include "price_list_filter.h"

#include <algorithm>
#include <chrono>
#include <set>

namespace cp::catalog {
namespace {

namespace fs = std::filesystem;
using refresh::FetchError;
using refresh::FetchOptions;

// Where AWS publishes each file (no credentials needed).
constexpr const char* kPricingHost = "https://pricing.us-east-1.amazonaws.com";
constexpr const char* kSpotFeedHost = "https://website.spot.ec2.aws.a2z.com";
constexpr const char* kAdvisorHost = "https://spot-bid-advisor.s3.amazonaws.com";

// Size bounds: the spot feed and the advisor file are a few MB; 64 MiB leaves room for growth
// and stops a runaway or hostile server. A region's full price list is gigabytes, but only the
// catalog's types are kept, which is well under 64 MiB; the raw stream is bounded at 16 GiB.
constexpr std::uint64_t kMaxKeptBytes = 64ull << 20;
constexpr std::uint64_t kMaxPriceListRawBytes = 16ull << 30;

std::string trim_slash(std::string s) {
    while (!s.empty() && s.back() == '/')
        s.pop_back();
    return s;
}

struct Download {
    std::string what;
    std::string url;
    fs::path file;
    ImportFormat format;
    bool price_list = false;
};

// A scratch directory removed on every exit path.
class ScratchDir {
public:
    explicit ScratchDir(fs::path p) : path_(std::move(p)) {
        std::error_code ec;
        fs::remove_all(path_, ec);
        fs::create_directories(path_, ec);
        if (ec)
            throw RefreshError("cannot create the download folder " + path_.string() + ": " +
                               ec.message() + ".");
    }
    ~ScratchDir() {
        std::error_code ec;
        fs::remove_all(path_, ec);
    }
    const fs::path& path() const { return path_; }

private:
    fs::path path_;
};

std::string sentence(std::string s) {
    if (!s.empty() && s.back() != '.') s += '.';
    return s;
}

} // namespace

const std::vector<const char*>& aws_region_codes() {
    static const std::vector<const char*> codes{
        "af-south-1",     "ap-east-1",      "ap-east-2",      "ap-northeast-1", "ap-northeast-2",
        "ap-northeast-3", "ap-south-1",     "ap-south-2",     "ap-southeast-1", "ap-southeast-2",
        "ap-southeast-3", "ap-southeast-4", "ap-southeast-5", "ap-southeast-7", "ca-central-1",
        "ca-west-1",      "eu-central-1",   "eu-central-2",   "eu-north-1",     "eu-south-1",
        "eu-south-2",     "eu-west-1",      "eu-west-2",      "eu-west-3",      "il-central-1",
        "me-central-1",   "me-south-1",     "mx-central-1",   "sa-east-1",      "us-east-1",
        "us-east-2",      "us-west-1",      "us-west-2"};
    return codes;
}

bool is_region_code(const std::string& r) {
    return !r.empty() && r.size() <= 32 &&
           r.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") == std::string::npos;
}

std::string price_list_url(const std::string& base, const std::string& region) {
    return (base.empty() ? std::string(kPricingHost) : trim_slash(base)) +
           "/offers/v1.0/aws/AmazonEC2/current/" + region + "/index.csv";
}
std::string spot_feed_url(const std::string& base) {
    return (base.empty() ? std::string(kSpotFeedHost) : trim_slash(base)) + "/spot.json";
}
std::string spot_advisor_url(const std::string& base) {
    return (base.empty() ? std::string(kAdvisorHost) : trim_slash(base)) +
           "/spot-advisor-data.json";
}

RefreshReport refresh_catalog(Catalog& catalog, const RefreshOptions& options) {
    std::vector<std::string> regions = options.regions;
    if (regions.empty()) regions = catalog.price_regions();
    if (regions.empty()) regions.push_back(kDefaultRegion);
    for (const auto& r : regions)
        if (!is_region_code(r))
            throw RefreshError("--region '" + r + "' is not an AWS region code.");
    std::set<std::string> types;
    for (const auto& i : catalog.instances())
        types.insert(i.instance_type);

    const fs::path work = options.work_dir.empty()
                              ? catalog.path().parent_path() / "refresh-downloads"
                              : options.work_dir;
    ScratchDir scratch(work);
    std::vector<Download> downloads;
    for (const auto& region : regions)
        downloads.push_back({region + " price list", price_list_url(options.base_url, region),
                             scratch.path() / ("price-list-" + region + ".csv"),
                             ImportFormat::aws_price_list, true});
    downloads.push_back({"spot price feed", spot_feed_url(options.base_url),
                         scratch.path() / "spot.json", ImportFormat::aws_spot_feed, false});
    downloads.push_back({"Spot Instance Advisor", spot_advisor_url(options.base_url),
                         scratch.path() / "spot-advisor-data.json", ImportFormat::spot_advisor,
                         false});

    const bool use_cli =
        options.use_aws_cli.value_or(refresh::aws_cli_configured(options.aws_program));
    const std::size_t steps = downloads.size() + (use_cli ? regions.size() : 0) + 1;
    std::size_t step = 0;
    auto report_progress = [&](const std::string& what, std::uint64_t bytes, std::uint64_t total) {
        if (options.progress) options.progress({step, steps, what, bytes, total});
    };
    auto cancelled = [&] { return options.cancel && options.cancel->load(); };

    try {
        for (const Download& d : downloads) {
            ++step;
            report_progress(d.what, 0, 0);
            FetchOptions fo;
            fo.connect_timeout_s = options.connect_timeout_s;
            fo.stall_timeout_s = options.stall_timeout_s;
            fo.cancel = options.cancel;
            fo.max_kept_bytes = kMaxKeptBytes;
            fo.max_raw_bytes = d.price_list ? kMaxPriceListRawBytes : kMaxKeptBytes;
            fo.progress = [&](std::uint64_t bytes, std::uint64_t total) {
                report_progress(d.what, bytes, total);
            };
            if (d.price_list) {
                auto filter = std::make_shared<refresh::PriceListFilter>(types);
                refresh::fetch_to_file(
                    d.url, d.file, fo,
                    [filter](std::string_view chunk, bool last, std::string& keep) {
                        filter->feed(chunk, last, keep);
                    });
            } else {
                refresh::fetch_to_file(d.url, d.file, fo);
            }
        }
        std::vector<Download> cli_files;
        if (use_cli) {
            for (const auto& region : regions) {
                ++step;
                report_progress(region + " spot price history (AWS CLI)", 0, 0);
                const fs::path file = scratch.path() / ("spot-history-" + region + ".json");
                refresh::run_spot_history(options.aws_program, region, types, file, options.cancel,
                                          options.stall_timeout_s * 5);
                cli_files.push_back({region + " spot price history",
                                     "aws ec2 describe-spot-price-history", file,
                                     ImportFormat::aws_spot_history, false});
            }
        }
        if (cancelled()) throw RefreshError("cancelled: nothing was changed.");
        ++step;
        report_progress("importing", 0, 0);
        RefreshReport report;
        // One outer transaction: the importers' own transactions join it, so the catalog gets
        // every file or none.
        catalog.transaction([&] {
            auto import_one = [&](const Download& d) {
                ImportOptions io;
                io.format = d.format;
                io.on_record = [&](std::size_t) {
                    if (cancelled()) throw RefreshError("cancelled: nothing was changed.");
                };
                ImportReport r;
                try {
                    r = import_file(catalog, d.file, io);
                } catch (const ImportError& e) {
                    // Name what was downloaded, not the scratch file it was kept in.
                    std::string why = e.what();
                    if (why.rfind(d.file.string(), 0) == 0)
                        why = why.substr(d.file.string().size());
                    throw RefreshError("the " + d.what + " from " + d.url + " is not usable" + why +
                                       " Nothing was changed.");
                }
                report.prices_written += r.prices_written;
                report.advisor_rows_written += r.advisor_rows_written;
                report.lines.push_back(d.what + " (" + d.url + "): " + r.summary());
            };
            for (const Download& d : downloads)
                import_one(d);
            for (const Download& d : cli_files)
                import_one(d);
        });
        return report;
    } catch (const FetchError& e) {
        std::string msg = sentence(e.what());
        if (e.kind() == FetchError::Kind::offline)
            msg += " Nothing was changed; import downloaded files with `clusterplan catalog "
                   "import` instead.";
        else if (e.kind() == FetchError::Kind::cancelled)
            msg = "cancelled: nothing was changed.";
        else
            msg += " Nothing was changed.";
        throw RefreshError(msg);
    }
}

} // namespace cp::catalog
