// The instance catalog: one SQLite file per user, created from the bundled snapshot
// (catalog/data/*.csv, embedded in the binary) on first run, migrated with PRAGMA user_version,
// journaled with WAL. Qt-free; the GUI and the CLI both use this class.
#pragma once

#include "clusterplan/catalog/errors.h"
#include "clusterplan/catalog/records.h"
#include "clusterplan/sim/hardware.h"
#include "clusterplan/sim/spot_price_stats.h"

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;

namespace cp::catalog {

// CLUSTERPLAN_DATA_DIR if set, else $XDG_DATA_HOME/clusterplan, else ~/.local/share/clusterplan.
std::filesystem::path default_data_dir();
// default_data_dir() / "catalog.sqlite"
std::filesystem::path default_database_path();

// Schema version this build writes (PRAGMA user_version).
int current_schema_version();

class Catalog {
public:
    // Opens the catalog at `path`, creating it (and its directory) from the bundled snapshot
    // when missing and migrating older schemas in place. Throws CorruptDatabaseError when the
    // file is not a healthy catalog, CatalogError for other failures.
    explicit Catalog(const std::filesystem::path& path);
    // Opens default_database_path().
    static Catalog open_default();
    // Moves the (corrupt) file at `path` and its -wal/-shm companions to
    // "<name>.corrupt-YYYYMMDDTHHMMSSZ" next to it, then creates a fresh catalog there.
    // Returns the backup path (empty when there was no file). Never deletes user data.
    static std::filesystem::path rebuild_from_snapshot(const std::filesystem::path& path);

    Catalog(Catalog&& other) noexcept;
    Catalog& operator=(Catalog&& other) noexcept;
    Catalog(const Catalog&) = delete;
    Catalog& operator=(const Catalog&) = delete;
    ~Catalog();

    const std::filesystem::path& path() const { return path_; }
    // Opened read-only because this user cannot write the file or its directory (another user's
    // catalog): queries work, transaction() throws CatalogError saying so.
    bool read_only() const { return read_only_; }
    int schema_version() const;

    // Raw handle for code that keeps its own tables in the same file (calibration_store.cpp).
    // Foreign keys are on, busy timeout 5 s. Use transaction() for writes.
    sqlite3* handle() const { return db_; }
    // Runs `body` inside BEGIN IMMEDIATE ... COMMIT; rolls back and rethrows on exception.
    // Nested calls join the outer transaction (no savepoints needed by callers).
    void transaction(const std::function<void()>& body);
    // Runs one or more SQL statements without results; throws CatalogError on failure.
    void exec(std::string_view sql);

    // --- queries -------------------------------------------------------------------------
    std::vector<AcceleratorInfo> accelerators() const;
    std::optional<AcceleratorInfo> accelerator(std::string_view id) const;
    // Sorted by family then accelerator count then type name.
    std::vector<InstanceInfo> instances(const InstanceFilter& filter = {}) const;
    std::optional<InstanceInfo> instance(std::string_view type,
                                         std::string_view region = kDefaultRegion) const;
    bool has_instance_type(std::string_view type) const;
    // Every stored price of `type` (all regions, zones, kinds, newest first within a zone);
    // current_only keeps the newest per (region, zone, kind).
    std::vector<PriceRow> prices(std::string_view type, bool current_only = false) const;
    // Spot Advisor rows; empty type = all.
    std::vector<SpotAdvisorRow> spot_advisor(std::string_view type = {}) const;
    std::vector<std::string> regions() const;       // regions with any price
    std::vector<std::string> price_regions() const; // regions with an on-demand or spot price
    std::vector<std::string> families() const;

    // --- conversion to the simulator's types --------------------------------------------
    // Unknown values become NaN (prices) or -1 (interruption bucket).
    // Spot prices follow `rule` (a statistic of the region's spot price history, see
    // spot_price_summary); Capacity Block and reserved rates are the region's current ones.
    std::optional<sim::NodeSpec> node_spec(std::string_view type,
                                           std::string_view region = kDefaultRegion,
                                           const sim::SpotPriceRule& rule = {}) const;
    // Every type that can train: excludes inference-only accelerators (Inferentia) and
    // accelerators with no known dense peak at any training precision.
    std::vector<sim::NodeSpec> trainable_node_specs(std::string_view region = kDefaultRegion,
                                                    const sim::SpotPriceRule& rule = {}) const;
    // The spot price of `type` in `region` under `rule`, from every stored spot price (history
    // included): the statistic, the zone it was read in, the range over zones, a sentence.
    sim::SpotPriceSummary spot_price_summary(std::string_view type, std::string_view region,
                                             const sim::SpotPriceRule& rule = {}) const;
    // Current Capacity Block and reserved rates of `type` in `region` (NaN when none).
    sim::CommittedPrices committed_prices(std::string_view type, std::string_view region) const;
    // Fills `node`'s spot price (statistic, range, basis) and committed prices for `region`.
    void apply_purchase_prices(sim::NodeSpec& node, std::string_view region,
                               const sim::SpotPriceRule& rule = {}) const;
    std::optional<sim::AcceleratorSpec> accelerator_spec(std::string_view id) const;

    // --- saved scenarios (GUI "save plan") ----------------------------------------------
    void save_scenario(const std::string& name, const std::string& json);
    std::optional<ScenarioRow> scenario(std::string_view name) const;
    std::vector<ScenarioRow> scenarios() const;
    bool delete_scenario(std::string_view name);

    // Deterministic text dump of every table's rows (tests compare before/after an import).
    std::string dump() const;
    // PRAGMA integrity_check result ("ok" when healthy).
    std::string integrity_check() const;

private:
    std::filesystem::path path_;
    sqlite3* db_ = nullptr;
    int tx_depth_ = 0;
    bool read_only_ = false;
};

// Conversion helpers, exposed for tests and for the scenario loader.
sim::IntraNodeLink parse_intra_node_link(std::string_view interconnect_text, int accelerator_count);
sim::AcceleratorSpec to_accelerator_spec(const AcceleratorInfo& info);
sim::NodeSpec to_node_spec(const InstanceInfo& instance, const AcceleratorInfo* accelerator);

} // namespace cp::catalog
