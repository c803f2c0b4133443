// Finite runs whose answers end at EOS under a max_tokens cap last until the longest answer ends.
#include "clusterplan/sim/serving_plan.h"
#include "serving/serving_eval.h"
#include "serving/serving_model.h"
#include "serving_fixture.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <string>

using namespace cp::sim;

namespace {

ServingRun published_run(const std::string& id) {
    for (const auto& r : published_serving_runs().runs)
        if (r.id == id) return r;
    FAIL("no run " << id);
    throw;
}

} // namespace

TEST_CASE("serving runs: the longest of k answers spread evenly below the cap") {
    // Mean 344 under a 512 cap: lengths over [176, 512]; the longest of 100 is 512 - 336 / 101.
    CHECK_REL(longest_output_tokens(344, 512, 100), 512.0 - 336.0 / 101.0, 1e-12);
    // One answer, no cap, or a cap equal to the mean: the mean.
    CHECK_REL(longest_output_tokens(344, 512, 1), 344.0, 1e-12);
    CHECK_REL(longest_output_tokens(344, 0, 100), 344.0, 1e-12);
    CHECK_REL(longest_output_tokens(256, 256, 50), 256.0, 1e-12);
    // A mean below half the cap spreads over [1, 2 mean - 1]: the longest of 3 is 1 + 3/4 of it.
    CHECK_REL(longest_output_tokens(100, 512, 3), 199.0 - 198.0 / 4.0, 1e-12);
}

TEST_CASE(
    "serving runs: an offline run of answers that end at EOS drains at a shrinking batch, while "
    "an arrival stream's latencies keep the run's body") {
    auto& fx = cp::test::serving_fixture();
    // AccelMark, vLLM 0.7.3, 100 ShareGPT prompts at once on one H100, mean answer 344 of 512.
    ServingRun run = published_run("accelmark-vllm073-h100-llama3-8b-tp1-offline-tput");
    REQUIRE(run.output_tokens_max == 512);
    const NodeSpec node = fx.node(run.instance);
    const double spread = predict_serving_run(run, node, fx.factors);
    ServingRun fixed = run;
    fixed.output_tokens_max = 0;
    const double equal = predict_serving_run(fixed, node, fx.factors);
    // The run takes more steps (about 509 against 344) at a smaller mean batch, so its throughput
    // falls by less than the step count grows.
    CHECK(spread < equal);
    CHECK(spread > equal * 344.0 / 509.0);
    // Online rows at 25 requests/s: the median step is unchanged by the drain after the arrivals.
    ServingRun online = published_run("accelmark-vllm073-h100-llama3-8b-tp1-qps25-tpot-p50");
    REQUIRE(online.output_tokens_max == 512);
    ServingRun online_fixed = online;
    online_fixed.output_tokens_max = 0;
    CHECK_REL(predict_serving_run(online, node, fx.factors),
              predict_serving_run(online_fixed, node, fx.factors), 1e-9);
}

TEST_CASE("published serving runs: a cap below the mean answer is refused, naming the field") {
    const std::string head = R"({"schema": "clusterplan.serving_runs/1", "sources": {"s": "t"},
        "models": {"m": {"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8,
                         "ffn_hidden": 14336, "gated_mlp": true, "vocab": 128256}},
        "runs": [{"id": "a", "source": "s", "engine": "vllm", "model": "m",
                  "accelerator": "H100-80GB", "instance": "p5.48xlarge", "tp": 1,
                  "weights": "bf16", "requests": 100, "input_tokens": 128,
                  "output_tokens": 300, "metric": "output_tokens_per_s", "value": 100)";
    CHECK(parse_serving_runs(head + R"(, "output_tokens_max": 512}]})").runs[0].output_tokens_max ==
          512);
    CHECK_THROWS_WITH(parse_serving_runs(head + R"(, "output_tokens_max": 200}]})"),
                      Catch::Contains("output_tokens_max"));
}
