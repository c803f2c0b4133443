// Calibration profiles kept in the catalog's `calibrations` table: provenance (host, instance
// type, accelerator, tool versions, date), the raw measurements as imported and the fit.
#pragma once

#include "clusterplan/catalog/catalog.h"
#include "clusterplan/sim/calibration_profile.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cp::catalog {

struct CalibrationRow {
    std::int64_t id = 0;
    std::string name;
    std::string host;
    std::string instance_type;
    std::string accelerator;
    std::string source; // "probe", "nccl-tests"
    std::string measured_at;
    std::string tool_versions_json; // {"nccl": "2.27.3", ...}
    std::string raw_json;           // the measurements as imported
    std::string fit_json;           // sim::profile_to_json()
    std::string created_at;         // ISO 8601 UTC
};

class CalibrationStore {
public:
    explicit CalibrationStore(Catalog& catalog) : catalog_(catalog) {}

    // Stores `profile` under profile.name in one transaction. An existing name is an error
    // (CatalogError naming it) unless `replace`; nothing is changed on error.
    std::int64_t store(const sim::CalibrationProfile& profile, const std::string& raw_json,
                       bool replace = false);
    // `base`, or `base-2`, `base-3` ... whichever is not taken yet.
    std::string unused_name(const std::string& base) const;
    bool exists(std::string_view name) const;
    // Newest first.
    std::vector<CalibrationRow> list() const;
    std::optional<CalibrationRow> find(std::string_view name) const;
    // The stored fit as a profile; CatalogError when the stored JSON is damaged.
    std::optional<sim::CalibrationProfile> load(std::string_view name) const;
    bool remove(std::string_view name);

private:
    Catalog& catalog_;
};

} // namespace cp::catalog
