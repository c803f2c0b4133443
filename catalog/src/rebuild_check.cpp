#include "clusterplan/catalog/rebuild_check.h"

#include "clusterplan/catalog/catalog.h"

#include <map>
#include <set>
#include <sstream>
#include <system_error>

namespace cp::catalog {
namespace {

// Catalog::dump() split into table -> rows; `meta` (creation time) is not user data.
std::map<std::string, std::multiset<std::string>> rows_by_table(const std::string& dump) {
    std::map<std::string, std::multiset<std::string>> out;
    std::istringstream in(dump);
    std::string table;
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("## ", 0) == 0)
            table = line.substr(3);
        else if (!table.empty() && table != "meta")
            out[table].insert(line);
    }
    return out;
}

} // namespace

std::string rows_beyond_snapshot(const std::filesystem::path& database) {
    std::error_code ec;
    if (!std::filesystem::exists(database, ec)) return {};
    std::string current;
    try {
        current = Catalog(database).dump();
    } catch (const CatalogError&) {
        return {}; // damaged: what rebuild is for
    }
    const auto mine = rows_by_table(current);
    const auto fresh = rows_by_table(Catalog(":memory:").dump());
    std::string out;
    std::size_t listed = 0;
    for (const auto& [table, rows] : mine) {
        const auto it = fresh.find(table);
        std::size_t extra = 0;
        for (const auto& row : rows)
            if (it == fresh.end() || it->second.count(row) == 0) ++extra;
        if (extra == 0) continue;
        out += (listed++ ? ", " : "") + std::to_string(extra) + " rows of " + table;
    }
    return out;
}

} // namespace cp::catalog
