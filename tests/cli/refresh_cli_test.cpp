// `catalog refresh --base-url` against fixture files served on 127.0.0.1: several regions are
// imported; a connection cut mid-download, a stalled server stopped by SIGTERM, an unreachable
// server and a bad file each exit 2 and leave the catalog byte-for-byte unchanged.
#include "cli_sandbox.h"
#include "local_http_server.h"

#include <catch2/catch.hpp>
#include <csignal>
#include <thread>

using cp::test::LocalHttpServer;
using cp::test::run_cli;
using cp::test::run_program;
using cp::test::Sandbox;

namespace {

std::filesystem::path mirror() {
    return std::filesystem::path(CLUSTERPLAN_TEST_DATA_DIR) / "catalog" / "refresh";
}

std::vector<std::string> refresh_args(const std::string& base) {
    return {"catalog",      "refresh",   "--base-url", base,       "--region",
            "us-east-1",    "--region",  "us-west-2",  "--region", "eu-west-1",
            "--no-aws-cli", "--timeout", "5"};
}

} // namespace

TEST_CASE(
    "catalog refresh imports the price lists of several regions, the spot feed and the advisor",
    "[cli][refresh]") {
    Sandbox box;
    LocalHttpServer server(mirror());
    const auto r = run_cli(refresh_args(server.base_url()));
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.err,
               Catch::Contains("[1/6] us-east-1 price list") && Catch::Contains("importing"));
    CHECK_THAT(r.out, Catch::Contains("refreshed:"));
    const auto list = run_cli({"catalog", "list", "--region", "eu-west-1", "--json"});
    REQUIRE(list.code == 0);
    CHECK_THAT(list.out, Catch::Contains("p4d.24xlarge"));
    cp::catalog::Catalog cat(box.database());
    const auto west = cat.node_spec("p4d.24xlarge", "us-west-2");
    REQUIRE(west);
    CHECK(cp::sim::is_known(west->usd_per_node_hour_on_demand));
    CHECK(west->usd_per_node_hour_spot == Approx(8.8001)); // the feed's region-wide price
    const auto eu = cat.node_spec("p4d.24xlarge", "eu-west-1");
    CHECK(eu->usd_per_node_hour_on_demand > west->usd_per_node_hour_on_demand); // fixture: x1.1
    CHECK_FALSE(eu->spot_advisor_known); // the advisor fixture covers us-east-1 and us-west-2 only
    CHECK(west->spot_advisor_known);
}

TEST_CASE("a refresh cut mid-download, stopped, offline or fed a bad file changes nothing",
          "[cli][refresh]") {
    Sandbox box;
    const std::string before = box.stored_data();
    LocalHttpServer server(mirror());

    SECTION("the server drops the connection half-way through a price list") {
        server.set_mode(LocalHttpServer::Mode::cut_body, "us-west-2");
        const auto r = run_cli(refresh_args(server.base_url()));
        CHECK(r.code == 2);
        CHECK_THAT(r.err, Catch::Contains("us-west-2/index.csv") &&
                              Catch::Contains("Nothing was changed"));
    }
    SECTION("a bad spot feed") {
        LocalHttpServer bad(mirror() / "bad");
        const auto r = run_cli({"catalog", "refresh", "--base-url", bad.base_url(), "--region",
                                "us-east-1", "--no-aws-cli", "--timeout", "5"});
        CHECK(r.code == 2);
        CHECK_THAT(r.err, Catch::Contains("catalog refresh:"));
    }
    SECTION("nobody listens") {
        std::string base;
        {
            LocalHttpServer gone(mirror());
            base = gone.base_url();
        }
        const auto r = run_cli(refresh_args(base));
        CHECK(r.code == 2);
        CHECK_THAT(r.err,
                   Catch::Contains("cannot reach 127.0.0.1") && Catch::Contains("catalog import"));
    }
    SECTION("SIGTERM while the server stalls") {
        server.set_mode(LocalHttpServer::Mode::stall, "us-west-2");
        std::thread killer([] {
            std::this_thread::sleep_for(std::chrono::milliseconds(700));
            std::raise(SIGTERM);
        });
        const auto r = run_cli(refresh_args(server.base_url()));
        killer.join();
        CHECK(r.code == 2);
        CHECK_THAT(r.err, Catch::Contains("cancelled: nothing was changed"));
    }
    CHECK(box.stored_data() == before);
}
