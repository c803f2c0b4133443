// Thin RAII helpers over the SQLite C API, private to the catalog library.
#pragma once

#include <cstdint>
#include <optional>
#include <sqlite3.h>
#include <string>
#include <string_view>

namespace cp::catalog::detail {

// Throws CatalogError with the SQLite message, prefixed by `what`.
[[noreturn]] void throw_sqlite(sqlite3* db, const std::string& what);
void exec(sqlite3* db, std::string_view sql);

class Stmt {
public:
    Stmt(sqlite3* db, std::string_view sql);
    ~Stmt();
    Stmt(const Stmt&) = delete;
    Stmt& operator=(const Stmt&) = delete;

    Stmt& bind(int index, double value);
    Stmt& bind(int index, std::int64_t value);
    Stmt& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
    Stmt& bind(int index, std::string_view value);
    Stmt& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
    Stmt& bind(int index, const std::string& value) { return bind(index, std::string_view(value)); }
    Stmt& bind(int index, const std::optional<double>& value);
    Stmt& bind(int index, const std::optional<int>& value);
    Stmt& bind(int index, const std::optional<bool>& value);
    Stmt& bind_null(int index);
    // Empty text binds NULL (unknown stays unknown).
    Stmt& bind_text_or_null(int index, std::string_view value);

    bool step(); // true while a row is available
    void run();  // step to completion, then reset for reuse
    void reset();

    bool is_null(int col) const;
    double get_double(int col) const;
    std::int64_t get_int(int col) const;
    std::string get_text(int col) const; // NULL -> ""
    std::optional<double> get_opt_double(int col) const;
    std::optional<int> get_opt_int(int col) const;

private:
    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
};

} // namespace cp::catalog::detail
