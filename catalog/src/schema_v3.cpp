// Migrations to schemas 3 and 4 (see internal.h): a catalog seeded by an older build receives the
// bundled facts added since (Gaudi1's measured-derived BF16 rate and HBM figure, G5/G6 "no GPU
// P2P" interconnect texts). Runs inside migrate()'s transaction. Only seed-owned cells change:
// unknown accelerator figures are filled (a known figure is never overwritten), and instance
// interconnect texts, which no importer writes, take the bundled text. Prices, Spot Advisor
// rows, calibrations and scenarios are not touched.
#include "catalog_embedded.h"
#include "internal.h"
#include "seed_table.h"
#include "sqlite_util.h"

#include <string>

namespace cp::catalog::detail {

void apply_interconnect_texts(sqlite3* db) {
    const Table inst("instances.csv", embedded::instances_csv);
    Stmt u(db, "UPDATE instance_types SET intra_node_interconnect = ?1 WHERE instance_type = ?2");
    for (std::size_t r = 0; r < inst.size(); ++r) {
        const std::string& text = inst.cell(r, "intra_node_interconnect");
        if (text.empty()) continue;
        u.bind(1, text).bind(2, inst.cell(r, "instance_type")).run();
    }
}

void migrate_v2_to_v3(sqlite3* db) {
    apply_accelerator_estimates(db);
    apply_interconnect_texts(db);
}

// Schema 4 changes only seed-owned interconnect texts (the CPU sockets of g5.48xlarge's GPUs).
void migrate_v3_to_v4(sqlite3* db) {
    apply_interconnect_texts(db);
}

} // namespace cp::catalog::detail
