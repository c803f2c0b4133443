// The catalog created from the bundled snapshot holds the seed's facts, unknowns stay unknown.
#include "clusterplan/catalog/catalog.h"
#include "test_helpers.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <cstdlib>
#include <optional>
#include <utility>
#include <vector>

using namespace cp::catalog;
using cp::test::TempDir;

TEST_CASE("first open creates the catalog from the bundled snapshot", "[catalog][seed]") {
    TempDir dir;
    Catalog cat(dir / "sub" / "catalog.sqlite");
    CHECK(std::filesystem::exists(dir / "sub" / "catalog.sqlite"));
    CHECK(cat.schema_version() == current_schema_version());
    CHECK(cat.integrity_check() == "ok");
    CHECK(cat.instances().size() == 54);
    CHECK(cat.accelerators().size() == 18);
}

TEST_CASE("p4d.24xlarge is 8 x A100-40GB with 400 Gbps EFA on NVSwitch", "[catalog][seed]") {
    TempDir dir;
    Catalog cat(dir / "c.sqlite");
    const auto p4d = cat.instance("p4d.24xlarge");
    REQUIRE(p4d);
    CHECK(p4d->family == "P4d");
    CHECK(p4d->accelerator == "A100-40GB");
    CHECK(p4d->accelerator_count == 8);
    CHECK(p4d->vcpus == 96);
    REQUIRE(p4d->network_gbps);
    CHECK(*p4d->network_gbps == 400.0);
    CHECK_FALSE(p4d->network_is_up_to);
    CHECK(p4d->efa == true);
    // v8 snapshot, after AWS's June 2025 cut (32.77 -> 21.96 $/h).
    REQUIRE(p4d->on_demand_usd_per_hour);
    CHECK_REL(*p4d->on_demand_usd_per_hour, 21.957642, 1e-9);
    CHECK(p4d->on_demand_as_of == "2025-08");
    REQUIRE(p4d->spot_usd_per_hour_min);
    CHECK_REL(*p4d->spot_usd_per_hour_min, 2.4655, 1e-9);
    CHECK_REL(p4d->spot_usd_per_hour_max.value(), 8.1915, 1e-9);
    REQUIRE(p4d->price_age_days);
    CHECK(*p4d->price_age_days > 0.0);

    const auto node = cat.node_spec("p4d.24xlarge");
    REQUIRE(node);
    CHECK(node->accelerators_per_node == 8);
    CHECK(node->intra_link == cp::sim::IntraNodeLink::nvswitch);
    CHECK_REL(node->intra_node_gbytes_per_s, 300.0, 1e-12); // 600 GB/s bidirectional
    CHECK_REL(node->inter_node_gbps, 400.0, 1e-12);
    CHECK(node->efa == true);
    CHECK_REL(node->accelerator.peak(cp::sim::Precision::bf16), 312.0, 1e-12);
    CHECK_REL(node->accelerator.memory_gib, 40.0, 1e-12);
    // The seed has min and max over unnamed zones only: priced at their midpoint, never the min.
    CHECK_REL(node->usd_per_node_hour_spot,
              0.5 * (node->usd_per_node_hour_spot_min + node->usd_per_node_hour_spot_max), 1e-9);
    CHECK_REL(node->usd_per_node_hour_spot_min, 2.4655, 1e-9);
    CHECK(node->spot_interruption_bucket == -1); // no Spot Advisor data in the seed
    CHECK(node->accelerator.max_zero_stage == 3);
    // Trainium trains through the Neuron SDK, which shards optimizer state only (ZeRO-1).
    CHECK(cat.node_spec("trn1.32xlarge")->accelerator.max_zero_stage == 1);
    // ... and compiles the step ahead of time, so no host-issue floor; GPUs run eager kernels.
    CHECK_FALSE(cat.node_spec("trn1.32xlarge")->accelerator.eager_kernel_issue);
    CHECK(cat.node_spec("p4d.24xlarge")->accelerator.eager_kernel_issue);
}

