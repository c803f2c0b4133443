// Error types thrown by the catalog library. Every message is one sentence that names the file
// (and, for imports, the record and field) and the reason, so the CLI can print it as is.
#pragma once

#include <filesystem>
#include <stdexcept>
#include <string>

namespace cp::catalog {

// Any failure of the catalog database (I/O, SQL, locked too long).
class CatalogError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The database file exists but is not a usable SQLite catalog (garbage header, failed
// integrity check, newer schema). The app offers Catalog::rebuild_from_snapshot().
class CorruptDatabaseError : public CatalogError {
public:
    CorruptDatabaseError(std::filesystem::path path, const std::string& message)
        : CatalogError(message), path_(std::move(path)) {}
    const std::filesystem::path& path() const { return path_; }

private:
    std::filesystem::path path_;
};

// A file given to an importer is malformed or refers to unknown things. Nothing was written.
class ImportError : public CatalogError {
public:
    using CatalogError::CatalogError;
};

// A query named an instance type or accelerator the catalog does not hold.
class NotFoundError : public CatalogError {
public:
    using CatalogError::CatalogError;
};

} // namespace cp::catalog
