// Importers: real-format fixtures update prices; malformed files are rejected with a message
// naming file, record and field, and leave the database exactly as before.
#include "clusterplan/catalog/catalog.h"
#include "clusterplan/catalog/importers.h"
#include "test_helpers.h"
#include "tolerance.h"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace cp::catalog;
using cp::test::catalog_fixture;
using cp::test::TempDir;

namespace {

const PriceRow* find_price(const std::vector<PriceRow>& rows, const std::string& region,
                           const std::string& zone, const std::string& kind) {
    for (const auto& r : rows)
        if (r.region == region && r.zone == zone && r.kind == kind) return &r;
    return nullptr;
}

std::string import_error(Catalog& cat, const std::string& fixture,
                         std::optional<ImportFormat> format = std::nullopt) {
    ImportOptions opts;
    opts.format = format;
    try {
        import_file(cat, catalog_fixture(fixture), opts);
    } catch (const ImportError& e) {
        return e.what();
    }
    return "(no error)";
}

} // namespace

TEST_CASE("describe-spot-price-history import sets per-zone spot prices", "[catalog][import]") {
    TempDir dir;
    Catalog cat(dir / "c.sqlite");
    const auto report = import_file(cat, catalog_fixture("spot_history_us_east_1.json"));
    CHECK(report.format == ImportFormat::aws_spot_history); // detected
    CHECK(report.records_read == 9);
    CHECK(report.skipped == 1); // the SUSE row
    CHECK(report.prices_written == 8);

    const auto current = cat.prices("p4d.24xlarge", true);
    const auto* a = find_price(current, "us-east-1", "us-east-1a", "spot");
    REQUIRE(a);
    CHECK_REL(a->usd_per_hour, 9.4127, 1e-12); // the newer of the two 1a prices
    CHECK(a->as_of == "2025-11-03T14:05:31Z");
    CHECK(a->source.find("describe-spot-price-history") != std::string::npos);
    CHECK_REL(find_price(current, "us-east-1", "us-east-1b", "spot")->usd_per_hour, 7.9604, 1e-12);
    CHECK_REL(find_price(current, "us-west-2", "us-west-2b", "spot")->usd_per_hour, 8.662, 1e-12);
    // The seed's region-wide min/max give way to the per-zone prices.
    CHECK_FALSE(find_price(current, "us-east-1", "", "spot"));
    // History is kept.
    const auto all = cat.prices("p4d.24xlarge", false);
    CHECK(std::count_if(all.begin(), all.end(),
                        [](const PriceRow& r) { return r.zone == "us-east-1a"; }) == 2);

    const auto p4d = cat.instance("p4d.24xlarge");
    CHECK_REL(p4d->spot_usd_per_hour_min.value(), 7.9604, 1e-12);
    CHECK_REL(p4d->spot_usd_per_hour_max.value(), 11.0288, 1e-12);
    CHECK(p4d->spot_as_of == "2025-11-03T14:05:31Z");
    CHECK_REL(p4d->on_demand_usd_per_hour.value(), 21.957642, 1e-12); // untouched
    // The middle zone's (1a) median over the history, not the cheapest zone (1b, 7.9604).
    CHECK_REL(cat.node_spec("p4d.24xlarge")->usd_per_node_hour_spot, 9.8331, 1e-12);
    CHECK_REL(cat.node_spec("p4d.24xlarge", "us-west-2")->usd_per_node_hour_spot, 8.662, 1e-12);

    // Importing the same file again changes nothing but row ids.
    import_file(cat, catalog_fixture("spot_history_us_east_1.json"));
    CHECK(cat.prices("p4d.24xlarge", false).size() == all.size());
}