TEST_CASE("multi-GPU G instances talk over PCIe, not NVLink", "[catalog][seed]") {
    TempDir dir;
    Catalog cat(dir / "c.sqlite");
    for (const char* type : {"g5.48xlarge", "g5.12xlarge", "g4dn.12xlarge", "g6.48xlarge"}) {
        INFO(type);
        const auto node = cat.node_spec(type);
        REQUIRE(node);
        CHECK(node->intra_link == cp::sim::IntraNodeLink::pcie);
    }
    // PCIe 4.0 x8: 8 lanes x 16 GT/s x 128/130 / 8 bits = 15.75 GB/s per direction.
    CHECK_REL(cat.node_spec("g5.48xlarge")->intra_node_gbytes_per_s, 15.7538, 1e-4);
    // PCIe 3.0 x8 on g4dn.
    CHECK_REL(cat.node_spec("g4dn.12xlarge")->intra_node_gbytes_per_s, 7.8769, 1e-4);
    // G5 and G6 refuse GPU peer access (collectives stage through host memory); g4dn has no
    // published statement either way and keeps the direct path.
    for (const char* type : {"g5.12xlarge", "g5.24xlarge", "g5.48xlarge", "g6.12xlarge",
                             "g6.24xlarge", "g6.48xlarge"}) {
        INFO(type);
        CHECK_FALSE(cat.node_spec(type)->pcie_peer_access);
    }
    CHECK(cat.node_spec("g4dn.12xlarge")->pcie_peer_access);
    // g5.48xlarge's eight GPUs sit four to a CPU socket; the four-GPU types on one.
    CHECK(cat.node_spec("g5.48xlarge")->accelerator_sockets == 2);
    CHECK(cat.node_spec("g5.12xlarge")->accelerator_sockets == 1);
    // A single GPU has no intra-node link at all.
    const auto single = cat.node_spec("g5.xlarge");
    CHECK(single->intra_link == cp::sim::IntraNodeLink::none);
    CHECK_FALSE(cp::sim::is_known(single->intra_node_gbytes_per_s));
    // "up to 10 Gbps" burst: a training run gets the 2.5 Gbps baseline.
    CHECK_REL(single->inter_node_gbps, 2.5, 1e-12);
}

TEST_CASE("Inferentia is inference-only and Neuron and Gaudi are accelerators not GPUs",
          "[catalog][seed]") {
    TempDir dir;
    Catalog cat(dir / "c.sqlite");
    for (const char* id : {"Inferentia1", "Inferentia2"}) {
        const auto a = cat.accelerator(id);
        REQUIRE(a);
        CHECK(a->inference_only);
        CHECK_FALSE(a->is_gpu);
        CHECK_FALSE(cat.accelerator_spec(id)->can_train);
    }
    CHECK_FALSE(cat.accelerator("Trainium1")->inference_only);
    CHECK_FALSE(cat.accelerator("Trainium1")->is_gpu);
    CHECK_FALSE(cat.accelerator("Gaudi1")->is_gpu);
    CHECK(cat.accelerator("H100-80GB")->is_gpu);

    const auto trainable = cat.trainable_node_specs();
    bool has_p4d = false;
    for (const auto& n : trainable) {
        INFO(n.instance_type);
        CHECK(n.instance_type.rfind("inf", 0) != 0);
        CHECK(n.accelerator.can_train);
        has_p4d = has_p4d || n.instance_type == "p4d.24xlarge";
    }
    CHECK(has_p4d);
    // 8 Inf1/Inf2 (B300 has estimated peaks, Gaudi1 a measured-derived BF16 rate)
    CHECK(trainable.size() == 54 - 8);
}

