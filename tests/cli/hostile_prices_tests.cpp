// Prices that would win every ranking or shadow every real import: future dates (as_of 2999),
// $0, denormal, -0.0 and DBL_MAX-sized prices; and text that a spreadsheet runs as a formula when
// the catalog is exported. Imports refuse the first (exit 2, database unchanged); the export
// writes the second as text.
#include "bad_input_support.h"

#include <sqlite3.h>

namespace {

using namespace cp::test;
namespace fs = std::filesystem;

const std::string kCorpus = "tests/fuzz/corpus/";
const std::string kOwnRow = ",13.10904,,,2025-08,";

} // namespace

TEST_CASE("future-dated prices are refused by every importer", "[cli][bad-input][prices]") {
    Sandbox box;
    REQUIRE(run_cli({"catalog", "list"}).code == 0);
    const std::string own = source_file(kCorpus + "catalog_csv/export-sample.csv");
    const std::string list = source_file(kCorpus + "catalog_aws_price_list/price-list-sample.csv");
    const std::string history = source_file("tests/data/catalog/spot_history_us_east_1.json");
    expect_rejected(box,
                    {"own CSV as_of 2999",
                     "future.csv",
                     with(own, kOwnRow, ",13.10904,,,2999-01-01,"),
                     {"as_of", "future"}},
                    {"catalog", "import", "{file}", "--format", "csv"});
    expect_rejected(box,
                    {"price list published 2999",
                     "future-list.csv",
                     with(list, "\"2025-06-01T18:52:43Z\"", "\"2999-06-01T18:52:43Z\""),
                     {"Publication Date", "future"}},
                    {"catalog", "import", "{file}", "--format", "aws-price-list"});
    expect_rejected(
        box,
        {"spot history in 2999",
         "future-history.json",
         with(history, "\"2025-11-03T14:05:31+00:00\"", "\"2999-11-03T14:05:31+00:00\""),
         {"Timestamp", "future"}},
        {"catalog", "import", "{file}"});
    // --as-of stamps undated sources: a future stamp is refused the same way.
    const fs::path vms =
        box.write("vms.csv", source_file(kCorpus + "catalog_skypilot/vms-sample.csv"));
    const std::string before = box.stored_data();
    const CliResult r = run_cli(
        {"catalog", "import", vms.string(), "--format", "skypilot", "--as-of", "2999-01-01"});
    INFO(r.err);
    CHECK(r.code == 2);
    CHECK(r.err.find("future") != std::string::npos);
    CHECK(box.stored_data() == before);
}

TEST_CASE("zero, denormal, negative-zero and huge prices are refused", "[cli][bad-input][prices]") {
    Sandbox box;
    REQUIRE(run_cli({"catalog", "list"}).code == 0);
    const std::string own = source_file(kCorpus + "catalog_csv/export-sample.csv");
    const std::string vms = source_file(kCorpus + "catalog_skypilot/vms-sample.csv");
    const std::string list = source_file(kCorpus + "catalog_aws_price_list/price-list-sample.csv");
    const std::string history = source_file("tests/data/catalog/spot_history_us_east_1.json");
    for (const std::string price : {"0", "-0.0", "4.9e-324", "1e308", "1e20", "0.00001"}) {
        expect_rejected(box,
                        {"own CSV price " + price,
                         "price.csv",
                         with(own, kOwnRow, "," + price + ",,,2025-08,"),
                         {"usd_per_hour"}},
                        {"catalog", "import", "{file}", "--format", "csv"});
        expect_rejected(box,
                        {"spot history price " + price,
                         "price.json",
                         with(history, "\"9.412700\"", "\"" + price + "\""),
                         {"SpotPrice"}},
                        {"catalog", "import", "{file}"});
    }
    // SkyPilot and the AWS price list use $0 for "not offered" (skipped); the rest is refused.
    for (const std::string price : {"4.9e-324", "1e308", "1e20", "0.00001"}) {
        expect_rejected(box,
                        {"vms.csv price " + price,
                         "vms.csv",
                         with(vms, ",21.96,9.4127,", "," + price + ",9.4127,"),
                         {"Price"}},
                        {"catalog", "import", "{file}", "--format", "skypilot"});
        expect_rejected(box,
                        {"price list price " + price,
                         "list.csv",
                         with(list, "\"21.9600000000\"", "\"" + price + "\""),
                         {"PricePerUnit"}},
                        {"catalog", "import", "{file}", "--format", "aws-price-list"});
    }
}

TEST_CASE("catalog export writes formula-looking text as text", "[cli][bad-input][prices]") {
    Sandbox box;
    REQUIRE(run_cli({"catalog", "list"}).code == 0);
    {
        // A row as an older version (or another tool) may have stored it.
        sqlite3* db = nullptr;
        REQUIRE(sqlite3_open(box.database().c_str(), &db) == SQLITE_OK);
        const char* sql = "INSERT INTO prices(instance_type, region, zone, kind, usd_per_hour, "
                          "as_of, source, note) VALUES "
                          "('p4d.24xlarge', 'us-east-1', '@SUM(A1)', 'spot', 9.5, '2025-08', "
                          "'=cmd|'' /C calc''!A0', '+1+2');"
                          "INSERT INTO spot_advisor(instance_type, region, os, "
                          "interruption_bucket, savings_pct, as_of, source) "
                          "VALUES ('p4d.24xlarge', 'us-east-1', '-2+3', 1, 50, '2025-08', "
                          "'=HYPERLINK(\"http://x\")');";
        REQUIRE(sqlite3_exec(db, sql, nullptr, nullptr, nullptr) == SQLITE_OK);
        sqlite3_close(db);
    }
    const fs::path out = box.files_dir() / "export.csv";
    const CliResult r = run_cli({"catalog", "export", out.string()});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const std::string csv = read_bytes(out);
    for (const std::string cell : {"'=cmd|' /C calc'!A0", "'@SUM(A1)", "'+1+2", "'-2+3",
                                   "\"'=HYPERLINK(\"\"http://x\"\")\""})
        CHECK(csv.find(cell) != std::string::npos);
    for (const std::string raw : {",=cmd", ",@SUM", ",+1+2", ",-2+3", ",=HYPERLINK"})
        CHECK(csv.find(raw) == std::string::npos);
    CHECK(csv.find(",9.5,") != std::string::npos); // numbers stay numbers
}
