// A frozen base (LoRA, QLoRA) trains no base weight: neither the layers' linear weights nor the
// output layer and embedding table. These checks pin what the step model removes for them.
#include "clusterplan/sim/step_model.h"
#include "engine_fixtures.h"
#include "tolerance.h"

#include <catch2/catch.hpp>

using namespace cp;

namespace {

sim::Layout one_node_dp(int global_batch) {
    sim::Layout l;
    l.dp = 8;
    l.micro_batch = 1;
    l.global_batch = global_batch;
    l.recompute = sim::Recompute::none;
    return l;
}

sim::Workload with_method(sim::Workload w, sim::TrainingMethod method) {
    w.finetune.method = method;
    w.finetune.lora.rank = 16;
    w.finetune.lora.targets = sim::LoraTargets::attention;
    return w;
}

} // namespace

TEST_CASE("LoRA's model FLOPs drop every base weight gradient, the output layer's included",
          "[engine][finetune]") {
    const int layers = 24, h = 2048, vocab = 51200, seq = 2048, batch = 64;
    const sim::Workload base = test::gpt(layers, h, 16, seq, vocab);
    const sim::Cluster cluster = test::a100_cluster(1, 100);
    const sim::PlanResult full = sim::evaluate(with_method(base, sim::TrainingMethod::full),
                                               cluster, one_node_dp(batch), sim::Precision::bf16);
    const sim::PlanResult lora = sim::evaluate(with_method(base, sim::TrainingMethod::lora),
                                               cluster, one_node_dp(batch), sim::Precision::bf16);
    REQUIRE(full.valid());
    REQUIRE(lora.valid());
    // Weight gradients: 2 FLOPs per weight and token over 12 h^2 per layer (attention 4 h^2,
    // MLP 8 h^2) and the h x vocab output layer; the rank-16 q, k, v, o adapters (2 r h each)
    // add forward, input- and weight-gradient FLOPs, 6 per adapter weight and token.
    const double h2 = double(h) * h;
    const double wgrad = 2.0 * (layers * 12.0 * h2 + double(h) * vocab);
    const double adapters = 6.0 * layers * 4.0 * 2.0 * 16.0 * h;
    CHECK_REL(full.model_flops_per_step - lora.model_flops_per_step,
              double(batch) * seq * (wgrad - adapters), 1e-9);
    // The step itself sheds those GEMMs, the gradient reduce and most of the optimizer step.
    CHECK(lora.step_time_s < full.step_time_s);
    CHECK(lora.breakdown_s.compute_s < full.breakdown_s.compute_s);
    CHECK(lora.breakdown_s.optimizer_s < 0.01 * full.breakdown_s.optimizer_s);
}

TEST_CASE("LoRA adapters add host-issue work, one adapter per fused projection in Megatron",
          "[engine][finetune]") {
    // A 1024-wide, 12-layer GPT at 1K tokens per GPU: short layers, so the host sets the pace.
    const sim::Workload base = test::gpt(12, 1024, 16, 1024);
    sim::Cluster one = test::a100_cluster(1, 100);
    one.node.accelerators_per_node = 1;
    sim::Layout l = one_node_dp(1);
    l.dp = 1;
    l.framework = sim::Framework::megatron_core;
    const sim::Workload lora = with_method(base, sim::TrainingMethod::lora);
    const sim::PlanResult fused = sim::evaluate(lora, one, l, sim::Precision::bf16);
    REQUIRE(fused.valid());
    // Per layer: the layer's three passes and two adapters (QKV, output) of 4 + 5 operations
    // over the 16 of a layer pass.
    const double pass_s = one.node.accelerator.host_issue.per_layer_pass_s;
    const auto& b = fused.breakdown_s;
    CHECK(b.compute_s + b.host_overhead_s >= 12.0 * (3.0 + 2.0 * 9.0 / 16.0) * pass_s * 0.999);
    // Hugging Face PEFT puts one adapter on each of q, k, v and o: twice the host work.
    l.framework = sim::Framework::pytorch_fsdp;
    const sim::PlanResult separate = sim::evaluate(lora, one, l, sim::Precision::bf16);
    REQUIRE(separate.valid());
    CHECK(separate.breakdown_s.compute_s + separate.breakdown_s.host_overhead_s >=
          12.0 * (3.0 + 4.0 * 9.0 / 16.0) * pass_s * 0.999);
    // Replayed from CUDA graphs, neither waits for the host.
    l.cuda_graphs = true;
    CHECK(sim::evaluate(lora, one, l, sim::Precision::bf16).breakdown_s.host_overhead_s == 0.0);
}
