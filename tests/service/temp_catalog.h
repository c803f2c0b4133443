// A fresh user catalog database (seeded from the bundled snapshot) for each service test.
#pragma once

#include "clusterplan/catalog/catalog.h"

#include <cstdlib>
#include <filesystem>
#include <optional>

namespace cp::test {

// A fresh user database (seeded from the bundled snapshot) for each test.
class TempCatalog {
public:
    TempCatalog() {
        char tmpl[] = "/tmp/cp-service-XXXXXX";
        dir_ = mkdtemp(tmpl);
        catalog_.emplace(dir_ / "catalog.sqlite");
    }
    ~TempCatalog() {
        catalog_.reset();
        std::error_code ec;
        std::filesystem::remove_all(dir_, ec);
    }
    TempCatalog(const TempCatalog&) = delete;
    TempCatalog& operator=(const TempCatalog&) = delete;
    cp::catalog::Catalog& get() { return *catalog_; }

private:
    std::filesystem::path dir_;
    std::optional<cp::catalog::Catalog> catalog_;
};

} // namespace cp::test
