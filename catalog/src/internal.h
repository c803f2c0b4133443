// Declarations shared between the catalog's translation units (not installed).
#pragma once

#include <filesystem>
#include <sqlite3.h>

namespace cp::catalog::detail {

// Brings the schema to current_schema_version(), creating and seeding an empty file.
void migrate(sqlite3* db, const std::filesystem::path& path);
// Loads the embedded CSV snapshot (accelerators, instance types, us-east-1 prices).
void load_snapshot(sqlite3* db);
// Schema 2: wider price kinds (Capacity Blocks, reservations), estimate marks on accelerator
// figures, and the bundled estimates and purchase prices for catalogs made before them.
void migrate_v1_to_v2(sqlite3* db);
// Seed accelerator figures into unknown (NULL) cells and the seed's estimate marks.
void apply_accelerator_estimates(sqlite3* db);
// Schema 3: refresh the bundled facts an older catalog was seeded with (schema_v3.cpp).
void migrate_v2_to_v3(sqlite3* db);
// Instance interconnect texts (no importer writes them) set to the bundled ones.
void apply_interconnect_texts(sqlite3* db);
// Schema 4: the interconnect texts again (g5.48xlarge's GPUs on two CPU sockets).
void migrate_v3_to_v4(sqlite3* db);

} // namespace cp::catalog::detail
