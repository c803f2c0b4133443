// Purchase options in the catalog: estimate marks, schema 2 migration, the spot price statistic
// over an imported multi-zone history, Capacity Block rates.
#include "clusterplan/catalog/catalog.h"
#include "clusterplan/catalog/importers.h"
#include "test_helpers.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <sqlite3.h>

using namespace cp::catalog;
using cp::test::TempDir;

TEST_CASE("A10G and B200 figures exist and carry estimate marks", "[catalog][estimate]") {
    TempDir dir;
    Catalog cat(dir / "c.sqlite");
    const auto a10g = cat.accelerator("A10G");
    REQUIRE(a10g);
    REQUIRE(a10g->bf16_tflops);
    CHECK(*a10g->bf16_tflops == 70.0);
    CHECK(a10g->is_estimated("bf16_tflops"));
    CHECK(a10g->is_estimated("tf32_tflops"));
    CHECK_FALSE(a10g->is_estimated("memory_gib"));
    CHECK_FALSE(a10g->estimate_source.empty());
    const auto spec = cat.accelerator_spec("A10G");
    REQUIRE(spec);
    CHECK(spec->peak_estimated[static_cast<int>(cp::sim::Precision::bf16)]);
    // NVIDIA lists every tensor precision: fp8 is missing math on Ampere, not an unknown.
    CHECK(spec->precision_unsupported[static_cast<int>(cp::sim::Precision::fp8)]);
    const auto v100 = cat.accelerator_spec("V100-16GB");
    CHECK(v100->precision_unsupported[static_cast<int>(cp::sim::Precision::bf16)]);
    const auto p6 = cat.node_spec("p6-b200.48xlarge");
    REQUIRE(p6);
    CHECK(p6->accelerator.memory_gib == 180.0);
    CHECK_FALSE(p6->accelerator.memory_estimated); // the instance's own published figure
    CHECK(p6->accelerator.peak_estimated[static_cast<int>(cp::sim::Precision::bf16)]);
    bool g5_trainable = false;
    for (const auto& n : cat.trainable_node_specs())
        g5_trainable = g5_trainable || n.instance_type == "g5.12xlarge";
    CHECK(g5_trainable);
}

TEST_CASE("a version-1 catalog migrates to schema 2 and keeps every price",
          "[catalog][migration]") {
    TempDir dir;
    const auto path = dir / "old.sqlite";
    std::string prices_before;
    {
        Catalog cat(path);
        // Turn it back into what version 1 looked like: no estimate columns, narrow price kinds,
        // no A10G tensor figures, no Capacity Block rows.
        cat.exec(
            "DELETE FROM prices WHERE kind NOT IN ('on_demand', 'spot');"
            "UPDATE accelerators SET tf32_tflops = NULL, fp16_tflops = NULL, bf16_tflops = NULL, "
            "int8_tops = NULL WHERE id = 'A10G';"
            "ALTER TABLE accelerators DROP COLUMN estimated_fields;"
            "ALTER TABLE accelerators DROP COLUMN estimate_source;"
            "PRAGMA user_version = 1;");
        for (const auto& p : cat.prices("p4d.24xlarge"))
            prices_before += p.as_of + p.kind + std::to_string(p.usd_per_hour);
    }
    Catalog cat(path);
    CHECK(cat.schema_version() == current_schema_version());
    CHECK(cat.integrity_check() == "ok");
    const auto a10g = cat.accelerator("A10G");
    REQUIRE(a10g->bf16_tflops);
    CHECK(*a10g->bf16_tflops == 70.0);
    CHECK(a10g->is_estimated("bf16_tflops"));
    std::string prices_after;
    for (const auto& p : cat.prices("p4d.24xlarge"))
        if (p.kind == "on_demand" || p.kind == "spot")
            prices_after += p.as_of + p.kind + std::to_string(p.usd_per_hour);
    CHECK(prices_after == prices_before);
    CHECK(cp::sim::is_known(
        cat.committed_prices("p5.48xlarge", "us-east-1").capacity_block_usd_per_hour));
}