TEST_CASE("malformed spot-history files are rejected and change nothing", "[catalog][import]") {
    TempDir dir;
    Catalog cat(dir / "c.sqlite");
    const std::string before = cat.dump();
    struct Case {
        const char* file;
        const char* expect; // part of the message
    };
    const Case cases[] = {
        {"spot_history_bad_json.json", "is not valid JSON (malformed at line 24"},
        {"spot_history_truncated.json", "truncated"},
        {"spot_history_negative_price.json", "record 6 of SpotPriceHistory, field 'SpotPrice'"},
        {"spot_history_non_numeric_price.json", "field 'SpotPrice': '11.02x8' is not a number"},
        {"spot_history_unknown_type.json",
         "record 7 of SpotPriceHistory, field 'InstanceType': 'p9x.96xlarge' is not an "
         "instance type in the catalog"},
        {"spot_history_bad_timestamp.json",
         "record 8 of SpotPriceHistory, field 'Timestamp': '2025-13-03T09:30:12+00:00' is not an "
         "ISO 8601 timestamp"},
    };
    for (const auto& c : cases) {
        INFO(c.file);
        const std::string msg = import_error(cat, c.file, ImportFormat::aws_spot_history);
        CHECK_THAT(msg, Catch::Contains(c.file));
        CHECK_THAT(msg, Catch::Contains(c.expect));
        CHECK(msg.find('\n') == std::string::npos); // one sentence
        CHECK(cat.dump() == before);
    }
    CHECK(cat.integrity_check() == "ok");
}

TEST_CASE("Spot Advisor import stores buckets and savings for catalog types", "[catalog][import]") {
    TempDir dir;
    Catalog cat(dir / "c.sqlite");
    ImportOptions opts;
    opts.as_of = "2025-11-05";
    const auto report = import_file(cat, catalog_fixture("spot_advisor.json"), opts);
    CHECK(report.format == ImportFormat::spot_advisor);
    CHECK(report.records_read == 9);
    CHECK(report.advisor_rows_written == 6);
    CHECK(report.skipped == 3); // m5.large: us-east-1 Linux and Windows, us-west-2
    const auto rows = cat.spot_advisor("p4d.24xlarge");
    REQUIRE(rows.size() == 2);
    CHECK(rows[0].region == "us-east-1");
    CHECK(rows[0].interruption_bucket == 4);
    CHECK(rows[0].interruption_label == ">20%");
    CHECK_REL(rows[0].savings_pct.value(), 71.0, 1e-12);
    CHECK(rows[0].as_of == "2025-11-05");
    CHECK(cat.instance("p4d.24xlarge")->interruption_bucket == 4);
    CHECK(cat.instance("p4d.24xlarge", "us-west-2")->interruption_bucket == 3);
    CHECK(cat.node_spec("g5.48xlarge")->spot_interruption_bucket == 2); // Linux, not Windows

    const std::string before = cat.dump();
    const std::string msg = import_error(cat, "spot_advisor_bad_bucket.json");
    CHECK_THAT(msg, Catch::Contains("spot_advisor.us-east-1.Linux.g5.12xlarge, field 'r'"));
    CHECK(cat.dump() == before);
}

TEST_CASE("SkyPilot vms.csv import", "[catalog][import]") {
    TempDir dir;
    Catalog cat(dir / "c.sqlite");
    ImportOptions opts;
    opts.as_of = "2025-11-06";
    const auto report = import_file(cat, catalog_fixture("skypilot_vms.csv"), opts);
    CHECK(report.format == ImportFormat::skypilot);
    CHECK(report.records_read == 7);
    CHECK(report.skipped == 1); // m5.large
    const auto eu = cat.instance("p4d.24xlarge", "eu-west-1");
    CHECK_REL(eu->on_demand_usd_per_hour.value(), 24.15, 1e-12);
    CHECK_REL(eu->spot_usd_per_hour_min.value(), 9.339, 1e-12);
    CHECK(eu->on_demand_as_of == "2025-11-06");
    const auto us = cat.instance("p4d.24xlarge");
    CHECK_REL(us->spot_usd_per_hour_min.value(), 7.1126, 1e-12); // zone IDs use1-az2/az4
    CHECK_REL(us->spot_usd_per_hour_max.value(), 8.0431, 1e-12);
    // The newer on-demand row wins over the seed's v8 snapshot.
    CHECK(us->on_demand_as_of == "2025-11-06");

    const std::string before = cat.dump();
    const std::string msg = import_error(cat, "skypilot_vms_negative_price.csv");
    CHECK_THAT(msg, Catch::Contains("record 6 (line 7), field 'SpotPrice': '-4.9020' is negative"));
    CHECK(cat.dump() == before);
}

