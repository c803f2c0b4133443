#include "sqlite_util.h"

#include "clusterplan/catalog/errors.h"

namespace cp::catalog::detail {

void throw_sqlite(sqlite3* db, const std::string& what) {
    const char* msg = db ? sqlite3_errmsg(db) : "out of memory";
    throw CatalogError(what + ": " + msg + ".");
}

void exec(sqlite3* db, std::string_view sql) {
    char* err = nullptr;
    const std::string text(sql);
    if (sqlite3_exec(db, text.c_str(), nullptr, nullptr, &err) != SQLITE_OK) {
        std::string msg = err ? err : "unknown error";
        sqlite3_free(err);
        throw CatalogError("catalog database statement failed: " + msg + ".");
    }
}

Stmt::Stmt(sqlite3* db, std::string_view sql) : db_(db) {
    if (sqlite3_prepare_v2(db, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) !=
        SQLITE_OK)
        throw_sqlite(db, "cannot prepare catalog query");
}

Stmt::~Stmt() {
    sqlite3_finalize(stmt_);
}

namespace {
void check_bind(sqlite3* db, int rc) {
    if (rc != SQLITE_OK) throw_sqlite(db, "cannot bind query parameter");
}
} // namespace

Stmt& Stmt::bind(int index, double value) {
    check_bind(db_, sqlite3_bind_double(stmt_, index, value));
    return *this;
}
Stmt& Stmt::bind(int index, std::int64_t value) {
    check_bind(db_, sqlite3_bind_int64(stmt_, index, value));
    return *this;
}
Stmt& Stmt::bind(int index, std::string_view value) {
    check_bind(db_, sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()),
                                      SQLITE_TRANSIENT));
    return *this;
}
Stmt& Stmt::bind(int index, const std::optional<double>& value) {
    return value ? bind(index, *value) : bind_null(index);
}
Stmt& Stmt::bind(int index, const std::optional<int>& value) {
    return value ? bind(index, static_cast<std::int64_t>(*value)) : bind_null(index);
}
Stmt& Stmt::bind(int index, const std::optional<bool>& value) {
    return value ? bind(index, static_cast<std::int64_t>(*value ? 1 : 0)) : bind_null(index);
}
Stmt& Stmt::bind_null(int index) {
    check_bind(db_, sqlite3_bind_null(stmt_, index));
    return *this;
}
Stmt& Stmt::bind_text_or_null(int index, std::string_view value) {
    return value.empty() ? bind_null(index) : bind(index, value);
}

bool Stmt::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    throw_sqlite(db_, "catalog query failed");
}

void Stmt::run() {
    while (step()) {
    }
    reset();
}

void Stmt::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

bool Stmt::is_null(int col) const {
    return sqlite3_column_type(stmt_, col) == SQLITE_NULL;
}
double Stmt::get_double(int col) const {
    return sqlite3_column_double(stmt_, col);
}
std::int64_t Stmt::get_int(int col) const {
    return sqlite3_column_int64(stmt_, col);
}
std::string Stmt::get_text(int col) const {
    const auto* p = sqlite3_column_text(stmt_, col);
    if (!p) return {};
    return std::string(reinterpret_cast<const char*>(p),
                       static_cast<std::size_t>(sqlite3_column_bytes(stmt_, col)));
}
std::optional<double> Stmt::get_opt_double(int col) const {
    if (is_null(col)) return std::nullopt;
    return get_double(col);
}
std::optional<int> Stmt::get_opt_int(int col) const {
    if (is_null(col)) return std::nullopt;
    return static_cast<int>(get_int(col));
}

} // namespace cp::catalog::detail
