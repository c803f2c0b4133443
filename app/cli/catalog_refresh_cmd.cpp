// `clusterplan catalog refresh`: downloads and imports what AWS publishes (catalog_refresh
// library), printing progress on stderr. SIGINT/SIGTERM cancel it cleanly: exit 2, catalog
// unchanged.
#include "catalog_refresh_cmd.h"

#include "args.h"
#include "clusterplan/catalog/catalog.h"
#include "clusterplan/catalog/refresh.h"
#include "clusterplan/sim/format.h"

#include <atomic>
#include <csignal>
#include <ostream>

namespace cp::cli {
namespace {

namespace cat = cp::catalog;

const char* const kRefreshUsage =
    "usage: clusterplan catalog refresh [--region R ...] [--base-url URL] [--timeout SECONDS] "
    "[--no-aws-cli]\n"
    "  downloads the EC2 price list of each region, the spot price feed of the AWS pricing pages\n"
    "  and the Spot Instance Advisor data (and, when the AWS CLI is configured, 30 days of\n"
    "  describe-spot-price-history), then imports them in one transaction: all or nothing.\n"
    "  --base-url reads the same paths from a mirror; --timeout is the stall limit per download.\n";

// Set by SIGINT/SIGTERM while a refresh runs; polled by the downloads and the import.
std::atomic<bool> g_cancel{false};
extern "C" void on_cancel_signal(int) {
    g_cancel.store(true);
}

// Installs the handlers for the duration of one refresh and restores the previous ones.
class CancelSignals {
public:
    CancelSignals() {
        g_cancel.store(false);
        struct sigaction sa {};
        sa.sa_handler = on_cancel_signal;
        sigemptyset(&sa.sa_mask);
        sigaction(SIGINT, &sa, &old_int_);
        sigaction(SIGTERM, &sa, &old_term_);
    }
    ~CancelSignals() {
        sigaction(SIGINT, &old_int_, nullptr);
        sigaction(SIGTERM, &old_term_, nullptr);
    }
    CancelSignals(const CancelSignals&) = delete;
    CancelSignals& operator=(const CancelSignals&) = delete;

private:
    struct sigaction old_int_ {};
    struct sigaction old_term_ {};
};

std::string megabytes(std::uint64_t bytes) {
    return sim::fmt::number(static_cast<double>(bytes) / 1e6, 1) + " MB";
}

} // namespace

int cmd_catalog_refresh(const std::vector<std::string>& argv, Io& io) {
    const Args args(argv, {{"--no-aws-cli"}, {"--region", "--base-url", "--timeout"}});
    if (!args.positional().empty())
        throw UsageError("catalog refresh takes no positional arguments", kRefreshUsage);
    cat::RefreshOptions options;
    options.regions = args.values("--region");
    options.base_url = args.value("--base-url");
    if (!options.base_url.empty() && options.base_url.rfind("http://", 0) != 0 &&
        options.base_url.rfind("https://", 0) != 0)
        throw UsageError("--base-url '" + options.base_url +
                             "' must start with http:// or https://",
                         kRefreshUsage);
    options.stall_timeout_s = args.int_value("--timeout", 60, 1, 3600);
    options.connect_timeout_s = std::min<long>(options.stall_timeout_s, 20);
    if (args.flag("--no-aws-cli")) options.use_aws_cli = false;
    auto catalog = cat::Catalog::open_default();

    CancelSignals signals;
    options.cancel = &g_cancel;
    std::size_t last_step = 0;
    std::uint64_t last_bytes = 0;
    options.progress = [&](const cat::RefreshProgress& p) {
        // One line per step, then one per 16 MB received (a region's price list is large).
        constexpr std::uint64_t kEvery = 16ull << 20;
        if (p.step != last_step) {
            io.err << "[" << p.step << "/" << p.steps << "] " << p.what << "\n";
            last_step = p.step;
            last_bytes = 0;
        } else if (p.bytes >= last_bytes + kEvery) {
            io.err << "      " << megabytes(p.bytes)
                   << (p.bytes_total ? " of " + megabytes(p.bytes_total) : std::string()) << "\n";
            last_bytes = p.bytes;
        }
        io.err.flush();
    };
    try {
        const cat::RefreshReport report = cat::refresh_catalog(catalog, options);
        for (const auto& line : report.lines)
            io.out << line << "\n";
        io.out << "refreshed: " << report.prices_written << " prices, "
               << report.advisor_rows_written << " Spot Advisor rows\n";
        return kOk;
    } catch (const cat::RefreshError& e) {
        throw InputError(std::string("catalog refresh: ") + e.what());
    }
}

} // namespace cp::cli
