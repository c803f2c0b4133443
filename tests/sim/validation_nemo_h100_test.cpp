// Validation of the H100 rates against NVIDIA's published NeMo 24.07 FP8 pre-training throughput
// on DGX-H100 (tests/data/validation/README.md). NeMo runs Transformer Engine with fused attention,
// sequence parallelism, the distributed optimizer (ZeRO-1) and gradient-reduce overlap; those are
// set here. Not modelled: its TP communication/GEMM overlap and interleaved p2p overlap.
#include "clusterplan/sim/step_model.h"
#include "engine_fixtures.h"

#include <catch2/catch.hpp>
#include <cstdio>

using namespace cp;

TEST_CASE("NeMo FP8 pre-training throughput on DGX-H100 is reproduced", "[validation]") {
    const auto csv = test::read_csv(std::string(CLUSTERPLAN_VALIDATION_DIR) + "/nemo_h100_fp8.csv");
    REQUIRE(csv.size() == 8);
    test::ErrorStats stats;
    std::printf("\n%-10s %5s %5s %3s %3s %3s %3s %12s %12s %7s\n", "model", "gpus", "batch", "mb",
                "tp", "pp", "vp", "meas. tok/s", "model tok/s", "err %");
    for (std::size_t r = 1; r < csv.size(); ++r) {
        const auto& c = csv[r];
        const int gpus = std::stoi(c[1]);
        sim::Workload w = test::gpt(std::stoi(c[11]), std::stoi(c[12]), std::stoi(c[13]),
                                    std::stoi(c[4]), std::stoi(c[17]));
        w.shape.kv_heads = std::stoi(c[14]);
        w.shape.ffn_hidden = std::stoi(c[15]);
        w.shape.gated_mlp = c[16] == "1";
        w.shape.flash_attention = true;
        sim::Layout l;
        l.global_batch = std::stoi(c[2]);
        l.micro_batch = std::stoi(c[3]);
        l.tp = std::stoi(c[5]);
        l.pp = std::stoi(c[6]);
        l.dp = gpus / (l.tp * l.pp);
        l.virtual_stages = std::stoi(c[8]);
        l.schedule = l.virtual_stages > 1 ? sim::Schedule::interleaved : sim::Schedule::one_f_one_b;
        l.sequence_parallel = l.tp > 1;
        l.zero = 1;
        l.recompute = sim::Recompute::none;
        const sim::PlanResult res =
            sim::evaluate(w, test::h100_cluster(gpus / 8), l, sim::Precision::fp8);
        INFO("row " << r << " " << c[0]);
        REQUIRE(res.valid());
        const double measured = std::stod(c[9]);
        const double model = res.tokens_per_s / gpus;
        stats.add(model, measured);
        std::printf("%-10s %5d %5d %3d %3d %3d %3d %12.0f %12.0f %+7.1f\n", c[0].c_str(), gpus,
                    l.global_batch, l.micro_batch, l.tp, l.pp, l.virtual_stages, measured, model,
                    100.0 * (model - measured) / measured);
    }
    std::printf("NeMo H100 FP8: n=%d mean |err| %.2f %%, max %.2f %%\n", stats.count, stats.mean(),
                stats.max);
    CHECK(stats.count == 7);
    // Mean 10.9 %, max 25.6 % (GPT3-5B modelled too fast; Llama 2 70B too slow, where NeMo hides
    // the TP all-reduces behind GEMMs and the model does not). Bounds guard against regressions.
    CHECK(stats.mean() <= 12.0);
    CHECK(stats.max <= 30.0);
}