TEST_CASE("AWS price-list CSV import keeps on-demand Linux shared used rows", "[catalog][import]") {
    TempDir dir;
    Catalog cat(dir / "c.sqlite");
    const auto report = import_file(cat, catalog_fixture("aws_price_list_ec2.csv"));
    CHECK(report.format == ImportFormat::aws_price_list);
    CHECK(report.records_read == 9);
    CHECK(report.prices_written == 3);
    CHECK(report.skipped == 6);
    const auto p4d = cat.instance("p4d.24xlarge");
    CHECK_REL(p4d->on_demand_usd_per_hour.value(), 21.957642, 1e-12);
    CHECK(p4d->on_demand_as_of == "2025-11-04T21:17:05Z"); // the Publication Date
    CHECK_REL(cat.instance("p4d.24xlarge", "eu-west-1")->on_demand_usd_per_hour.value(), 26.63,
              1e-12);
    CHECK_REL(cat.instance("g5.48xlarge")->on_demand_usd_per_hour.value(), 16.288, 1e-12);
    // The seed's older on-demand prices stay as history.
    const auto all = cat.prices("p4d.24xlarge");
    CHECK(std::count_if(all.begin(), all.end(), [](const PriceRow& r) {
              return r.kind == "on_demand" && r.region == "us-east-1";
          }) == 3);

    const std::string before = cat.dump();
    const std::string msg = import_error(cat, "aws_price_list_bad_price.csv");
    CHECK_THAT(msg, Catch::Contains("record 7 (line 13), field 'PricePerUnit': '16.28.80' is "
                                    "not a number"));
    CHECK(cat.dump() == before);
}

TEST_CASE("our CSV export round-trips", "[catalog][import][export]") {
    TempDir dir;
    Catalog a(dir / "a.sqlite");
    import_file(a, catalog_fixture("spot_history_us_east_1.json"));
    ImportOptions opts;
    opts.as_of = "2025-11-05";
    import_file(a, catalog_fixture("spot_advisor.json"), opts);
    export_csv(a, dir / "a.csv");
    CHECK(detect_format(dir / "a.csv") == ImportFormat::csv);

    Catalog b(dir / "b.sqlite");
    const auto report = import_file(b, dir / "a.csv");
    CHECK(report.format == ImportFormat::csv);
    CHECK(report.advisor_rows_written == 6);
    export_csv(b, dir / "b.csv");
    CHECK(cp::test::read_text(dir / "a.csv") == cp::test::read_text(dir / "b.csv"));
    CHECK(b.instance("p4d.24xlarge")->spot_usd_per_hour_min ==
          a.instance("p4d.24xlarge")->spot_usd_per_hour_min);
    CHECK(b.spot_advisor().size() == a.spot_advisor().size());

    // A damaged export is rejected like any other file.
    std::string text = cp::test::read_text(dir / "a.csv");
    text.replace(text.find("us-east-1a"), 10, "nowhere-1a");
    text.replace(text.find(",us-east-1,"), 11, ",not a region,");
    cp::test::write_text(dir / "bad.csv", text);
    const std::string before = b.dump();
    CHECK_THROWS_AS(import_file(b, dir / "bad.csv"), ImportError);
    CHECK(b.dump() == before);
}

TEST_CASE("format detection and unreadable files", "[catalog][import]") {
    TempDir dir;
    CHECK(detect_format(catalog_fixture("spot_advisor.json")) == ImportFormat::spot_advisor);
    CHECK(detect_format(catalog_fixture("skypilot_vms.csv")) == ImportFormat::skypilot);
    cp::test::write_text(dir / "other.txt", "hello, world\n1,2\n");
    CHECK_THROWS_WITH(detect_format(dir / "other.txt"), Catch::Contains("--format"));
    CHECK_THROWS_WITH(detect_format(dir / "missing.json"), Catch::Contains("does not exist"));
    cp::test::write_text(dir / "empty.json", "  \n");
    CHECK_THROWS_WITH(detect_format(dir / "empty.json"), Catch::Contains("is empty"));
    CHECK(parse_format("aws-price-list") == ImportFormat::aws_price_list);
    CHECK_FALSE(parse_format("xml"));
}

