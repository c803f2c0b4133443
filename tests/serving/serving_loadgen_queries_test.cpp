// The query count an MLPerf LoadGen run states (`loadgen_queries`, its log's
// generated_query_count): read for a LoadGen run at a rate, refused elsewhere with the field named.
#include "clusterplan/sim/serving_runs.h"

#include <catch2/catch.hpp>
#include <string>

using namespace cp::sim;

TEST_CASE("published serving runs: loadgen_queries is a LoadGen run's query count") {
    const std::string head = R"({"schema": "clusterplan.serving_runs/1", "sources": {"s": "t"},
        "models": {"m": {"layers": 32, "hidden": 4096, "heads": 32, "kv_heads": 8,
        "ffn_hidden": 14336, "gated_mlp": true, "vocab": 128256}},
        "runs": [{"id": "a", "source": "s", "engine": "tensorrt-llm", "model": "m",
        "accelerator": "H100-80GB", "instance": "p5.48xlarge", "tp": 1, "weights": "fp8",
        "input_tokens": 871, "output_tokens": 128, "value": 100, "metric": "ttft_ms", )";
    const ServingRunSet ok = parse_serving_runs(
        head + R"("loadgen": true, "request_rate_per_s": 40, "loadgen_queries": 26736}]})");
    REQUIRE(ok.runs.size() == 1);
    CHECK(ok.runs[0].loadgen_queries == 26736);
    CHECK(ok.runs[0].requests == 0);
    for (const char* bad : {R"("loadgen": true, "request_rate_per_s": 40, "loadgen_queries": 0}]})",
                            R"("loadgen": true, "loadgen_queries": 26736}]})",
                            R"("request_rate_per_s": 40, "loadgen_queries": 26736}]})"}) {
        INFO(bad);
        CHECK_THROWS_WITH(parse_serving_runs(head + bad), Catch::Contains("loadgen_queries"));
    }
}
