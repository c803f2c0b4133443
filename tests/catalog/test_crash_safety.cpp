// Database safety: an import killed midway (kill -9) or failing halfway leaves no partial rows
// and a healthy file; readers see a consistent snapshot during an import; a damaged file is
// detected at open and can be moved aside and rebuilt without losing it.
#include "clusterplan/catalog/catalog.h"
#include "clusterplan/catalog/importers.h"
#include "test_helpers.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <condition_variable>
#include <csignal>
#include <cstdio>
#include <mutex>
#include <sqlite3.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace cp::catalog;
using cp::test::TempDir;

namespace {

// A describe-spot-price-history document with `n` p4d/g5 records over four zones.
std::string big_spot_history(int n) {
    std::string s = "{\"SpotPriceHistory\": [\n";
    const char* zones[] = {"us-east-1a", "us-east-1b", "us-east-1c", "us-east-1d"};
    for (int i = 0; i < n; ++i) {
        char rec[320];
        std::snprintf(rec, sizeof rec,
                      "%s{\"AvailabilityZone\": \"%s\", \"InstanceType\": \"%s\", "
                      "\"ProductDescription\": \"Linux/UNIX\", \"SpotPrice\": \"%.4f\", "
                      "\"Timestamp\": \"2025-10-%02dT%02d:%02d:00+00:00\"}\n",
                      i ? "," : "", zones[i % 4], i % 2 ? "g5.48xlarge" : "p4d.24xlarge",
                      5.0 + 0.001 * i, 1 + (i / 1440) % 28, (i / 60) % 24, i % 60);
        s += rec;
    }
    return s + "], \"NextToken\": \"\"}\n";
}

} // namespace

TEST_CASE("an import killed with SIGKILL midway leaves the database intact", "[catalog][crash]") {
    TempDir dir;
    const auto db = dir / "c.sqlite";
    const auto file = dir / "big.json";
    cp::test::write_text(file, big_spot_history(4000));
    std::string before;
    {
        Catalog cat(db);
        before = cat.dump();
    }
    int ready[2];
    REQUIRE(pipe(ready) == 0);
    const pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
        close(ready[0]);
        try {
            Catalog cat(db);
            ImportOptions opts;
            opts.on_record = [&](std::size_t i) {
                if (i == 200) { // rows are staged in the open transaction: tell the parent
                    const char c = 'x';
                    if (write(ready[1], &c, 1) != 1) _exit(3);
                }
                if (i >= 200) std::this_thread::sleep_for(std::chrono::milliseconds(5));
            };
            import_file(cat, file, opts);
        } catch (...) {
            _exit(2);
        }
        _exit(0); // not reached in time: the parent kills us first
    }
    close(ready[1]);
    char c = 0;
    REQUIRE(read(ready[0], &c, 1) == 1);
    close(ready[0]);
    REQUIRE(kill(child, SIGKILL) == 0);
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGKILL);

    Catalog after(db); // recovery of the hot WAL happens here
    CHECK(after.integrity_check() == "ok");
    CHECK(after.dump() == before); // no partial rows
    // And the catalog still works: the same import completes now.
    const auto report = import_file(after, file);
    CHECK(report.prices_written == 4000);
    CHECK(after.integrity_check() == "ok");
}

TEST_CASE("a failure injected halfway through an import rolls everything back",
          "[catalog][crash]") {
    TempDir dir;
    Catalog cat(dir / "c.sqlite");
    cp::test::write_text(dir / "h.json", big_spot_history(100));
    const std::string before = cat.dump();
    ImportOptions opts;
    opts.on_record = [](std::size_t i) {
        if (i == 50) throw std::runtime_error("injected failure");
    };
    CHECK_THROWS_WITH(import_file(cat, dir / "h.json", opts), "injected failure");
    CHECK(cat.dump() == before);
    CHECK(cat.integrity_check() == "ok");
    // The connection is usable afterwards (no transaction left open).
    CHECK(import_file(cat, dir / "h.json").prices_written == 100);
}

TEST_CASE("a reader sees the old prices while an import is in progress", "[catalog][crash]") {
    TempDir dir;
    const auto db = dir / "c.sqlite";
    Catalog writer(db);
    Catalog reader(db);
    const auto seed_min = reader.instance("p4d.24xlarge")->spot_usd_per_hour_min;
    REQUIRE(seed_min);

    std::mutex m;
    std::condition_variable cv;
    bool staged = false, release = false;
    ImportOptions opts;
    opts.on_record = [&](std::size_t i) {
        if (i != 3) return;
        std::unique_lock<std::mutex> lock(m);
        staged = true;
        cv.notify_all();
        cv.wait(lock, [&] { return release; });
    };
    std::thread import([&] {
        import_file(writer, cp::test::catalog_fixture("spot_history_us_east_1.json"), opts);
    });
    {
        std::unique_lock<std::mutex> lock(m);
        cv.wait(lock, [&] { return staged; });
    }
    // WAL: the reader is neither blocked nor shown uncommitted rows.
    const auto during = reader.instance("p4d.24xlarge");
    CHECK(during->spot_usd_per_hour_min == seed_min);
    // us-east-1 on demand and spot range, and the bundled Capacity Block rates of two regions.
    CHECK(reader.prices("p4d.24xlarge", true).size() == 5);
    {
        std::lock_guard<std::mutex> lock(m);
        release = true;
    }
    cv.notify_all();
    import.join();
    CHECK(reader.instance("p4d.24xlarge")->spot_usd_per_hour_min != seed_min);
}

