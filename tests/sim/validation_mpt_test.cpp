// Validation against MosaicML's published MPT throughput (tests/data/validation/README.md):
// PyTorch FSDP FULL_SHARD (ZeRO-3), FlashAttention, data parallel only, on A100 40/80 GB and
// H100, 8-512 GPUs. It checks the ZeRO-3 path and the H100 bf16 rates under another software
// stack than Megatron, and counts the runs the memory model would have refused.
#include "clusterplan/sim/step_model.h"
#include "engine_fixtures.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <map>

using namespace cp;

TEST_CASE("MosaicML MPT FSDP throughput on A100 and H100 is reproduced", "[validation]") {
    const auto csv = test::read_csv(std::string(CLUSTERPLAN_VALIDATION_DIR) + "/mosaicml_mpt.csv");
    REQUIRE(csv.size() == 217);
    std::map<std::string, test::ErrorStats> by_table;
    std::map<std::string, int> refused;
    for (std::size_t r = 1; r < csv.size(); ++r) {
        const auto& c = csv[r];
        const int gpus = std::stoi(c[6]);
        sim::Workload w =
            test::gpt(std::stoi(c[2]), std::stoi(c[3]), std::stoi(c[4]), std::stoi(c[5]), 50368);
        w.shape.learned_positions = true;
        w.shape.flash_attention = true;
        const std::string gpu = c[7];
        const int nodes = (gpus + 7) / 8;
        sim::Cluster cluster =
            gpu == "h100_80gb" ? test::h100_cluster(nodes) : test::a100_cluster(nodes, 1600);
        if (gpu == "a100_40gb") cluster.node.accelerator.memory_gib = 40;
        sim::Layout l;
        l.global_batch = std::stoi(c[10]);
        l.micro_batch = std::stoi(c[8]);
        l.dp = gpus;
        l.zero = 3;
        l.recompute = c[14] == "True" ? sim::Recompute::full : sim::Recompute::none;
        const sim::Precision precision =
            c[12] == "amp_fp8" ? sim::Precision::fp8 : sim::Precision::bf16;
        const sim::PlanResult res = sim::evaluate(w, cluster, l, precision);
        INFO("row " << r << ": " << c[0] << " " << c[1] << " s=" << c[5] << " gpus=" << gpus);
        REQUIRE((res.valid() || res.limit == sim::Limit::out_of_memory));
        by_table[c[0]].add(res.tokens_per_s / gpus, std::stod(c[11]));
        if (!res.fits_in_memory) ++refused[c[0]];
    }
    for (const auto& [table, s] : by_table)
        std::printf(
            "MosaicML MPT %-10s n=%3d mean |err| %5.2f %%, max %5.2f %%, %d predicted not to fit\n",
            table.c_str(), s.count, s.mean(), s.max, refused[table]);
    CHECK(by_table.size() == 4);
    // A100: the Megatron-validated rates carry over to FSDP (7.8 % mean on 80 GB; 40 GB runs use
    // smaller micro-batches and lose more to communication).
    CHECK(by_table["a100_80gb"].mean() <= 9.0);
    CHECK(by_table["a100_40gb"].mean() <= 12.5);
    // H100 bf16: ~15 % optimistic for this 2023 stack (MFU 35-46 %), where NeMo-class software
    // is within 11 % (validation_nemo_h100_test.cpp); fp8: MosaicML's early FP8 runs reached
    // 15-30 % MFU, so the model, which assumes a mature FP8 stack, is ~55 % optimistic there.
    CHECK(by_table["h100_bf16"].mean() <= 16.5);
    CHECK(by_table["h100_fp8"].mean() <= 60.0);
    // The memory model must not refuse runs that trained: with the logits counted as Megatron's
    // cross-entropy holds them (fp16 + an fp32 copy that becomes softmax and gradient in place)
    // 4 of the 216 are predicted over capacity (all A100 40GB; MPT also trains without dropout
    // masks); counting a separate fp32 gradient buffer, as before, refused 60.
    int refused_total = 0;
    for (const auto& [table, n] : refused)
        refused_total += n;
    CHECK(refused_total <= 4);
}
