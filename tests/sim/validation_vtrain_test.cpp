// Validation against 109 measured Megatron-DeepSpeed iterations on A100 clusters (vTrain,
// MICRO'24, MIT licence): 8 GPUs per node, 800 Gb/s between nodes, full recompute, 1F1B,
// vocabulary 51,200, fp16.
#include "clusterplan/sim/step_model.h"
#include "engine_fixtures.h"

#include <catch2/catch.hpp>
#include <cstdio>

using namespace cp;

TEST_CASE("vTrain multi-node A100 iteration times are reproduced", "[validation]") {
    const auto csv =
        test::read_csv(std::string(CLUSTERPLAN_VALIDATION_DIR) + "/vtrain_multi_node_a100.csv");
    REQUIRE(csv.size() == 110);
    test::ErrorStats stats;
    int within10 = 0, within20 = 0;
    std::printf("\n%6s %4s %5s %3s %3s %3s %3s %10s %10s %7s %8s\n", "params", "gpus", "batch",
                "mb", "tp", "dp", "pp", "meas. ms", "model ms", "err %", "mem GiB");
    for (std::size_t r = 1; r < csv.size(); ++r) {
        const auto& c = csv[r];
        const int gpus = std::stoi(c[1]);
        const sim::Workload w =
            test::gpt(std::stoi(c[6]), std::stoi(c[4]), std::stoi(c[5]), std::stoi(c[7]));
        const sim::Cluster cluster = test::a100_cluster(gpus / 8, 800);
        const sim::Layout l = test::vtrain_layout(c, 2);
        const sim::PlanResult res = sim::evaluate(w, cluster, l, sim::Precision::fp16);
        INFO("row " << r);
        REQUIRE((res.valid() || res.limit == sim::Limit::out_of_memory));
        const double measured_ms = std::stod(c[11]);
        const double model_ms = 1000.0 * res.step_time_s;
        stats.add(model_ms, measured_ms);
        if (std::abs(model_ms - measured_ms) <= 0.1 * measured_ms) ++within10;
        if (std::abs(model_ms - measured_ms) <= 0.2 * measured_ms) ++within20;
        std::printf("%6s %4d %5d %3d %3d %3d %3d %10.1f %10.1f %+7.1f %8.1f%s\n", c[0].c_str(),
                    gpus, l.global_batch, l.micro_batch, l.tp, l.dp, l.pp, measured_ms, model_ms,
                    100.0 * (model_ms - measured_ms) / measured_ms, res.memory_gib.total,
                    res.fits_in_memory ? "" : " (OOM)");
    }
    std::printf("vTrain: n=%d mean |err| %.2f %%, max %.2f %%, %d within 10 %%, %d within 20 %%\n",
                stats.count, stats.mean(), stats.max, within10, within20);
    CHECK(stats.count == 109);
    CHECK(stats.mean() <= 8.0);
    // For six runs the model is 27-49 % below the measured time; they are reported, not fitted.
    // Each candidate physical mechanism was checked against the neighbouring runs (figures from
    // this model on A100-80GB) and none explains them without contradicting other rows:
    //
    // 3.6B tp8 dp8 mb64 (9839 ms measured, 5036 model, -48.8 %). The same run at mb32 (same
    //   tokens and FLOPs per GPU) takes 4972 ms (model +2.7 %): mb64 is 1.98x slower. Memory
    //   pressure (caching allocator retrying cudaMalloc near capacity)? Predicted 45.2 of 80 GiB
    //   (22.5 layer-input checkpoints, 9.9 one layer's recompute, 4.7 logits, 6.6 weights and
    //   optimizer), while 32 other runs predicted at 45.2-68.6 GiB are all within 16.9 % (3.6B
    //   tp1 mb8: 68.6 GiB, -4.3 %), the outlier 39.1B tp2 pp8 mb2 apart; a rule firing at
    //   <= 57 % of capacity would be a fit to one row. Same attention batch (b*a/tp = 256) and
    //   logits size as tp4 mb32 (-9.8 %).
    //   On a 40 GB part under ZeRO-1 (neither is recorded) it would be the 6th largest of the
    //   109 at 40.8 GiB, below 39.1B tp8 mb24 (48.4 and 49.5 GiB, +11.6 and +7.0 %): capacity
    //   does not single it out either (checked 2026-11-22).
    // 3.6B mb2 at tp8 (8881 vs 5957 ms, -32.9 %) and tp4 (6228 vs 4551, -26.9 %). Going from
    //   mb4 to mb2 costs 6.8 ms (tp8) and 6.1 ms (tp4) per extra layer-micro-batch, but only
    //   1.0 (tp1), 1.5 (tp2), 1.6 (tp16) and 1.6 (18.4B tp8). Small GEMMs / wave quantisation?
    //   tp16 mb2 runs half as wide GEMMs (h/tp = 192) and is -4.0 %. A host-side launch floor?
    //   tp16 mb2 issues the same kernels and calls in 7.0 ms per layer-micro-batch, below the
    //   9.25 ms tp8 mb2 would need. A fixed cost per layer-micro-batch of 0.5-6 ms never brings
    //   the max below 47.9 % and lifts the mean above 8 % from 1 ms. Slow 25 MB TP all-reduces?
    //   nccl-tests give ~0.3 ms (busbw ~146 GB/s) at 25 MB on 8 A100s; tp8 mb2 would need
    //   ~0.78 ms, yet tp2 mb2 (the same 25 MB messages) is -8.5 % like its tp2 neighbours.
    // 39.1B tp2: dp32 pp8 mb2 (-34.6 %), dp16 pp16 mb2 (-35.3 %), dp16 pp16 mb3 (-34.7 %).
    //   The matching tp4 runs (same pp, mb) are -13.2, +2.0 and +3.5 %, tp1 pp16 mb3 is +8.1 %,
    //   and the tp2 runs of 18.4B
    //   (-7.4, +7.1 %) and 175B (+8.3, +8.2 %) fit. Predicted memory is 27.6-48.0 GiB (the
    //   slowest at 27.6), so not memory. Charging the excess to the tp2 all-reduces implies
    //   1.6-7.4 ms per 67 MB call across the six 39.1B tp2 runs (a 4.6x spread, i.e. per run,
    //   not a mechanism); the DP sync (~0.2 s modelled, <= 0.9 s even through a single NIC) is
    //   too small a term to add the measured 7-9 s.
    // Setup: vTrain's own run configs (github.com/VIA-Research/vTrain config/validation/multi)
    //   say use_checkpoint, 1f1b, no gradient buckets (no DP overlap), 800 Gb/s between nodes and
    //   "intra_node_bandwidth": 150. Modelling the NVSwitch tier at 150 GB/s instead of 300 lowers
    //   the max to 37.5 % but lifts the mean to 12.9 % (93 runs within 20 %), so it is not the
    //   missing piece either; the datasheet 300 GB/s (checked against nccl-tests) is kept.
    // The vTrain repo itself (commit f8dda847, read 2026-11): data/ground_truth_multi.csv equals
    //   our CSV; its 108 configs cover all 109 rows (175B tp4 dp4 pp32 mb2 was measured twice,
    //   53909.6 and 53937.9 ms) and carry identical settings, so no outlier ran with another
    //   recompute, schedule or placement; ZeRO stage and fused kernels are not recorded at all.
    //   No vTrain predictions per row are stored (its predictor needs CUPTI profiles on a GPU).
    //   In data/ground_truth_single.csv (1440 one-node runs, h 1024/2048, s 1024; now a fixture,
    //   validation_vtrain_single_test.cpp) time is linear in the micro-batch count and never
    //   drops below ~3.5 ms per layer-micro-batch: the host issuing kernels. The model now has
    //   that floor (kHostIssuePerLayerPassS), which brings those runs from 31.8 % to 8.0 % mean
    //   and changes none of the 109 multi-node runs: every one is above it. It cannot explain the
    //   outliers: 3.6B tp8 mb4 is modelled at 11.6 ms per layer-micro-batch and measured within
    //   1 %, tp8 mb2 is modelled at 6.2 ms, above the floor, and tp4 mb2 (13.0 ms measured) would
    //   need a larger floor than tp8 mb2 (9.25), the reverse of the one-node order; the 39.1B tp2
    //   excess is ~40 ms per layer-micro-batch, far beyond any such floor.
    CHECK(within20 >= 100);
    // Guard against regressions beyond the documented outliers.
    CHECK(stats.max < 50.0);
}