TEST_CASE("journal mode, foreign keys and the transaction helper", "[catalog]") {
    TempDir dir;
    Catalog cat(dir / "c.sqlite");
    auto pragma = [&](const char* sql) {
        sqlite3_stmt* s = nullptr;
        REQUIRE(sqlite3_prepare_v2(cat.handle(), sql, -1, &s, nullptr) == SQLITE_OK);
        REQUIRE(sqlite3_step(s) == SQLITE_ROW);
        std::string v = reinterpret_cast<const char*>(sqlite3_column_text(s, 0));
        sqlite3_finalize(s);
        return v;
    };
    CHECK(pragma("PRAGMA journal_mode") == "wal");
    CHECK(pragma("PRAGMA foreign_keys") == "1");
    CHECK(pragma("SELECT count(*) FROM calibrations") == "0");

    // Commit on success, nested calls join the outer transaction, rollback on exception.
    cat.transaction([&] {
        cat.exec("INSERT INTO scenarios VALUES ('a', '{}', '2025-11-01T00:00:00Z')");
        cat.transaction(
            [&] { cat.exec("INSERT INTO scenarios VALUES ('b', '{}', '2025-11-01T00:00:00Z')"); });
    });
    CHECK(cat.scenarios().size() == 2);
    CHECK_THROWS(cat.transaction([&] {
        cat.exec("INSERT INTO scenarios VALUES ('c', '{}', '2025-11-01T00:00:00Z')");
        throw std::runtime_error("no");
    }));
    CHECK(cat.scenarios().size() == 2);
    // A price for a type that does not exist violates the foreign key.
    CHECK_THROWS_AS(cat.exec("INSERT INTO prices(instance_type, region, kind, usd_per_hour, "
                             "as_of, source) VALUES ('nope', 'us-east-1', 'spot', 1, "
                             "'2025-01-01', 'test')"),
                    CatalogError);
}

TEST_CASE("a damaged database is detected and rebuilt without losing the file",
          "[catalog][corrupt]") {
    TempDir dir;
    const auto db = dir / "catalog.sqlite";
    SECTION("not a database at all") {
        cp::test::write_text(db, std::string(8192, 'Z'));
    }
    SECTION("pages overwritten inside a real catalog") {
        { Catalog cat(db); }
        std::string bytes = cp::test::read_text(db);
        REQUIRE(bytes.size() > 16384);
        for (std::size_t i = 4096 + 8; i < bytes.size() - 64; i += 4096)
            bytes.replace(i, 48, std::string(48, '\xFF')); // every page's header area
        cp::test::write_text(db, bytes);
    }
    const std::string damaged = cp::test::read_text(db);
    try {
        Catalog cat(db);
        FAIL("opening a damaged catalog did not throw");
    } catch (const CorruptDatabaseError& e) {
        CHECK(e.path() == db);
        CHECK_THAT(e.what(), Catch::Contains(db.string()));
    }
    const auto backup = Catalog::rebuild_from_snapshot(db);
    REQUIRE_FALSE(backup.empty());
    CHECK(backup.filename().string().rfind("catalog.sqlite.corrupt-", 0) == 0);
    CHECK(cp::test::read_text(backup) == damaged); // the user's bytes are kept
    Catalog fresh(db);
    CHECK(fresh.integrity_check() == "ok");
    CHECK(fresh.instances().size() == 54);
}

TEST_CASE("schema versions: newer files and foreign databases are refused", "[catalog][migrate]") {
    TempDir dir;
    SECTION("a catalog from a newer ClusterPlan") {
        const auto db = dir / "new.sqlite";
        {
            Catalog cat(db);
            cat.exec("PRAGMA user_version = 99");
        }
        CHECK_THROWS_WITH(Catalog(db), Catch::Contains("newer"));
    }
    SECTION("some other application's SQLite file") {
        const auto db = dir / "other.sqlite";
        sqlite3* raw = nullptr;
        REQUIRE(sqlite3_open(db.string().c_str(), &raw) == SQLITE_OK);
        REQUIRE(sqlite3_exec(raw, "CREATE TABLE notes(x TEXT); INSERT INTO notes VALUES ('keep');",
                             nullptr, nullptr, nullptr) == SQLITE_OK);
        sqlite3_close(raw);
        CHECK_THROWS_AS(Catalog(db), CorruptDatabaseError);
        CHECK_THROWS_WITH(Catalog(db), Catch::Contains("not a ClusterPlan catalog"));
    }
    SECTION("reopening the current version keeps user rows") {
        const auto db = dir / "c.sqlite";
        {
            Catalog cat(db);
            import_file(cat, cp::test::catalog_fixture("spot_history_us_east_1.json"));
        }
        Catalog again(db);
        CHECK(again.schema_version() == current_schema_version());
        CHECK(again.prices("p4d.24xlarge", true).size() == 7);
    }
}
