// Prediction intervals through simulate, sweep and recommend: a B200 plan, which no published run
// covers, is unvalidated with a wide range; a Trainium1 plan is validated by its published
// sources and a Trainium2 one, which none covers, is not; a published Megatron run on A100 lies
// inside its plan's range; and recommend says when its ranking is within the model's noise.
#include "cli_sandbox.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

namespace {

using cp::test::run_cli;
using cp::test::Sandbox;
using nlohmann::json;

std::string scenario(const std::string& name) {
    return std::string(CLUSTERPLAN_TEST_DATA_DIR) + "/scenarios/" + name;
}

json run_json(const std::vector<std::string>& argv) {
    const auto r = run_cli(argv);
    INFO(r.err);
    REQUIRE(r.code == 0);
    return json::parse(r.out);
}

double span(const json& interval) {
    return interval[1].get<double>() / interval[0].get<double>();
}

void check_brackets(const json& plan, const char* figure) {
    INFO(figure);
    const json& iv = plan[std::string(figure) + "_interval"];
    REQUIRE(iv.is_array());
    const double v = plan[figure].get<double>();
    CHECK(iv[0].get<double>() <= v * 1.0000001);
    CHECK(iv[1].get<double>() >= v * 0.9999999);
}

} // namespace

TEST_CASE("simulate --json: a B200 plan is unvalidated and gets a wide range", "[cli][interval]") {
    Sandbox box;
    const json b200 = run_json({"simulate", "--json", scenario("llama2_7b_p6_b200.json")});
    const json a100 = run_json({"simulate", "--json", scenario("gpt3_175b_p4d_megatron.json")});
    const json trn = run_json({"simulate", "--json", scenario("llama2_7b_trn1.json")});
    CHECK(b200["validated"] == false);
    CHECK(b200["validation"]["basis"] == "unvalidated");
    CHECK(b200["confidence"] == 0.8);
    for (const json* plan : {&a100, &trn}) {
        CHECK((*plan)["validated"] == true);
        CHECK((*plan)["validation"]["runs"].get<int>() >= 5);
        CHECK((*plan)["validation"]["sources"].get<int>() >= 2);
    }
    CHECK(trn["validation"]["bucket"] == "neuron / trainium");
    CHECK(span(b200["step_time_s_interval"]) > 1.5 * span(a100["step_time_s_interval"]));
    for (const json* plan : {&b200, &a100, &trn})
        for (const char* figure :
             {"step_time_s", "tokens_per_s", "samples_per_s", "time_to_train_h", "cost_usd"})
            check_brackets(*plan, figure);
    const auto text = run_cli({"simulate", scenario("llama2_7b_p6_b200.json")});
    CHECK_THAT(text.out, Catch::Contains("no measured run supports this estimate; calibrate with "
                                         "clusterplan-probe or a job log"));
}

TEST_CASE("simulate --json: a Trn2 training plan is unvalidated, a Trn1 one validated",
          "[cli][interval]") {
    Sandbox box;
    // The published NeuronX Distributed training runs are all on Trn1; none covers Trn2.
    const auto trn2 = box.write("llama2-7b-trn2.json", R"({"model": {"preset": "llama2-7b"},
        "cluster": {"instance": "trn2.48xlarge", "nodes": 4, "region": "us-east-2"},
        "parallel": {"global_batch": 1024}, "precision": "bf16", "training": {"tokens": 1e11}})");
    const json on_trn2 = run_json({"simulate", "--json", trn2.string()});
    const json on_trn1 = run_json({"simulate", "--json", scenario("llama2_7b_trn1.json")});
    CHECK(on_trn2["validated"] == false);
    CHECK(on_trn2["validation"]["basis"] == "unvalidated");
    CHECK(on_trn2["validation"]["bucket"] == "neuron / trainium2");
    CHECK(on_trn1["validated"] == true);
    CHECK(span(on_trn2["step_time_s_interval"]) > span(on_trn1["step_time_s_interval"]));
    check_brackets(on_trn2, "step_time_s");
}

TEST_CASE("the Megatron-measured GPT-3 175B step lies inside its p4d plan's range",
          "[cli][interval]") {
    Sandbox box;
    const json plan = run_json({"simulate", "--json", scenario("gpt3_175b_p4d_megatron.json")});
    // Korthikanti et al. 2022 ("Reducing Activation Recomputation in Large Transformer Models")
    // Table 5: GPT-3 175B, tp 8 x pp 8 on 64 A100 80GB, full recompute, 18.13 s per iteration.
    const double measured_s = 18.13;
    const json& iv = plan["step_time_s_interval"];
    CHECK(iv[0].get<double>() <= measured_s);
    CHECK(iv[1].get<double>() >= measured_s);
    const auto text = run_cli({"simulate", scenario("gpt3_175b_p4d_megatron.json")});
    CHECK_THAT(text.out, Catch::Contains("(80 % of comparable runs within "));
}

TEST_CASE("recommend keeps plans apart only when their ranges say so", "[cli][interval]") {
    Sandbox box;
    json sc = json::parse(cp::test::read_bytes(scenario("llama2_7b_p6_b200.json")));
    sc["cluster"].erase("instance");
    sc["cluster"].erase("nodes");
    sc["constraints"]["instances"] = {"p6-b200.48xlarge", "p4d.24xlarge", "p5.48xlarge"};
    const std::string file = box.write("mixed.json", sc.dump()).string();
    const json rec = run_json({"recommend", "--json", file, "--top", "3", "--threads", "1"});
    const json& recs = rec["recommendations"];
    REQUIRE(recs.size() == 3);
    bool unvalidated_line = false, compared = false;
    for (const json& r : recs) {
        const json& plan = r["plan"];
        REQUIRE(plan.contains("cost_usd_interval"));
        const std::string all = r["limits"].dump();
        const bool says = all.find("no measured run supports this estimate") != std::string::npos;
        CHECK(says == !plan["validated"].get<bool>());
        unvalidated_line = unvalidated_line || says;
    }
    CHECK(unvalidated_line); // the B200 plan
    for (std::size_t i = 1; i < recs.size(); ++i) {
        const std::string why = recs[i]["reasons"].dump();
        const bool noise = why.find("within the noise") != std::string::npos;
        const bool apart = why.find("beyond the model's noise") != std::string::npos;
        const bool together = why.find("moves them together") != std::string::npos;
        CHECK(noise + apart + together == 1);
        compared = true;
    }
    CHECK(compared);

    const json sweep = run_json({"sweep", "--json", file, "--top", "5", "--threads", "1"});
    REQUIRE(!sweep["plans"].empty());
    for (const json& p : sweep["plans"]) {
        CHECK(p["total_cost_usd_interval"].is_array());
        CHECK(p.contains("validated"));
        CHECK(p["validation"].contains("bucket"));
    }
}
