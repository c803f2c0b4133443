// `clusterplan catalog ...` end to end through cp::cli::run: output shapes, exit codes, and the
// database left exactly as before by every rejected file.
#include "cli.h"
#include "cli_sandbox.h"
#include "clusterplan/catalog/catalog.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

fs::path fixture(const std::string& name) {
    return fs::path(CLUSTERPLAN_TEST_DATA_DIR) / "catalog" / name;
}

// Each test gets its own CLUSTERPLAN_DATA_DIR (a Sandbox), removed afterwards.
using DataDir = cp::test::Sandbox;
using Result = cp::test::CliResult;
constexpr auto run = cp::test::run_cli;

} // namespace

TEST_CASE("catalog list --json has the contract fields", "[cli][catalog]") {
    DataDir data;
    const auto r = run({"catalog", "list", "--json"});
    REQUIRE(r.code == 0);
    CHECK(r.err.empty());
    const json rows = json::parse(r.out);
    REQUIRE(rows.is_array());
    CHECK(rows.size() == 54);
    const json* p4d = nullptr;
    const json* g6e = nullptr;
    for (const auto& row : rows) {
        for (const char* key : {"instance_type", "accelerator", "accelerator_count", "vcpus",
                                "memory_gib", "network_gbps", "efa", "on_demand_usd_per_hour",
                                "spot_usd_per_hour_min", "price_as_of", "price_age_days"})
            CHECK(row.contains(key));
        if (row["instance_type"] == "p4d.24xlarge") p4d = &row;
        if (row["instance_type"] == "g6e.2xlarge") g6e = &row;
    }
    REQUIRE(p4d);
    CHECK((*p4d)["accelerator"] == "A100-40GB");
    CHECK((*p4d)["accelerator_count"] == 8);
    CHECK((*p4d)["network_gbps"] == 400.0);
    CHECK((*p4d)["efa"] == true);
    CHECK((*p4d)["on_demand_usd_per_hour"] == 21.957642);
    REQUIRE(g6e);
    CHECK((*g6e)["on_demand_usd_per_hour"].is_null()); // unknown stays null
    CHECK((*g6e)["network_gbps"].is_null());
    CHECK((*g6e)["price_as_of"].is_null());
    CHECK(fs::exists(data.database())); // created on first use in CLUSTERPLAN_DATA_DIR
}

TEST_CASE("catalog list prints a table with dashes for unknowns", "[cli][catalog]") {
    DataDir data;
    const auto r = run({"catalog", "list", "--family", "g5"});
    REQUIRE(r.code == 0);
    CHECK(r.out.rfind("TYPE", 0) == 0);
    CHECK_THAT(r.out, Catch::Contains("g5.48xlarge"));
    CHECK_THAT(r.out, Catch::Contains("PCIe Gen4 (no NVLink; no GPU P2P)"));
    CHECK_THAT(r.out, Catch::Contains("\u2014")); // no interruption data yet
    CHECK_THAT(r.out, Catch::Contains("8 instance types"));
    CHECK_FALSE(r.out.find("p4d") != std::string::npos);

    const auto none = run({"catalog", "list", "--region", "eu-west-1", "--json"});
    REQUIRE(none.code == 0);
    CHECK(json::parse(none.out).empty()); // the seed prices only us-east-1
    const auto bad = run({"catalog", "list", "--family", "zz9"});
    CHECK(bad.code == 2);
    CHECK_THAT(bad.err, Catch::Contains("zz9"));
}

TEST_CASE("importing spot history shows per-zone prices in catalog show", "[cli][catalog]") {
    DataDir data;
    const auto imp = run({"catalog", "import", fixture("spot_history_us_east_1.json").string()});
    REQUIRE(imp.code == 0);
    CHECK_THAT(imp.out, Catch::Contains("8 prices"));

    const auto show = run({"catalog", "show", "p4d.24xlarge"});
    REQUIRE(show.code == 0);
    CHECK_THAT(show.out, Catch::Contains("8 x A100-40GB"));
    CHECK_THAT(show.out, Catch::Contains("EFA yes"));
    for (const char* text :
         {"us-east-1a", "$9.4127", "2025-11-03T14:05:31Z", "us-east-1b", "$7.9604", "us-east-1c",
          "$11.0288", "us-west-2b", "describe-spot-price-history"})
        CHECK_THAT(show.out, Catch::Contains(text));
    CHECK_FALSE(show.out.find("$9.8331") != std::string::npos); // superseded, only in --history
    CHECK_THAT(run({"catalog", "show", "p4d.24xlarge", "--history"}).out,
               Catch::Contains("$9.8331"));

    const json doc = json::parse(run({"catalog", "show", "p4d.24xlarge", "--json"}).out);
    CHECK(doc["instance"]["spot_usd_per_hour_min"] == 7.9604);
    CHECK(doc["accelerator"]["id"] == "A100-40GB");
    CHECK(doc["accelerator"]["dense_tflops"]["bf16"] == 312.0);
    CHECK(doc["accelerator"]["dense_tflops"]["fp8"].is_null());
    bool zone_seen = false, on_demand_seen = false;
    for (const auto& p : doc["prices"]) {
        if (p["zone"] == "us-east-1a") {
            zone_seen = true;
            CHECK(p["usd_per_hour"] == 9.4127);
            CHECK(p["as_of"] == "2025-11-03T14:05:31Z");
        }
        if (p["kind"] == "on_demand") {
            on_demand_seen = true;
            CHECK(p["zone"].is_null());
            CHECK(p["source"].get<std::string>().find("SkyPilot") != std::string::npos);
        }
    }
    CHECK(zone_seen);
    CHECK(on_demand_seen);
}

