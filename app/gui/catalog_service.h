// The GUI's view of the catalog library: opens the user database (CLUSTERPLAN_DATA_DIR or the
// XDG data dir), lists instances as display rows, imports files and rebuilds a damaged database.
#pragma once

#include "pages/scenario_editor.h"

#include <QString>
#include <atomic>
#include <memory>
#include <optional>
#include <vector>

namespace cp::catalog {
class Catalog;
}

namespace cp::gui {

struct InstanceRow {
    QString type;
    QString family;
    QString accelerator;
    QString vendor;
    int accelerator_count = 0;
    double accelerator_memory_gib = 0; // per accelerator; NaN unknown
    double network_gbps = 0;           // NaN unknown
    bool network_up_to = false;
    std::optional<bool> efa; // empty: the catalog does not say
    QString interconnect;
    double on_demand_usd_per_hour = 0; // NaN unknown
    double spot_usd_per_hour = 0;      // the stated statistic (median of 30 days); NaN unknown
    double spot_min_usd_per_hour = 0;  // range over the region's zones; NaN unknown
    double spot_max_usd_per_hour = 0;
    QString spot_basis;           // how the spot price was read (statistic, zone, range)
    int interruption_bucket = -1; // Spot Advisor bucket 0..4, -1 unknown
    QString price_as_of;          // ISO date of the on-demand price
    double price_age_days = 0;    // NaN unknown
    bool can_train = true;
    QString region; // whose prices these are
    // Some accelerator figure is a published estimate, not a datasheet value ("A10G *").
    bool accelerator_estimated = false;
    QString estimate_source;
};

struct PriceRow {
    QString region;
    QString zone;
    QString kind; // on_demand | spot
    double usd_per_hour = 0;
    QString as_of;
    QString source;
};

struct InstanceDetail {
    InstanceRow row;
    double vcpus = 0; // NaN unknown
    double memory_gib = 0;
    // Accelerator specs as label/value pairs, already formatted ("BF16 dense" → "312 TFLOP/s").
    std::vector<std::pair<QString, QString>> accelerator_specs;
    std::vector<PriceRow> prices;
    QString notes;
    QString source;
};

class CatalogService {
public:
    CatalogService();
    ~CatalogService();
    CatalogService(const CatalogService&) = delete;
    CatalogService& operator=(const CatalogService&) = delete;

    // Empty when the database opened; else one sentence (e.g. the file is damaged).
    QString openError() const { return open_error_; }
    QString databasePath() const { return path_; }
    QString summary() const;

    // Rows with their prices in `region` (empty: us-east-1).
    std::vector<InstanceRow> instances(const QString& region = QString()) const;
    std::optional<InstanceDetail> detail(const QString& type,
                                         const QString& region = QString()) const;
    std::vector<InstanceChoice> instanceChoices() const;
    std::vector<PresetChoice> presetChoices() const;
    QStringList regionChoices() const;      // every AWS region and any other priced region
    QStringList pricedRegions() const;      // regions with an on-demand or spot price
    QStringList acceleratorChoices() const; // accelerator ids that can train
    static QStringList importFormats();     // "" = detect from the file

    // Imports in one transaction on its own connection (safe on a worker thread). Returns an
    // empty string or one sentence naming file, field and reason; on error nothing changes.
    // `cancel` (may be null) is polled per record; a cancelled import rolls back.
    static QString importFile(const QString& database_path, const QString& file,
                              const QString& format, const std::atomic<bool>* cancel = nullptr,
                              QString* summary = nullptr);
    // Rebuilds the user database from the bundled snapshot, keeping the old file as a backup.
    QString rebuildFromSnapshot();
    QString lastBackupPath() const { return backup_path_; }
    // Re-opens after an import so readers see the new data.
    void reload();

    // The window's connection; null when the database did not open. Writers (calibration
    // profiles) use the non-const one.
    const catalog::Catalog* db() const { return db_.get(); }
    catalog::Catalog* db() { return db_.get(); }

private:
    std::unique_ptr<catalog::Catalog> db_;
    QString path_;
    QString open_error_;
    QString backup_path_;
};

} // namespace cp::gui