TEST_CASE("unknown cells stay unknown", "[catalog][seed]") {
    TempDir dir;
    Catalog cat(dir / "c.sqlite");
    // g6e.2xlarge: no network headline and no prices in the seed.
    const auto g6e = cat.instance("g6e.2xlarge");
    REQUIRE(g6e);
    CHECK_FALSE(g6e->network_gbps);
    CHECK_FALSE(g6e->on_demand_usd_per_hour);
    CHECK_FALSE(g6e->spot_usd_per_hour_min);
    CHECK(g6e->price_as_of.empty());
    CHECK_FALSE(g6e->price_age_days);
    const auto node = cat.node_spec("g6e.2xlarge");
    CHECK_FALSE(cp::sim::is_known(node->usd_per_node_hour_on_demand));
    CHECK_REL(node->inter_node_gbps, 5.0, 1e-12); // only the baseline is known
    // p3.2xlarge: EFA cell empty = unknown, not "no".
    CHECK_FALSE(cat.instance("p3.2xlarge")->efa.has_value());
    // A10G: NVIDIA publishes no tensor rates for it; the catalog's are marked estimates.
    const auto a10g = cat.accelerator("A10G");
    CHECK(a10g->is_estimated("fp16_tflops"));
    CHECK(a10g->is_estimated("bf16_tflops"));
    CHECK_REL(*a10g->fp32_tflops, 31.2, 1e-12);
    // V100 has FP16 tensor cores but no BF16.
    const auto v100 = cat.accelerator("V100-32GB");
    CHECK_REL(*v100->fp16_tflops, 125.0, 1e-12);
    CHECK_FALSE(v100->bf16_tflops);
    // Gaudi1: no vendor peak; the BF16 rate is measured-derived and marked, fp16 does not exist.
    const auto gaudi = cat.accelerator("Gaudi1");
    CHECK(gaudi->is_estimated("bf16_tflops"));
    CHECK(gaudi->is_estimated("hbm_gbytes_per_s"));
    CHECK_FALSE(gaudi->fp16_tflops);
    CHECK_FALSE(gaudi->fp32_tflops);
}

TEST_CASE("filters, unknown types and reopening", "[catalog][query]") {
    TempDir dir;
    const auto path = dir / "c.sqlite";
    {
        Catalog cat(path);
        InstanceFilter f;
        f.family = "g5";
        const auto g5 = cat.instances(f);
        CHECK(g5.size() == 8);
        for (const auto& i : g5)
            CHECK(i.family == "G5");
        f.family.clear();
        f.region = "eu-west-1";
        f.require_price_in_region = true;
        CHECK(cat.instances(f).empty()); // the seed only prices us-east-1
        CHECK_FALSE(cat.instance("x9.huge"));
        CHECK_FALSE(cat.node_spec("x9.huge"));
        CHECK_FALSE(cat.accelerator_spec("TPUv9"));
        cat.save_scenario("mine", R"({"schema":"clusterplan.scenario/1"})");
    }
    Catalog again(path); // no reseeding, user data kept
    CHECK(again.instances().size() == 54);
    REQUIRE(again.scenario("mine"));
    CHECK(again.scenario("mine")->json == R"({"schema":"clusterplan.scenario/1"})");
    CHECK(again.delete_scenario("mine"));
    CHECK(again.scenarios().empty());
}

TEST_CASE("default data dir follows CLUSTERPLAN_DATA_DIR then XDG", "[catalog]") {
    // Restore the environment afterwards: other tests in this binary may read it.
    struct SavedEnv {
        std::vector<std::pair<std::string, std::optional<std::string>>> vars;
        SavedEnv() {
            for (const char* name : {"CLUSTERPLAN_DATA_DIR", "XDG_DATA_HOME", "HOME"}) {
                const char* v = std::getenv(name);
                vars.emplace_back(name, v ? std::optional<std::string>(v) : std::nullopt);
            }
        }
        ~SavedEnv() {
            for (const auto& [name, value] : vars) {
                if (value)
                    ::setenv(name.c_str(), value->c_str(), 1);
                else
                    ::unsetenv(name.c_str());
            }
        }
    } saved;
    ::setenv("CLUSTERPLAN_DATA_DIR", "/tmp/cp-data-test", 1);
    CHECK(default_data_dir() == std::filesystem::path("/tmp/cp-data-test"));
    CHECK(default_database_path() == std::filesystem::path("/tmp/cp-data-test/catalog.sqlite"));
    ::unsetenv("CLUSTERPLAN_DATA_DIR");
    ::setenv("XDG_DATA_HOME", "/tmp/xdg", 1);
    CHECK(default_data_dir() == std::filesystem::path("/tmp/xdg/clusterplan"));
    ::unsetenv("XDG_DATA_HOME");
    ::setenv("HOME", "/home/someone", 1);
    CHECK(default_data_dir() == std::filesystem::path("/home/someone/.local/share/clusterplan"));
}
