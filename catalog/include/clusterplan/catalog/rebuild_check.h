// What `catalog rebuild` would set aside: rows the user added (imports, calibrations, saved
// scenarios) that a catalog fresh from the bundled snapshot does not have. A healthy catalog with
// such rows is only rebuilt with --force.
#pragma once

#include <filesystem>
#include <string>

namespace cp::catalog {

// "14 rows of prices and 1 of calibrations", or "" when the file is missing, damaged (a rebuild
// is then the way out) or holds nothing beyond the snapshot.
std::string rows_beyond_snapshot(const std::filesystem::path& database);

} // namespace cp::catalog
