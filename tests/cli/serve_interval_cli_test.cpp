// Ranges on the serving figures in `serve --json` and its text: a TensorRT-LLM plan on H100 rests
// on two sources' runs, vLLM (no published runs of its own) is unvalidated with the widest range,
// and every figure's own residual table is listed.
#include "cli_sandbox.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace {

using cp::test::run_cli;
using cp::test::Sandbox;
using nlohmann::json;

const std::string kScenario =
    std::string(CLUSTERPLAN_SOURCE_DIR) + "/resources/scenarios/serve-llama3-70b-h100-fp8.json";

json serve_json(const std::string& scenario) {
    const auto r = run_cli({"serve", "--json", scenario});
    INFO(r.err);
    REQUIRE(r.code == 0);
    return json::parse(r.out);
}

double span(const json& interval) {
    return interval[1].get<double>() / interval[0].get<double>();
}

// [low, high] around nothing in particular: ordered, positive.
void check_range(const json& j, const char* field) {
    INFO(field);
    REQUIRE(j[field].is_array());
    CHECK(j[field][0].get<double>() > 0);
    CHECK(j[field][0].get<double>() < j[field][1].get<double>());
}

} // namespace

TEST_CASE("serve --json gives every serving figure a range and says what it rests on",
          "[cli][serving][interval]") {
    Sandbox box;
    const json trt = serve_json(kScenario);
    for (const char* f : {"output_tokens_per_s_interval", "ttft_ms_interval", "tpot_ms_interval",
                          "usd_per_million_output_tokens_interval"})
        check_range(trt, f);
    CHECK(trt["confidence"] == 0.8);
    CHECK(trt["validated"] == true);
    CHECK(trt["validation"]["bucket"] == "tensorrt-llm / hopper");
    CHECK(trt["validation"]["basis"] == "published_runs");
    CHECK(trt["validation"]["runs"].get<int>() >= 5);
    CHECK(trt["validation"]["sources"].get<int>() >= 2);
    CHECK(trt["validation"]["note"].get<std::string>().rfind("validated", 0) == 0);
    // TTFT on Hopper rests on two sources (the TensorRT-LLM online table and the NIM sweep).
    CHECK(trt["validation"]["figures"]["ttft"]["validated"] == true);
    // Cost per token follows throughput: the same factors, inverted.
    const double tok = trt["output_tokens_per_s"].get<double>();
    const double usd = trt["usd_per_million_output_tokens"].get<double>();
    CHECK_REL(trt["output_tokens_per_s_interval"][0].get<double>() *
                  trt["usd_per_million_output_tokens_interval"][1].get<double>() / usd,
              tok, 1e-9);

    json sc = json::parse(cp::test::read_bytes(kScenario));
    sc["serving"]["engine"] = "vllm";
    sc["serving"]["weights"] = "bf16";
    sc["serving"]["kv_cache"] = "bf16";
    sc["serving"]["tp"] = 4;
    const json vllm = serve_json(box.write("vllm.json", sc.dump()).string());
    // vLLM's profile on Hopper rests on vLLM 0.6 (4 x H100) and SGLang (4 x H100, 4-8 x H200).
    CHECK(vllm["validated"] == true);
    CHECK(vllm["validation"]["basis"] == "published_runs");
    CHECK(vllm["validation"]["bucket"] == "vllm / hopper");
    CHECK(vllm["validation"]["runs"].get<int>() >= 5);
    CHECK(vllm["validation"]["sources"].get<int>() >= 2);

    // TGI has no published run on Hopper: below the runs and sources a range needs.
    sc["serving"]["engine"] = "tgi";
    const json tgi = serve_json(box.write("tgi.json", sc.dump()).string());
    CHECK(tgi["validated"] == false);
    CHECK(tgi["validation"]["basis"] == "unvalidated");
    CHECK(tgi["validation"]["bucket"] == "tgi / hopper");
    CHECK(tgi["validation"]["runs"] == 0);
    CHECK(span(tgi["output_tokens_per_s_interval"]) > span(trt["output_tokens_per_s_interval"]));

    const auto text = run_cli({"serve", box.write("tgi_text.json", sc.dump()).string()});
    REQUIRE(text.code == 0);
    CHECK_THAT(text.out, Catch::Contains("Ranges (tgi / hopper):"));
    CHECK_THAT(text.out, Catch::Contains("output throughput"));
    CHECK_THAT(text.out, Catch::Contains("unvalidated: the model's error on any measured run"));
    CHECK_THAT(text.out, Catch::Contains("no measured run supports this estimate"));
    const auto trt_text = run_cli({"serve", kScenario});
    CHECK_THAT(trt_text.out, Catch::Contains("80 % of comparable runs within"));
}

TEST_CASE("serve --json at a request rate gives TTFT and TPOT over the capacity's range",
          "[cli][serving][interval]") {
    Sandbox box;
    CHECK(!serve_json(kScenario).contains("load_range")); // no rate: no queue to range over
    json sc = json::parse(cp::test::read_bytes(kScenario));
    sc["serving"]["request_rate_per_s"] = 0.05;
    sc["serving"]["replicas"] = 1;
    const json j = serve_json(box.write("rate.json", sc.dump()).string());
    REQUIRE(j.contains("load_range"));
    const json& lr = j["load_range"];
    REQUIRE(lr["utilization"][0].is_number());
    CHECK(lr["utilization"][0].get<double>() <= lr["utilization"][1].get<double>());
    CHECK(lr["ttft_ms"][0].get<double>() <= j["ttft_ms"].get<double>());
    CHECK(lr["tpot_ms"][0].get<double>() <= j["tpot_ms"].get<double>());
    CHECK(lr["may_overload"].is_boolean());
}
