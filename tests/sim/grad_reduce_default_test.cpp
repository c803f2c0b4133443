// Gradient reduce precision: the scenario's statement, else the framework's default.
#include "clusterplan/sim/framework.h"
#include "clusterplan/sim/plan_json.h"
#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/scenario.h"
#include "engine_fixtures.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <string>

using namespace cp::sim;

namespace {

Scenario scenario(const std::string& extra) {
    return parse_scenario(
        R"({"name": "t", "model": {"preset": "llama2-7b"}, "cluster": {"nodes": 2},
                             "precision": "bf16", "parallel": {"tp": 1, "pp": 1, "dp": 16, "zero": 1})" +
            (extra.empty() ? std::string() : ", " + extra) + "}",
        "t.json");
}

PlanReport plan(const std::string& extra) {
    PlanReport r = simulate_plan(scenario(extra), cp::test::priced_a100_node(), nullptr);
    REQUIRE(r.result.valid());
    return r;
}

} // namespace

TEST_CASE("training.fp32_grad_reduce doubles a bf16 run's gradient bytes and round-trips",
          "[planner]") {
    const PlanReport a = plan(R"("training": {"fp32_grad_reduce": false})");
    const PlanReport b = plan(R"("training": {"fp32_grad_reduce": true})");
    CHECK_FALSE(*a.layout.fp32_grad_reduce);
    CHECK(*b.layout.fp32_grad_reduce);
    // ZeRO 1: 16-bit gradients reduce-scattered and parameters all-gathered, equal bytes; fp32
    // gradients make the first twice as large, so the sync carries 1.5 times the bytes.
    INFO(b.result.dp_bytes_per_device / a.result.dp_bytes_per_device);
    CHECK(cp::test::within_rel(b.result.dp_bytes_per_device, 1.5 * a.result.dp_bytes_per_device,
                               1e-9));
    CHECK(b.result.dp_comm_total_s > a.result.dp_comm_total_s);
    for (const bool stated : {false, true}) {
        const Scenario sc = scenario(std::string(R"("training": {"fp32_grad_reduce": )") +
                                     (stated ? "true" : "false") + "}");
        CHECK(parse_scenario(scenario_to_json(sc), "t.json").training.fp32_grad_reduce == stated);
    }
    CHECK_FALSE(parse_scenario(scenario_to_json(scenario("")), "t.json")
                    .training.fp32_grad_reduce.has_value());
}

TEST_CASE("megatron-core bf16 reduces gradients in fp32 unless the scenario says false",
          "[planner]") {
    const PlanReport by_default = plan(R"("training": {"framework": "megatron-core"})");
    const PlanReport fp32 =
        plan(R"("training": {"framework": "megatron-core", "fp32_grad_reduce": true})");
    const PlanReport half =
        plan(R"("training": {"framework": "megatron-core", "fp32_grad_reduce": false})");
    REQUIRE(by_default.layout.fp32_grad_reduce.has_value());
    CHECK(*by_default.layout.fp32_grad_reduce);
    CHECK(by_default.result.dp_bytes_per_device == fp32.result.dp_bytes_per_device);
    CHECK_FALSE(*half.layout.fp32_grad_reduce);
    CHECK(half.result.dp_bytes_per_device < by_default.result.dp_bytes_per_device);
    // The plan JSON reports the resolved value.
    CHECK(plan_report_json(by_default).at("layout").at("fp32_grad_reduce").get<bool>());
    CHECK_FALSE(plan_report_json(half).at("layout").at("fp32_grad_reduce").get<bool>());
    // `automatic` on NVIDIA GPUs is megatron-core: the same default.
    CHECK(*plan("").layout.fp32_grad_reduce);
}

TEST_CASE("each framework's default gradient reduce precision", "[planner]") {
    const auto resolve = [](Framework f, Precision p, int zero) {
        return resolve_fp32_grad_reduce(std::nullopt, f, p, zero);
    };
    // Megatron-LM --bf16 (and FP8 on BF16 weights) forces fp32 accumulation and reduction; NeMo
    // recipes' bf16_mixed sets grad_reduce_in_fp32; FP16 stays 16-bit.
    for (const Framework f : {Framework::megatron_lm, Framework::megatron_core, Framework::nemo}) {
        CHECK(resolve(f, Precision::bf16, 1));
        CHECK(resolve(f, Precision::fp8, 1));
        CHECK_FALSE(resolve(f, Precision::fp16, 1));
    }
    // DeepSpeed: BF16_Optimizer (fp32 gradients) without ZeRO, the weights' dtype under ZeRO.
    for (const Framework f : {Framework::deepspeed, Framework::megatron_deepspeed}) {
        CHECK(resolve(f, Precision::bf16, 0));
        CHECK_FALSE(resolve(f, Precision::bf16, 1));
        CHECK_FALSE(resolve(f, Precision::bf16, 3));
    }
    // PyTorch FSDP's reduce_dtype None is the compute dtype.
    CHECK_FALSE(resolve(Framework::pytorch_fsdp, Precision::bf16, 3));
    CHECK_FALSE(resolve(Framework::neuronx_distributed, Precision::bf16, 1));
    // A stated value wins either way.
    CHECK_FALSE(resolve_fp32_grad_reduce(false, Framework::megatron_core, Precision::bf16, 1));
    CHECK(resolve_fp32_grad_reduce(true, Framework::pytorch_fsdp, Precision::bf16, 3));
}

TEST_CASE("megatron-deepspeed's BF16_Optimizer all-reduces fp32 gradients whole, then gathers",
          "[planner]") {
    // ZeRO 1 with fp32 gradients: a ZeRO-1 optimizer reduce-scatters them (4 bytes) and gathers
    // the 16-bit weights (2), (n-1)/n x 6 bytes per parameter; DeepSpeed's pipeline engine under
    // BF16 all-reduces them whole (2 x 4) before the same gather, (n-1)/n x 10.
    const std::string layout = R"("parallel": {"tp": 1, "pp": 2, "dp": 8, "zero": 1}, )";
    const auto run = [&](const char* framework) {
        const Scenario sc = parse_scenario(
            R"({"name": "t", "model": {"preset": "llama2-7b"}, "cluster": {"nodes": 2},
                "precision": "bf16", )" +
                layout + R"("training": {"framework": ")" + framework +
                R"(", "fp32_grad_reduce": true}})",
            "t.json");
        PlanReport r = simulate_plan(sc, cp::test::priced_a100_node(), nullptr);
        REQUIRE(r.result.valid());
        return r;
    };
    const PlanReport lm = run("megatron-lm");
    const PlanReport ds = run("megatron-deepspeed");
    INFO(ds.result.dp_bytes_per_device / lm.result.dp_bytes_per_device);
    CHECK(cp::test::within_rel(ds.result.dp_bytes_per_device,
                               10.0 / 6.0 * lm.result.dp_bytes_per_device, 1e-9));
    CHECK(ds.result.dp_comm_total_s > lm.result.dp_comm_total_s);
}
