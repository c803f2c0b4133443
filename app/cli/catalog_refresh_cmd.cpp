// `clusterplan catalog refresh`: downloads and imports what AWS publishes through the service
// layer, printing progress on stderr. SIGINT/SIGTERM cancel it cleanly: exit 2, catalog
// unchanged.
#include "catalog_refresh_cmd.h"

#include "args.h"
#include "clusterplan/catalog/catalog.h"
#include "clusterplan/catalog/refresh.h"
#include "clusterplan/service/catalog_refresh.h"

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

} // namespace

int cmd_catalog_refresh(const std::vector<std::string>& argv, Io& io) {
    const Args args(argv, {{"--no-aws-cli"}, {"--region", "--base-url", "--timeout"}});
    if (!args.positional().empty())
        throw UsageError("catalog refresh takes no positional arguments", kRefreshUsage);
    service::RefreshRequest request;
    request.regions = args.values("--region");
    request.base_url = args.value("--base-url");
    request.stall_timeout_s = args.int_value("--timeout", 60, 1, 3600);
    if (args.flag("--no-aws-cli")) request.use_aws_cli = false;
    try {
        service::check_refresh_request(request);
    } catch (const InputError& e) {
        throw UsageError(e.what(), kRefreshUsage);
    }
    auto catalog = cat::Catalog::open_default();

    CancelSignals signals;
    std::size_t last_step = 0;
    std::uint64_t last_bytes = 0;
    const auto progress = [&](const cat::RefreshProgress& p) {
        // One line per step, then one per 16 MB received (a region's price list is large).
        constexpr std::uint64_t kEvery = 16ull << 20;
        if (p.step != last_step || p.bytes >= last_bytes + kEvery) {
            io.err << (p.step != last_step ? service::progress_text({p.step, p.steps, p.what})
                                           : "      " + service::progress_text(p))
                   << "\n";
            last_step = p.step;
            last_bytes = p.bytes;
        }
        io.err.flush();
    };
    const cat::RefreshReport report =
        service::refresh_catalog(catalog, request, &g_cancel, progress);
    for (const auto& line : report.lines)
        io.out << line << "\n";
    io.out << "refreshed: " << report.prices_written << " prices, " << report.advisor_rows_written
           << " Spot Advisor rows\n";
    return kOk;
}

} // namespace cp::cli