TEST_CASE("catalog show marks Inferentia as inference-only and G5 as PCIe", "[cli][catalog]") {
    DataDir data;
    const auto inf = run({"catalog", "show", "inf2.48xlarge"});
    REQUIRE(inf.code == 0);
    CHECK_THAT(inf.out, Catch::Contains("inference only"));
    CHECK_THAT(inf.out, Catch::Contains("not a GPU"));
    const json g5 = json::parse(run({"catalog", "show", "g5.48xlarge", "--json"}).out);
    CHECK(g5["instance"]["intra_node_interconnect"] ==
          "PCIe Gen4 (no NVLink; no GPU P2P; GPUs on 2 CPU sockets)");
    CHECK(g5["accelerator"]["inference_only"] == false);
}

TEST_CASE("every malformed file exits 2 with one sentence and leaves the DB unchanged",
          "[cli][catalog]") {
    DataDir data;
    REQUIRE(run({"catalog", "list"}).code == 0); // create the database
    const std::string before = data.stored_data();
    const std::vector<std::vector<std::string>> cases = {
        {"spot_history_bad_json.json"},
        {"spot_history_truncated.json"},
        {"spot_history_negative_price.json"},
        {"spot_history_non_numeric_price.json"},
        {"spot_history_unknown_type.json"},
        {"spot_history_bad_timestamp.json"},
        {"spot_advisor_bad_bucket.json", "spot-advisor"},
        {"skypilot_vms_negative_price.csv", "skypilot"},
        {"aws_price_list_bad_price.csv", "aws-price-list"},
        {"no_such_file.json", "aws-spot-history"},
    };
    for (const auto& c : cases) {
        INFO(c[0]);
        std::vector<std::string> argv = {"catalog", "import", fixture(c[0]).string()};
        if (c.size() > 1) {
            argv.push_back("--format");
            argv.push_back(c[1]);
        }
        const auto r = run(argv);
        CHECK(r.code == 2);
        CHECK(r.out.empty());
        CHECK(cp::test::line_count(r.err) == 1);
        CHECK_THAT(r.err, Catch::Contains(c[0]));
        CHECK(data.stored_data() == before);
    }
    const auto unknown = run({"catalog", "show", "p9x.96xlarge"});
    CHECK(unknown.code == 2);
    CHECK_THAT(unknown.err, Catch::Contains("'p9x.96xlarge' is not an instance type"));
}

TEST_CASE("usage errors exit 1", "[cli][catalog]") {
    DataDir data;
    CHECK(run({"catalog"}).code == 1);
    CHECK(run({"catalog", "frobnicate"}).code == 1);
    CHECK(run({"catalog", "list", "extra"}).code == 1);
    CHECK(run({"catalog", "list", "--colour"}).code == 1);
    const auto show = run({"catalog", "show"});
    CHECK(show.code == 1);
    // The usage text after the sentence is printed as lines, not escaped as \x0a.
    CHECK_THAT(show.err, !Catch::Contains("\\x0a"));
    CHECK_THAT(show.err, Catch::Contains("\nusage: clusterplan catalog list"));
    CHECK(run({"catalog", "import"}).code == 1);
    const auto fmt =
        run({"catalog", "import", fixture("skypilot_vms.csv").string(), "--format", "xml"});
    CHECK(fmt.code == 1);
    CHECK_THAT(fmt.err, Catch::Contains("--format"));
}

TEST_CASE("catalog export then import --format csv round-trips", "[cli][catalog]") {
    DataDir data;
    REQUIRE(run({"catalog", "import", fixture("spot_history_us_east_1.json").string()}).code == 0);
    REQUIRE(
        run({"catalog", "import", fixture("spot_advisor.json").string(), "--as-of", "2025-11-05"})
            .code == 0);
    const auto out1 = data.data_dir() / "export1.csv";
    REQUIRE(run({"catalog", "export", out1.string()}).code == 0);

    fs::remove(data.database());
    const auto imp = run({"catalog", "import", out1.string(), "--format", "csv"});
    REQUIRE(imp.code == 0);
    const auto out2 = data.data_dir() / "export2.csv";
    REQUIRE(run({"catalog", "export", out2.string()}).code == 0);
    std::ifstream a(out1), b(out2);
    std::stringstream sa, sb;
    sa << a.rdbuf();
    sb << b.rdbuf();
    CHECK(sa.str() == sb.str());
    CHECK_THAT(run({"catalog", "list", "--family", "P4d"}).out, Catch::Contains(">20%"));
}

TEST_CASE("a damaged database is reported and can be rebuilt", "[cli][catalog]") {
    DataDir data;
    {
        std::ofstream f(data.database(), std::ios::binary);
        f << std::string(4096, 'x');
    }
    const auto r = run({"catalog", "list"});
    CHECK(r.code == 2);
    CHECK(cp::test::line_count(r.err) == 1);
    CHECK_THAT(r.err, Catch::Contains("clusterplan catalog rebuild"));
    const auto rb = run({"catalog", "rebuild"});
    REQUIRE(rb.code == 0);
    CHECK_THAT(rb.out, Catch::Contains(".corrupt-"));
    CHECK(run({"catalog", "list"}).code == 0);
    int backups = 0;
    for (const auto& e : fs::directory_iterator(data.data_dir()))
        backups += e.path().filename().string().find(".corrupt-") != std::string::npos;
    CHECK(backups == 1);
}
