// A system whose GPUs are a point-to-point NVLink board (serving run field nvlink_mesh_gpus): a
// tensor-parallel pair all-reduces over the links joining it (6 of an H100's 18 on an HGX H100
// 4-GPU board), so its steps are longer than on the instance's NVSwitch; a single-GPU copy does
// not see the board.
#include "clusterplan/sim/serving_plan.h"
#include "serving_fixture.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <string>

using namespace cp::sim;

namespace {

const ServingRun& run_named(const std::string& id) {
    const auto& runs = published_serving_runs().runs;
    const auto it =
        std::find_if(runs.begin(), runs.end(), [&](const auto& r) { return r.id == id; });
    REQUIRE(it != runs.end());
    return *it;
}

} // namespace

TEST_CASE("an NVLink board without NVSwitch slows a tensor-parallel pair, not a single GPU") {
    auto& fx = cp::test::serving_fixture();
    const NodeSpec p5 = fx.node("p5.48xlarge");
    ServingRun pair = run_named("mlperf41-h100-80gb-llama2-70b-fp8-tp2x4-offline");
    REQUIRE(pair.tp == 2);
    const double switched = predict_serving_run(pair, p5, fx.factors);
    pair.nvlink_mesh_gpus = 4;
    CHECK(predict_serving_run(pair, p5, fx.factors) < 0.97 * switched);
    ServingRun single = run_named("mlperf41-h100-80gb-mixtral-8x7b-fp8-tp1x8-offline");
    REQUIRE(single.tp == 1);
    const double alone = predict_serving_run(single, p5, fx.factors);
    single.nvlink_mesh_gpus = 4;
    CHECK(predict_serving_run(single, p5, fx.factors) == alone);
}

TEST_CASE("published serving runs: nvlink_mesh_gpus is a board of 2 to 64 GPUs") {
    const std::string head = R"({"schema": "clusterplan.serving_runs/1", "sources": {"s": "t"},
        "models": {"m": {"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8,
        "ffn_hidden": 14336, "gated_mlp": true, "vocab": 128256}},
        "runs": [{"id": "a", "source": "s", "engine": "tensorrt-llm", "model": "m",
        "accelerator": "H100-80GB", "instance": "p5.48xlarge", "tp": 2, "weights": "fp8",
        "input_tokens": 128, "output_tokens": 64, "value": 100, "metric": "output_tokens_per_s",
        "nvlink_mesh_gpus": )";
    const ServingRunSet ok = parse_serving_runs(head + "4}]}");
    REQUIRE(ok.runs.size() == 1);
    CHECK(ok.runs[0].nvlink_mesh_gpus == 4);
    for (const char* bad : {"1}]}", "65}]}", "-4}]}"}) {
        INFO(bad);
        CHECK_THROWS_WITH(parse_serving_runs(head + bad), Catch::Contains("nvlink_mesh_gpus"));
    }
}