TEST_CASE("after a multi-zone spot history the spot price is the documented statistic",
          "[catalog][spot]") {
    TempDir dir;
    Catalog cat(dir / "c.sqlite");
    import_file(cat, cp::test::catalog_fixture("spot_history_multi_zone.json"));
    const auto node = cat.node_spec("p4d.24xlarge");
    REQUIRE(node);
    // Zones: a (3.10, then 2.47), b (5.20), c (8.19): the middle zone's 30-day median.
    CHECK_REL(node->usd_per_node_hour_spot, 5.20, 1e-9);
    CHECK_REL(node->usd_per_node_hour_spot_min, 2.47, 1e-9);
    CHECK_REL(node->usd_per_node_hour_spot_max, 8.19, 1e-9);
    CHECK(node->spot_price_basis.find("median of the last 30 days in us-east-1b") !=
          std::string::npos);
    cp::sim::SpotPriceRule rule;
    rule.statistic = cp::sim::SpotStatistic::p90;
    rule.zone = "us-east-1a";
    CHECK_REL(cat.node_spec("p4d.24xlarge", "us-east-1", rule)->usd_per_node_hour_spot, 3.10, 1e-9);
    // The seed's region-wide figures are older than the zone history and give way to it.
    CHECK(cat.spot_price_summary("p4d.24xlarge", "us-east-1").zones == 3);
}

TEST_CASE("Capacity Block and other-region prices come with the snapshot",
          "[catalog][capacity-block]") {
    TempDir dir;
    Catalog cat(dir / "c.sqlite");
    const auto cb = cat.committed_prices("p5.48xlarge", "us-east-1");
    CHECK_REL(cb.capacity_block_usd_per_hour, 39.33, 1e-9);
    CHECK(cb.capacity_block_as_of == "2024-12");
    const auto trn2 = cat.node_spec("trn2.48xlarge", "us-east-2");
    REQUIRE(trn2);
    CHECK_REL(trn2->usd_per_node_hour_on_demand, 85.964, 1e-9);
    const auto regions = cat.price_regions();
    CHECK(std::find(regions.begin(), regions.end(), "us-west-2") != regions.end());
}

TEST_CASE("a version-3 catalog migrates to schema 4 and receives the bundled interconnect texts",
          "[catalog][migration]") {
    TempDir dir;
    const auto path = dir / "v3.sqlite";
    {
        Catalog cat(path);
        // What a schema-3 catalog held before g5.48xlarge's CPU sockets were stated.
        cat.exec("UPDATE instance_types SET intra_node_interconnect = 'PCIe Gen4 (no NVLink; no "
                 "GPU P2P)' WHERE instance_type = 'g5.48xlarge';"
                 "PRAGMA user_version = 3;");
        CHECK(cat.node_spec("g5.48xlarge")->accelerator_sockets == 1);
    }
    Catalog cat(path);
    CHECK(cat.schema_version() == current_schema_version());
    CHECK(cat.node_spec("g5.48xlarge")->accelerator_sockets == 2);
    CHECK_FALSE(cat.node_spec("g5.48xlarge")->pcie_peer_access);
}

TEST_CASE("a version-2 catalog migrates to schema 3 and receives the newer seed facts",
          "[catalog][migration]") {
    TempDir dir;
    const auto path = dir / "v2.sqlite";
    std::string prices_before;
    {
        Catalog cat(path);
        // What a schema-2 catalog seeded before Gaudi1's derived rate and the G5 P2P text held.
        cat.exec("UPDATE accelerators SET bf16_tflops = NULL, hbm_gbytes_per_s = NULL, "
                 "estimated_fields = NULL WHERE id = 'Gaudi1';"
                 "UPDATE instance_types SET intra_node_interconnect = 'PCIe Gen4' "
                 "WHERE instance_type = 'g5.12xlarge';"
                 "UPDATE accelerators SET tdp_w = 123 WHERE id = 'A10G';"
                 "PRAGMA user_version = 2;");
        for (const auto& p : cat.prices("g5.12xlarge"))
            prices_before += p.as_of + p.kind + std::to_string(p.usd_per_hour);
    }
    Catalog cat(path);
    CHECK(cat.schema_version() == current_schema_version());
    CHECK(cat.integrity_check() == "ok");
    const auto gaudi = cat.accelerator("Gaudi1");
    REQUIRE(gaudi);
    REQUIRE(gaudi->bf16_tflops);
    CHECK(gaudi->is_estimated("bf16_tflops"));
    CHECK_FALSE(gaudi->fp16_tflops); // Gaudi1 has no fp16 type
    const auto g5 = cat.node_spec("g5.12xlarge");
    REQUIRE(g5);
    CHECK_FALSE(g5->pcie_peer_access);
    // A figure the catalog already knows is never overwritten by the seed.
    CHECK(cat.accelerator("A10G")->tdp_w == 123.0);
    std::string prices_after;
    for (const auto& p : cat.prices("g5.12xlarge"))
        prices_after += p.as_of + p.kind + std::to_string(p.usd_per_hour);
    CHECK(prices_after == prices_before);
}
