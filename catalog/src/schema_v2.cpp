// Migration to schema 2 (see internal.h). Runs inside migrate()'s transaction: a failure leaves
// the catalog at version 1. User rows (prices, Spot Advisor, calibrations, scenarios) are
// copied forward, never dropped.
#include "catalog_embedded.h"
#include "internal.h"
#include "schema_sql.h"
#include "seed_table.h"
#include "sqlite_util.h"

#include <string>
#include <string_view>

namespace cp::catalog::detail {
namespace {

// The price kinds of schema 2: SQLite cannot widen a CHECK in place, so the table is rebuilt.
constexpr const char* kPricesV2 = R"sql(
DROP VIEW current_prices;
CREATE TABLE prices_v2(
  id INTEGER PRIMARY KEY,
  instance_type TEXT NOT NULL REFERENCES instance_types(instance_type) ON DELETE CASCADE,
  region TEXT NOT NULL,
  zone TEXT NOT NULL DEFAULT '',
  kind TEXT NOT NULL CHECK(kind IN ('on_demand', 'spot', 'capacity_block', 'reserved_1y',
                                    'reserved_3y')),
  usd_per_hour REAL NOT NULL CHECK(usd_per_hour >= 0),
  as_of TEXT NOT NULL,
  source TEXT NOT NULL,
  note TEXT NOT NULL DEFAULT '',
  UNIQUE(instance_type, region, zone, kind, as_of, note)
);
INSERT INTO prices_v2(id, instance_type, region, zone, kind, usd_per_hour, as_of, source, note)
  SELECT id, instance_type, region, zone, kind, usd_per_hour, as_of, source, note FROM prices;
DROP TABLE prices;
ALTER TABLE prices_v2 RENAME TO prices;
CREATE INDEX prices_by_key ON prices(instance_type, region, kind, zone, as_of);
ALTER TABLE accelerators ADD COLUMN estimated_fields TEXT;
ALTER TABLE accelerators ADD COLUMN estimate_source TEXT;
)sql";

} // namespace

// Seed figures fill only what is still unknown (NULL); the estimate marks and their source
// are set for the rows the seed marks.
void apply_accelerator_estimates(sqlite3* db) {
    const Table t("accelerators.csv", embedded::accelerators_csv);
    const std::pair<const char*, const char*> numeric[] = {
        {"memory_gib", "memory_gib"},
        {"mem_bw_gb_s", "hbm_gbytes_per_s"},
        {"fp32_tflops", "fp32_tflops"},
        {"tf32_tflops_dense", "tf32_tflops"},
        {"fp16_bf16_tflops_dense", "fp16_tflops"},
        {"fp8_tflops_dense", "fp8_tflops"},
        {"int8_tops_dense", "int8_tops"},
        {"link_gb_s_per_device", "link_gbytes_per_s"},
        {"tdp_w", "tdp_w"}};
    const std::pair<const char*, const char*> text[] = {{"memory_type", "memory_type"},
                                                        {"form_factor", "form_factor"},
                                                        {"intra_node_link", "intra_node_link"},
                                                        {"host_link", "host_link"},
                                                        {"sparse_note", "sparse_note"}};
    for (std::size_t r = 0; r < t.size(); ++r) {
        const std::string& id = t.cell(r, "id");
        const std::string& marks = t.cell(r, "estimated_fields");
        if (marks.empty()) continue;
        for (const auto& [column, field] : numeric) {
            if (lacks_fp16(id) && std::string_view(field) == "fp16_tflops") continue;
            Stmt u(db, std::string("UPDATE accelerators SET ") + field + " = coalesce(" + field +
                           ", ?1) WHERE id = ?2");
            u.bind(1, t.number(r, column)).bind(2, id).run();
        }
        if (!lacks_bf16(id)) {
            Stmt u(db,
                   "UPDATE accelerators SET bf16_tflops = coalesce(bf16_tflops, ?1) WHERE id = ?2");
            u.bind(1, t.number(r, "fp16_bf16_tflops_dense")).bind(2, id).run();
        }
        for (const auto& [column, field] : text) {
            Stmt u(db, std::string("UPDATE accelerators SET ") + field + " = coalesce(" + field +
                           ", ?1) WHERE id = ?2");
            u.bind_text_or_null(1, t.cell(r, column)).bind(2, id).run();
        }
        Stmt u(db,
               "UPDATE accelerators SET estimated_fields = ?1, estimate_source = ?2, notes = ?3, "
               "source = ?4 WHERE id = ?5");
        u.bind(1, marks)
            .bind_text_or_null(2, t.cell(r, "estimate_source"))
            .bind_text_or_null(3, t.cell(r, "notes"))
            .bind_text_or_null(4, t.cell(r, "source"))
            .bind(5, id)
            .run();
    }
    const Table inst("instances.csv", embedded::instances_csv);
    Stmt u(db, "UPDATE instance_types SET accelerator_memory_gib_each = "
               "coalesce(accelerator_memory_gib_each, ?1) WHERE instance_type = ?2");
    for (std::size_t r = 0; r < inst.size(); ++r)
        u.bind(1, inst.number(r, "accelerator_mem_gib_each"))
            .bind(2, inst.cell(r, "instance_type"))
            .run();
}

// Prices the bundled snapshot carries beyond us-east-1 on demand and spot: other regions'
// figures and Capacity Block rates (catalog/data/purchase_prices.csv, sources per row).
void load_purchase_prices(sqlite3* db) {
    const Table t("purchase_prices.csv", embedded::purchase_prices_csv);
    Stmt ins(db,
             "INSERT OR IGNORE INTO prices(instance_type, region, zone, kind, usd_per_hour, as_of, "
             "source, note) SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8 WHERE EXISTS (SELECT 1 FROM "
             "instance_types WHERE instance_type = ?1)");
    for (std::size_t r = 0; r < t.size(); ++r) {
        const auto price = t.number(r, "usd_per_hour");
        if (!price)
            throw CatalogError("the bundled purchase_prices.csv has a row without usd_per_hour.");
        ins.bind(1, t.cell(r, "instance_type"))
            .bind(2, t.cell(r, "region"))
            .bind(3, t.cell(r, "zone"))
            .bind(4, t.cell(r, "kind"))
            .bind(5, *price)
            .bind(6, t.cell(r, "as_of"))
            .bind(7, t.cell(r, "source"))
            .bind(8, t.cell(r, "note"))
            .run();
    }
}

void migrate_v1_to_v2(sqlite3* db) {
    exec(db, kPricesV2);
    exec(db, kCurrentPricesView);
    apply_accelerator_estimates(db);
    load_purchase_prices(db);
}

} // namespace cp::catalog::detail
