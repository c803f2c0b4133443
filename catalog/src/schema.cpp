// Schema and migrations. Each migration runs inside one transaction with the version bump, so a
// crash mid-migration leaves the previous version intact. Never drop user tables (prices,
// spot_advisor, calibrations, scenarios) in a migration: copy them forward.
#include "clusterplan/catalog/catalog.h"
#include "dates.h"
#include "internal.h"
#include "schema_sql.h"
#include "sqlite_util.h"

#include <string>

namespace cp::catalog {

int current_schema_version() {
    return 4;
}

namespace detail {
namespace {

constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE meta(
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE accelerators(
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  vendor TEXT,
  is_gpu INTEGER NOT NULL CHECK(is_gpu IN (0, 1)),
  inference_only INTEGER NOT NULL CHECK(inference_only IN (0, 1)),
  form_factor TEXT,
  memory_gib REAL,
  memory_type TEXT,
  hbm_gbytes_per_s REAL,
  fp32_tflops REAL,
  tf32_tflops REAL,
  fp16_tflops REAL,
  bf16_tflops REAL,
  fp8_tflops REAL,
  int8_tops REAL,
  sparse_note TEXT,
  intra_node_link TEXT,
  link_gbytes_per_s REAL,
  host_link TEXT,
  tdp_w REAL,
  software_stack TEXT,
  notes TEXT,
  source TEXT
);
CREATE TABLE instance_types(
  instance_type TEXT PRIMARY KEY,
  family TEXT NOT NULL,
  vcpus INTEGER,
  memory_gib REAL,
  accelerator_id TEXT REFERENCES accelerators(id),
  accelerator_count INTEGER NOT NULL DEFAULT 0,
  accelerator_memory_gib_each REAL,
  network_gbps REAL,
  network_is_up_to INTEGER NOT NULL DEFAULT 0,
  network_baseline_gbps REAL,
  efa INTEGER,
  intra_node_interconnect TEXT,
  interconnect_gbytes_per_s_per_accel REAL,
  notes TEXT,
  source TEXT
);
CREATE TABLE prices(
  id INTEGER PRIMARY KEY,
  instance_type TEXT NOT NULL REFERENCES instance_types(instance_type) ON DELETE CASCADE,
  region TEXT NOT NULL,
  zone TEXT NOT NULL DEFAULT '',
  kind TEXT NOT NULL CHECK(kind IN ('on_demand', 'spot')),
  usd_per_hour REAL NOT NULL CHECK(usd_per_hour >= 0),
  as_of TEXT NOT NULL,
  source TEXT NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  UNIQUE(instance_type, region, zone, kind, as_of, note)
);
CREATE INDEX prices_by_key ON prices(instance_type, region, kind, zone, as_of);
CREATE TABLE spot_advisor(
  instance_type TEXT NOT NULL REFERENCES instance_types(instance_type) ON DELETE CASCADE,
  region TEXT NOT NULL,
  os TEXT NOT NULL,
  interruption_bucket INTEGER NOT NULL CHECK(interruption_bucket BETWEEN 0 AND 4),
  savings_pct REAL,
  as_of TEXT NOT NULL,
  source TEXT NOT NULL,
  PRIMARY KEY(instance_type, region, os)
);
CREATE TABLE calibrations(
  id INTEGER PRIMARY KEY,
  name TEXT UNIQUE NOT NULL,
  host TEXT,
  instance_type TEXT,
  accelerator TEXT,
  source TEXT NOT NULL,
  measured_at TEXT,
  tool_versions_json TEXT,
  raw_json TEXT NOT NULL,
  fit_json TEXT NOT NULL,
  created_at TEXT NOT NULL
);
CREATE TABLE scenarios(
  name TEXT PRIMARY KEY,
  json TEXT NOT NULL,
  saved_at TEXT NOT NULL
);
)sql";

int user_version(sqlite3* db) {
    Stmt s(db, "PRAGMA user_version");
    return s.step() ? static_cast<int>(s.get_int(0)) : 0;
}

int table_count(sqlite3* db) {
    Stmt s(db, "SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'");
    return s.step() ? static_cast<int>(s.get_int(0)) : 0;
}

} // namespace

void migrate(sqlite3* db, const std::filesystem::path& path) {
    const int target = current_schema_version();
    int version = user_version(db);
    if (version == target) return;
    if (version > target)
        throw CorruptDatabaseError(path, "the catalog " + path.string() + " has schema version " +
                                             std::to_string(version) +
                                             ", newer than this ClusterPlan understands (" +
                                             std::to_string(target) + ").");
    exec(db, "BEGIN IMMEDIATE");
    try {
        version = user_version(db); // another process may have migrated meanwhile
        if (version == 0) {
            if (table_count(db) != 0)
                throw CorruptDatabaseError(path, "the file " + path.string() +
                                                     " is an SQLite database but not a "
                                                     "ClusterPlan catalog.");
            exec(db, kSchemaV1);
            exec(db, kCurrentPricesView);
            load_snapshot(db);
            Stmt meta(db, "INSERT INTO meta(key, value) VALUES ('created_at', ?1), "
                          "('snapshot', 'catalog/data (bundled)')");
            meta.bind(1, now_utc_timestamp()).run();
            version = 1;
        }
        if (version == 1) {
            migrate_v1_to_v2(db);
            version = 2;
        }
        if (version == 2) {
            migrate_v2_to_v3(db);
            version = 3;
        }
        if (version == 3) {
            migrate_v3_to_v4(db);
            version = 4;
        }
        exec(db, "PRAGMA user_version = " + std::to_string(version));
        exec(db, "COMMIT");
    } catch (...) {
        sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

} // namespace detail
} // namespace cp::catalog
