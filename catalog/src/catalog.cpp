// Catalog lifetime: locating, opening, validating, migrating and rebuilding the user database,
// plus transactions and the test dump.
#include "clusterplan/catalog/catalog.h"

#include "dates.h"
#include "internal.h"
#include "sqlite_util.h"

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <system_error>
#include <unistd.h>

namespace cp::catalog {

namespace fs = std::filesystem;
using detail::Stmt;

fs::path default_data_dir() {
    if (const char* dir = std::getenv("CLUSTERPLAN_DATA_DIR"); dir && *dir) return fs::path(dir);
    if (const char* xdg = std::getenv("XDG_DATA_HOME"); xdg && *xdg)
        return fs::path(xdg) / "clusterplan";
    if (const char* home = std::getenv("HOME"); home && *home)
        return fs::path(home) / ".local" / "share" / "clusterplan";
    return fs::current_path() / ".clusterplan";
}

fs::path default_database_path() {
    return default_data_dir() / "catalog.sqlite";
}

namespace {

bool is_corruption(int rc) {
    const int primary = rc & 0xff;
    return primary == SQLITE_NOTADB || primary == SQLITE_CORRUPT;
}

// Runs PRAGMA integrity_check / quick_check and joins its rows ("ok" when healthy).
std::string run_check(sqlite3* db, const char* pragma) {
    sqlite3_stmt* raw = nullptr;
    int rc = sqlite3_prepare_v2(db, pragma, -1, &raw, nullptr);
    std::string result;
    while (rc == SQLITE_OK && (rc = sqlite3_step(raw)) == SQLITE_ROW) {
        const auto* text = sqlite3_column_text(raw, 0);
        if (!result.empty()) result += "; ";
        result += text ? reinterpret_cast<const char*>(text) : "";
        rc = SQLITE_OK;
    }
    sqlite3_finalize(raw);
    if (rc != SQLITE_DONE && rc != SQLITE_OK) detail::throw_sqlite(db, "integrity check failed");
    return result;
}

// "file:" URI of `path` (percent-encoded) for a read-only open; `immutable` reads the file as it
// is, without the WAL index a read-only directory cannot hold.
int open_read_only(const fs::path& path, sqlite3** db, bool immutable) {
    std::string uri = "file:";
    for (const unsigned char c : fs::absolute(path).string()) {
        if (std::isalnum(c) || c == '/' || c == '-' || c == '.' || c == '_' || c == '~') {
            uri += static_cast<char>(c);
        } else {
            char buf[4];
            std::snprintf(buf, sizeof buf, "%%%02X", c);
            uri += buf;
        }
    }
    uri += immutable ? "?mode=ro&immutable=1" : "?mode=ro";
    return sqlite3_open_v2(uri.c_str(), db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
}

} // namespace

Catalog::Catalog(const fs::path& path) : path_(path) {
    std::error_code ec;
    if (path.has_parent_path()) fs::create_directories(path.parent_path(), ec);
    if (ec)
        throw CatalogError("cannot create the data directory " + path.parent_path().string() +
                           ": " + ec.message() + ".");
    if (fs::is_directory(path, ec))
        throw CatalogError("the catalog path " + path.string() + " is a directory.");

    // A catalog this user cannot write (another user's, a read-only mount) is opened read-only:
    // it can be listed and planned with; the journal mode is left alone (switching it to WAL needs
    // write access) and writes fail with a sentence saying why (transaction()).
    read_only_ = fs::exists(path, ec) &&
                 (::access(path.c_str(), W_OK) != 0 ||
                  ::access(path.has_parent_path() ? path.parent_path().c_str() : ".", W_OK) != 0);
    int rc = read_only_ ? open_read_only(path, &db_, false)
                        : sqlite3_open_v2(path.string().c_str(), &db_,
                                          SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    auto fail = [&](int code, const std::string& what) {
        const std::string msg = db_ ? sqlite3_errmsg(db_) : "out of memory";
        sqlite3_close_v2(db_);
        db_ = nullptr;
        if (is_corruption(code))
            throw CorruptDatabaseError(path, "the catalog " + path.string() +
                                                 " is damaged or not a database (" + msg + ").");
        throw CatalogError("cannot " + what + " the catalog " + path.string() + ": " + msg + ".");
    };
    if (rc != SQLITE_OK) fail(rc, "open");
    sqlite3_extended_result_codes(db_, 1);
    sqlite3_busy_timeout(db_, 5000);
    // The first read of the header happens here: a garbage file fails with SQLITE_NOTADB.
    if (read_only_) {
        rc = sqlite3_exec(db_, "SELECT count(*) FROM sqlite_master", nullptr, nullptr, nullptr);
        if (rc != SQLITE_OK && !is_corruption(rc)) {
            // A WAL database needs its -shm file, which a read-only directory cannot get: read the
            // file as it is on disk (immutable), as the last committed checkpoint left it.
            sqlite3_close_v2(db_);
            db_ = nullptr;
            rc = open_read_only(path, &db_, true);
            if (rc == SQLITE_OK)
                rc = sqlite3_exec(db_, "SELECT count(*) FROM sqlite_master", nullptr, nullptr,
                                  nullptr);
        }
    } else {
        rc = sqlite3_exec(db_, "PRAGMA journal_mode=WAL", nullptr, nullptr, nullptr);
    }
    if (rc != SQLITE_OK) fail(rc, "open");
    rc = sqlite3_exec(db_,
                      read_only_ ? "PRAGMA foreign_keys=ON"
                                 : "PRAGMA foreign_keys=ON; PRAGMA synchronous=NORMAL",
                      nullptr, nullptr, nullptr);
    if (rc != SQLITE_OK) fail(rc, "configure");
    try {
        // quick_check: the O(N) structural part of integrity_check, cheap enough for every open.
        const std::string check = run_check(db_, "PRAGMA quick_check");
        if (check != "ok")
            throw CorruptDatabaseError(path, "the catalog " + path.string() +
                                                 " failed its integrity check (" +
                                                 check.substr(0, 200) + ").");
        if (read_only_ && schema_version() != current_schema_version())
            throw CatalogError(
                "the catalog " + path.string() + " is read-only and has schema version " +
                std::to_string(schema_version()) + "; this ClusterPlan needs version " +
                std::to_string(current_schema_version()) +
                " (open it once with write access, or set CLUSTERPLAN_DATA_DIR to a directory of "
                "your own).");
        if (!read_only_) detail::migrate(db_, path);
    } catch (const CorruptDatabaseError&) {
        sqlite3_close_v2(db_);
        db_ = nullptr;
        throw;
    } catch (const CatalogError& e) {
        const std::string msg = db_ ? sqlite3_errmsg(db_) : "";
        const int code = db_ ? sqlite3_extended_errcode(db_) : 0;
        sqlite3_close_v2(db_);
        db_ = nullptr;
        if (is_corruption(code))
            throw CorruptDatabaseError(path, "the catalog " + path.string() +
                                                 " is damaged or not a database (" + msg + ").");
        throw;
    } catch (...) {
        sqlite3_close_v2(db_);
        db_ = nullptr;
        throw;
    }
}

Catalog Catalog::open_default() {
    return Catalog(default_database_path());
}

Catalog::Catalog(Catalog&& other) noexcept
    : path_(std::move(other.path_)), db_(other.db_), tx_depth_(other.tx_depth_),
      read_only_(other.read_only_) {
    other.db_ = nullptr;
    other.tx_depth_ = 0;
}

Catalog& Catalog::operator=(Catalog&& other) noexcept {
    if (this != &other) {
        sqlite3_close_v2(db_);
        path_ = std::move(other.path_);
        db_ = other.db_;
        tx_depth_ = other.tx_depth_;
        read_only_ = other.read_only_;
        other.db_ = nullptr;
        other.tx_depth_ = 0;
    }
    return *this;
}

Catalog::~Catalog() {
    sqlite3_close_v2(db_);
}

fs::path Catalog::rebuild_from_snapshot(const fs::path& path) {
    fs::path backup;
    std::error_code ec;
    if (fs::exists(path)) {
        const std::string suffix = ".corrupt-" + detail::now_utc_compact();
        backup = path;
        backup += suffix;
        for (int n = 1; fs::exists(backup); ++n) { // two rebuilds within one second
            backup = path;
            backup += suffix + "-" + std::to_string(n);
        }
        fs::rename(path, backup, ec);
        if (ec)
            throw CatalogError("cannot move the damaged catalog " + path.string() +
                               " aside: " + ec.message() + ".");
        // Keep the journal files with the backup: they may hold committed data.
        for (const char* companion : {"-wal", "-shm"}) {
            fs::path from = path;
            from += companion;
            if (!fs::exists(from)) continue;
            fs::path to = backup;
            to += companion;
            fs::rename(from, to, ec);
            if (ec)
                throw CatalogError("cannot move " + from.string() + " aside: " + ec.message() +
                                   ".");
        }
    }
    Catalog fresh(path);
    return backup;
}

int Catalog::schema_version() const {
    Stmt s(db_, "PRAGMA user_version");
    return s.step() ? static_cast<int>(s.get_int(0)) : 0;
}

void Catalog::exec(std::string_view sql) {
    detail::exec(db_, sql);
}

void Catalog::transaction(const std::function<void()>& body) {
    if (tx_depth_ > 0) { // join the outer transaction; it decides commit or rollback
        ++tx_depth_;
        try {
            body();
        } catch (...) {
            --tx_depth_;
            throw;
        }
        --tx_depth_;
        return;
    }
    if (read_only_)
        throw CatalogError(
            "the catalog " + path_.string() +
            " is read-only (another user's, or on a read-only mount); set CLUSTERPLAN_DATA_DIR "
            "to a directory you can write to keep your own.");
    // IMMEDIATE takes the write lock up front, so a concurrent writer waits (busy timeout)
    // instead of failing halfway through with SQLITE_BUSY on upgrade.
    detail::exec(db_, "BEGIN IMMEDIATE");
    tx_depth_ = 1;
    try {
        body();
        detail::exec(db_, "COMMIT");
        tx_depth_ = 0;
    } catch (...) {
        tx_depth_ = 0;
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
        throw;
    }
}

std::string Catalog::integrity_check() const {
    return run_check(db_, "PRAGMA integrity_check");
}

std::string Catalog::dump() const {
    std::ostringstream out;
    out << "user_version " << schema_version() << "\n";
    std::vector<std::string> tables;
    {
        Stmt s(db_, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE "
                    "'sqlite_%' ORDER BY name");
        while (s.step())
            tables.push_back(s.get_text(0));
    }
    for (const auto& table : tables) {
        std::vector<std::string> columns;
        {
            Stmt s(db_, "SELECT name FROM pragma_table_info(?1) ORDER BY cid");
            s.bind(1, table);
            while (s.step())
                columns.push_back(s.get_text(0));
        }
        std::string select = "SELECT ";
        std::string order;
        for (std::size_t i = 0; i < columns.size(); ++i) {
            const std::string col = "\"" + columns[i] + "\"";
            select += (i ? " || ',' || quote(" : "quote(") + col + ")";
            order += (i ? ", " : "") + col;
        }
        select += " FROM \"" + table + "\" ORDER BY " + order;
        out << "## " << table << "\n";
        Stmt s(db_, select);
        while (s.step())
            out << s.get_text(0) << "\n";
    }
    return out.str();
}

void Catalog::save_scenario(const std::string& name, const std::string& json) {
    if (name.empty()) throw CatalogError("a saved scenario needs a name.");
    transaction([&] {
        Stmt s(db_, "INSERT INTO scenarios(name, json, saved_at) VALUES (?1, ?2, ?3) "
                    "ON CONFLICT(name) DO UPDATE SET json = excluded.json, "
                    "saved_at = excluded.saved_at");
        s.bind(1, name).bind(2, json).bind(3, detail::now_utc_timestamp()).run();
    });
}

std::optional<ScenarioRow> Catalog::scenario(std::string_view name) const {
    Stmt s(db_, "SELECT name, json, saved_at FROM scenarios WHERE name = ?1");
    s.bind(1, name);
    if (!s.step()) return std::nullopt;
    return ScenarioRow{s.get_text(0), s.get_text(1), s.get_text(2)};
}

std::vector<ScenarioRow> Catalog::scenarios() const {
    std::vector<ScenarioRow> rows;
    Stmt s(db_, "SELECT name, json, saved_at FROM scenarios ORDER BY name");
    while (s.step())
        rows.push_back({s.get_text(0), s.get_text(1), s.get_text(2)});
    return rows;
}

bool Catalog::delete_scenario(std::string_view name) {
    bool removed = false;
    transaction([&] {
        Stmt s(db_, "DELETE FROM scenarios WHERE name = ?1");
        s.bind(1, name).run();
        removed = sqlite3_changes(db_) > 0;
    });
    return removed;
}

} // namespace cp::catalog