TEST_CASE("a large AWS price list streams through and a cut-off one is rejected",
          "[catalog][import]") {
    TempDir dir;
    Catalog cat(dir / "c.sqlite");
    // The real us-east-1 EC2 file has hundreds of thousands of rows: pad the fixture with
    // quoted rows for other types so the header and data span far more than any read buffer.
    const std::string base = cp::test::read_text(catalog_fixture("aws_price_list_ec2.csv"));
    const std::size_t last_row = base.rfind("\"H2N4MAV9P3YF5FTB\"");
    REQUIRE(last_row != std::string::npos);
    const std::string filler = base.substr(last_row, base.find('\n', last_row) + 1 - last_row);
    std::string big = base;
    for (int i = 0; i < 5000; ++i)
        big += filler;
    cp::test::write_text(dir / "big.csv", big);
    const auto report = import_file(cat, dir / "big.csv");
    CHECK(report.records_read == 9 + 5000);
    CHECK(report.prices_written == 3);
    CHECK_REL(cat.instance("g5.48xlarge")->on_demand_usd_per_hour.value(), 16.288, 1e-12);

    // Cut inside a quoted field, as an interrupted download would.
    Catalog fresh(dir / "d.sqlite");
    const std::string before = fresh.dump();
    cp::test::write_text(dir / "cut.csv", big.substr(0, big.size() - 40));
    try {
        import_file(fresh, dir / "cut.csv");
        FAIL("a truncated price list was accepted");
    } catch (const ImportError& e) {
        CHECK_THAT(e.what(), Catch::Contains("cut.csv"));
        CHECK_THAT(e.what(), Catch::Contains("truncated"));
    }
    CHECK(fresh.dump() == before);
}

TEST_CASE("spot-history timestamps: SDK and CLI forms, offsets, impossible and future dates",
          "[catalog][import]") {
    TempDir dir;
    Catalog cat(dir / "c.sqlite");
    auto doc = [](const std::string& stamp, const std::string& zone) {
        return "{\"SpotPriceHistory\": [{\"AvailabilityZone\": \"" + zone +
               "\", \"InstanceType\": \"g5.48xlarge\", \"ProductDescription\": \"Linux/UNIX\", "
               "\"SpotPrice\": \"4.5\", \"Timestamp\": \"" +
               stamp + "\"}]}";
    };
    const std::pair<const char*, const char*> good[] = {
        {"2025-11-03T14:05:31.000Z", "2025-11-03T14:05:31Z"},  // SDK / CLI v1
        {"2025-11-03T16:05:31+02:00", "2025-11-03T14:05:31Z"}, // offset normalised to UTC
        {"2025-11-03T00:30:00-01:00", "2025-11-03T01:30:00Z"},
        {"2024-02-29T23:59:59+00:00", "2024-02-29T23:59:59Z"}, // leap day
    };
    for (const auto& [stamp, stored] : good) {
        INFO(stamp);
        cp::test::write_text(dir / "t.json", doc(stamp, "us-east-1b"));
        import_file(cat, dir / "t.json");
        bool found = false;
        for (const auto& p : cat.prices("g5.48xlarge"))
            found = found || (p.zone == "us-east-1b" && p.as_of == stored);
        CHECK(found);
    }
    const std::pair<const char*, const char*> bad[] = {
        {"2025-02-29T00:00:00Z", "is not an ISO 8601 timestamp"}, // not a leap year
        {"2025-11-03T24:00:00Z", "is not an ISO 8601 timestamp"},
        {"11/03/2025 14:05", "is not an ISO 8601 timestamp"},
        {"2025-11-03T14:05:31+0200", "is not an ISO 8601 timestamp"},
        {"2999-01-01T00:00:00Z", "lies in the future"},
    };
    const std::string before = cat.dump();
    for (const auto& [stamp, reason] : bad) {
        INFO(stamp);
        cp::test::write_text(dir / "t.json", doc(stamp, "us-east-1c"));
        CHECK_THROWS_WITH(import_file(cat, dir / "t.json"),
                          Catch::Contains("field 'Timestamp'") && Catch::Contains(reason));
    }
    // Local Zones belong to their parent region; anything else is not a zone.
    cp::test::write_text(dir / "t.json", doc("2025-11-03T14:05:31Z", "us-east-1-bos-1a"));
    CHECK_NOTHROW(import_file(cat, dir / "t.json"));
    CHECK(cat.prices("g5.48xlarge", true).front().region == "us-east-1");
    cp::test::write_text(dir / "t.json", doc("2025-11-03T14:05:31Z", "moon-base-a"));
    CHECK_THROWS_WITH(import_file(cat, dir / "t.json"),
                      Catch::Contains("field 'AvailabilityZone'"));
}
