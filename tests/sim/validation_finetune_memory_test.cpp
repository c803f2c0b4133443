// Validation of the fine-tuning memory model (engine/model_state, memory_model) against published
// peak memory of LoRA, QLoRA and full fine-tuning runs (tests/data/validation/finetune_memory.csv
// and README.md): LitGPT's config-hub table on A10G, torchtune's README table on an RTX 4090, and
// the QLoRA paper's "65B fits one 48 GB GPU". Peaks are PyTorch's max_memory_allocated (tensors
// only), so they are compared with weights + gradients + optimizer + activations, without the
// framework reserve; "fits" rows compare the whole plan (reserve included) with the device.
#include "clusterplan/sim/framework.h"
#include "clusterplan/sim/step_model.h"
#include "engine_fixtures.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <map>

using namespace cp;

namespace {

sim::Workload finetune_workload(const test::CsvRow& c) {
    sim::Workload w = test::gpt(std::stoi(c[7]), std::stoi(c[8]), std::stoi(c[9]), std::stoi(c[6]),
                                std::stoi(c[12]));
    w.shape.kv_heads = std::stoi(c[10]);
    w.shape.ffn_hidden = std::stoi(c[11]);
    w.shape.gated_mlp = true;
    // Both libraries run PyTorch's scaled-dot-product attention (flash kernels on these GPUs).
    w.shape.flash_attention = true;
    const std::string& method = c[2];
    w.finetune.method = method == "lora"    ? sim::TrainingMethod::lora
                        : method == "qlora" ? sim::TrainingMethod::qlora
                                            : sim::TrainingMethod::full;
    if (w.finetune.adapters()) {
        w.finetune.lora.rank = std::stoi(c[13]);
        w.finetune.lora.targets = c[14] == "attention" ? sim::LoraTargets::attention
                                  : c[14] == "mlp"     ? sim::LoraTargets::mlp
                                                       : sim::LoraTargets::all;
    }
    return w;
}

sim::Layout finetune_layout(const test::CsvRow& c) {
    sim::Layout l;
    l.dp = std::stoi(c[3]);
    l.micro_batch = std::stoi(c[5]);
    l.global_batch = l.micro_batch * l.dp;
    l.recompute = c[15] == "full" ? sim::Recompute::full : sim::Recompute::none;
    l.zero = std::stoi(c[16]);
    // LitGPT and torchtune are PyTorch stacks (the FSDP family), with their chunked loss.
    l.framework = sim::Framework::pytorch_fsdp;
    return l;
}

// One node of `devices` GPUs of `device_gib` each (only the memory matters here).
sim::Cluster device_cluster(int devices, double device_gib) {
    sim::Cluster cluster = test::a100_cluster(1, 400);
    cluster.node.accelerators_per_node = devices;
    cluster.node.accelerator.memory_gib = device_gib;
    return cluster;
}

double tensors_gib(const sim::MemoryGib& m) {
    return m.weights + m.gradients + m.optimizer + m.activations;
}

} // namespace

TEST_CASE("published fine-tuning peak memory is reproduced", "[validation][finetune]") {
    const auto csv =
        test::read_csv(std::string(CLUSTERPLAN_VALIDATION_DIR) + "/finetune_memory.csv");
    REQUIRE(csv.size() >= 8);
    std::map<std::string, test::ErrorStats> by_source;
    test::ErrorStats lora, qlora;
    int fits_checked = 0;
    std::printf("\n%-18s %-34s %6s %9s %9s %7s\n", "source", "run", "method", "published", "model",
                "err %");
    for (std::size_t r = 1; r < csv.size(); ++r) {
        const auto& c = csv[r];
        const sim::Workload w = finetune_workload(c);
        const sim::Layout l = finetune_layout(c);
        const sim::PlanResult res =
            sim::evaluate(w, device_cluster(l.dp, std::stod(c[4])), l, sim::Precision::bf16);
        INFO("row " << r << " " << c[1] << " limit " << static_cast<int>(res.limit));
        const double published = std::stod(c[18]);
        if (c[17] == "fits") {
            const bool fits = res.memory_gib.total <= res.memory_gib.capacity;
            std::printf("%-18s %-34s %6s %9s %9s   (%.1f of %.1f GiB)\n", c[0].c_str(),
                        c[1].c_str(), c[2].c_str(), published > 0 ? "fits" : "OOM",
                        fits ? "fits" : "OOM", res.memory_gib.total, res.memory_gib.capacity);
            CHECK(fits == (published > 0));
            ++fits_checked;
            continue;
        }
        const double model = tensors_gib(res.memory_gib);
        by_source[c[0]].add(model, published);
        (c[2] == "qlora" ? qlora : lora).add(model, published);
        std::printf("%-18s %-34s %6s %9.2f %9.2f %+7.1f   (frozen %.2f, activations %.2f GiB)\n",
                    c[0].c_str(), c[1].c_str(), c[2].c_str(), published, model,
                    100.0 * (model - published) / published, res.memory_gib.weights_frozen,
                    res.memory_gib.activations);
    }
    for (const auto& [source, s] : by_source)
        std::printf("  %-18s n=%d mean |err| %.1f %%, max %.1f %%\n", source.c_str(), s.count,
                    s.mean(), s.max);
    std::printf("LoRA peak memory:  n=%d mean |err| %.1f %%, max %.1f %%\n", lora.count,
                lora.mean(), lora.max);
    std::printf("QLoRA peak memory: n=%d mean |err| %.1f %%, max %.1f %%\n", qlora.count,
                qlora.mean(), qlora.max);
    CHECK(fits_checked >= 3);
    CHECK(lora.mean() <= 10.0);
    CHECK(qlora.mean() <= 10.0);
}
