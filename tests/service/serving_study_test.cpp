// The serving question the Serve page edits: a scenario's serving section read into form
// fields and back through the scenario parser (same checks, same sentences as a file), instance
// families matched against the catalog, and the study ranked by the planner.
#include "clusterplan/service/scenario_input.h"
#include "clusterplan/service/serving_study.h"
#include "temp_catalog.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>
#include <string>

using cp::service::ServingQuestion;
using cp::test::TempCatalog;

namespace {

cp::sim::Scenario bundled(const char* name) {
    return cp::service::load_scenario_file(std::string(CLUSTERPLAN_SOURCE_DIR) +
                                           "/resources/scenarios/" + name);
}

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const cp::sim::ScenarioError& e) {
        return e.what();
    }
    return {};
}

} // namespace

TEST_CASE("A serving question round-trips through the scenario parser", "[service][serving]") {
    TempCatalog catalog;
    const cp::sim::Scenario file = bundled("serve-llama3-70b-slo.json");
    const ServingQuestion q = cp::service::serving_question(file);
    CHECK(q.preset == "llama3-70b");
    CHECK(q.engine == "vllm");
    CHECK(q.request_rate_per_s == 20);
    CHECK(q.input_tokens == 1000);
    CHECK(q.output_tokens == 300);
    CHECK(q.ttft_ms == 500);
    CHECK(q.tpot_ms == 60);
    CHECK(q.slo_p == 0.9);
    CHECK(q.spot);
    CHECK(q.instances.size() == 7);
    const cp::sim::Scenario back = cp::service::serving_scenario(q, catalog.get());
    REQUIRE(back.serving);
    CHECK(back.preset == "llama3-70b");
    CHECK(back.pricing == cp::sim::Pricing::spot);
    CHECK(back.serving->engine == cp::sim::ServingEngine::vllm);
    CHECK_FALSE(back.serving->weights.has_value());
    CHECK(back.serving->slo.p == 0.9);
    CHECK(back.constraints.instances == file.constraints.instances);
}

TEST_CASE("A serving question keeps the engine build, pipeline and replicas of its scenario",
          "[service][serving]") {
    TempCatalog catalog;
    const cp::sim::Scenario file = cp::sim::parse_scenario(R"({
        "schema": "clusterplan.scenario/1", "name": "built engine",
        "model": {"preset": "llama3-8b"},
        "cluster": {"region": "us-east-1"},
        "serving": {"tp": 2, "pp": 2, "batch": 64, "engine_max_batch": 256,
                    "gqa_shared_kv_reads": false, "async_scheduling": true,
                    "on_device_sampling": false, "request_rate_per_s": 5, "replicas": 3}})",
                                                           "test");
    const ServingQuestion q = cp::service::serving_question(file);
    CHECK(q.pp == 2);
    CHECK(q.replicas == 3);
    CHECK(q.engine_max_batch == 256);
    CHECK_FALSE(q.gqa_shared_kv_reads);
    CHECK(q.async_scheduling);
    CHECK_FALSE(q.on_device_sampling);
    const cp::sim::Scenario back = cp::service::serving_scenario(q, catalog.get());
    REQUIRE(back.serving);
    CHECK(back.serving->pp == 2);
    CHECK(back.serving->replicas == 3);
    CHECK(back.serving->engine_max_batch == 256);
    CHECK_FALSE(back.serving->gqa_shared_kv_reads);
    CHECK(back.serving->async_scheduling);
    CHECK_FALSE(back.serving->on_device_sampling);
    CHECK(back.serving->batch == 64);

    // Left out, they stay left out: searched, as the rate needs, built for the batch it runs.
    const cp::sim::Scenario plain = cp::service::serving_scenario(ServingQuestion{}, catalog.get());
    REQUIRE(plain.serving);
    CHECK_FALSE(plain.serving->pp.has_value());
    CHECK_FALSE(plain.serving->replicas.has_value());
    CHECK_FALSE(plain.serving->engine_max_batch.has_value());
    CHECK(plain.serving->gqa_shared_kv_reads);
    CHECK_FALSE(plain.serving->async_scheduling);
    CHECK(plain.serving->on_device_sampling);
}

TEST_CASE("A serving question keeps its custom hardware and engine alias", "[service][serving]") {
    TempCatalog catalog;
    const cp::sim::Scenario file = cp::sim::parse_scenario(R"({
        "schema": "clusterplan.scenario/1", "name": "on-prem pod",
        "model": {"preset": "llama3-8b"},
        "cluster": {"region": "us-east-1",
                    "custom": {"accelerator": "H100-80GB", "accelerators_per_node": 8,
                               "usd_per_node_hour": 40, "inter_node_gbps": 3200}},
        "serving": {"engine": "sglang", "tp": 2, "slo": {"p": 0.8}}})",
                                                           "test");
    const ServingQuestion q = cp::service::serving_question(file);
    CHECK(q.engine == "sglang");
    CHECK(q.slo_p == Approx(0.8));
    CHECK_FALSE(q.cluster_json.empty());
    const cp::sim::Scenario back = cp::service::serving_scenario(q, catalog.get());
    REQUIRE(back.custom);
    CHECK(back.custom->accelerator == "H100-80GB");
    CHECK(back.custom->accelerators_per_node == 8);
    CHECK(back.custom->usd_per_node_hour == Approx(40));
    REQUIRE(back.serving);
    CHECK(back.serving->engine_as_given == "sglang");
    CHECK(back.serving->slo.p == Approx(0.8));
    // A catalog scenario carries no cluster fields of its own.
    CHECK(cp::service::serving_question(bundled("serve-llama3-8b-chat.json")).cluster_json.empty());
}

TEST_CASE("A serving question keeps a model its file shapes: no preset, or overridden fields",
          "[service][serving]") {
    TempCatalog catalog;
    // A bundled preset scenario is the preset alone: the form shows and writes the preset.
    CHECK(cp::service::serving_question(bundled("serve-llama3-70b-slo.json")).model_json.empty());

    const cp::sim::Scenario custom = cp::sim::parse_scenario(R"({
        "schema": "clusterplan.scenario/1", "name": "own model",
        "model": {"layers": 40, "hidden": 5120, "heads": 40, "kv_heads": 8,
                  "ffn_hidden": 17408, "gated_mlp": true, "vocab": 151936, "seq_len": 4096},
        "cluster": {"region": "us-east-1"},
        "serving": {"input_tokens": 512, "output_tokens": 128}})",
                                                             "test");
    const ServingQuestion q = cp::service::serving_question(custom);
    CHECK(q.preset.empty());
    CHECK_FALSE(q.model_json.empty());
    CHECK(q.model_generates);
    const cp::sim::Scenario back = cp::service::serving_scenario(q, catalog.get());
    CHECK(back.preset.empty());
    CHECK(back.workload.shape.layers == 40);
    CHECK(back.workload.shape.kv_heads == 8);
    CHECK(back.workload.shape.vocab == 151936);

    const cp::sim::Scenario longer = cp::sim::parse_scenario(R"({
        "schema": "clusterplan.scenario/1", "name": "deeper 8B",
        "model": {"preset": "llama3-8b", "layers": 40},
        "cluster": {"region": "us-east-1"}, "serving": {}})",
                                                             "test");
    const ServingQuestion deeper = cp::service::serving_question(longer);
    CHECK(deeper.preset == "llama3-8b");
    CHECK_FALSE(deeper.model_json.empty());
    CHECK(cp::service::serving_scenario(deeper, catalog.get()).workload.shape.layers == 40);
}

TEST_CASE("A reshaped model writes only the fields that changed and is read back first",
          "[service][serving]") {
    using json = nlohmann::json;
    ServingQuestion q;
    q.preset = "qwen3-30b-a3b";
    const cp::sim::TransformerShape published = cp::service::question_model(q).shape;
    REQUIRE(published.head_dim > 0);
    cp::sim::TransformerShape shape = published;
    shape.layers = 24;
    q.model_json = cp::service::reshaped_model_json(q, shape);
    CHECK(json::parse(q.model_json) == json{{"preset", "qwen3-30b-a3b"}, {"layers", 24}});
    const cp::sim::Workload back = cp::service::question_model(q);
    CHECK(back.shape.layers == 24);
    CHECK(back.shape.moe.experts == published.moe.experts);

    // A shape the parser refuses throws its sentence, naming the field.
    shape.kv_heads = 5;
    CHECK(error_of([&] { cp::service::reshaped_model_json(q, shape); }).find("model.kv_heads") !=
          std::string::npos);
    // A depth below the question's pipeline degree is refused as serving.pp (a depth it does not
    // divide runs on uneven stages).
    shape = back.shape;
    q.pp = 4;
    shape.layers = 3;
    CHECK(error_of([&] { cp::service::reshaped_model_json(q, shape); }).find("serving.pp") !=
          std::string::npos);

    // A head width of 0 is "hidden / heads": the field is dropped, not written as 0.
    ServingQuestion own;
    own.preset.clear();
    own.model_json = R"({"layers": 4, "hidden": 1024, "heads": 8, "head_dim": 256,
                         "seq_len": 2048, "vocab": 32000})";
    shape = cp::service::question_model(own).shape;
    shape.head_dim = 0;
    CHECK_FALSE(json::parse(cp::service::reshaped_model_json(own, shape)).contains("head_dim"));
}

TEST_CASE("A reshaped model routes experts under the file's names", "[service][serving]") {
    using json = nlohmann::json;
    ServingQuestion q;
    q.preset = "mixtral-8x7b";
    cp::sim::TransformerShape shape = cp::service::question_model(q).shape;
    REQUIRE(shape.moe.enabled());
    shape.moe.experts = 16;
    shape.moe.experts_per_token = 4;
    const std::string routed = cp::service::reshaped_model_json(q, shape);
    CHECK(json::parse(routed) ==
          json{{"preset", "mixtral-8x7b"}, {"experts", 16}, {"experts_per_token", 4}});
    // A preset's experts cannot be stated away; one expert is no routing. Both name the field.
    shape.moe = cp::sim::MoeShape{};
    CHECK(error_of([&] { cp::service::reshaped_model_json(q, shape); }).find("model.experts") !=
          std::string::npos);
    shape.moe = cp::service::question_model(q).shape.moe;
    shape.moe.experts = 1;
    CHECK(error_of([&] { cp::service::reshaped_model_json(q, shape); }).find("model.experts") !=
          std::string::npos);

    // A dense model of the file's own becomes a Mixture of Experts, and dense again.
    ServingQuestion own;
    own.preset.clear();
    own.model_json = R"({"layers": 4, "hidden": 1024, "heads": 8, "seq_len": 2048,
                         "vocab": 32000})";
    shape = cp::service::question_model(own).shape;
    shape.moe.experts = 8;
    shape.moe.experts_per_token = 2;
    shape.moe.moe_ffn_hidden = 1024;
    own.model_json = cp::service::reshaped_model_json(own, shape);
    CHECK(cp::service::question_model(own).shape.moe.enabled());
    shape.moe = cp::sim::MoeShape{};
    const json dense = json::parse(cp::service::reshaped_model_json(own, shape));
    CHECK_FALSE(dense.contains("experts"));
    CHECK_FALSE(dense.contains("moe_ffn_hidden"));
}

TEST_CASE("A reshaped model states learned positions, the attention kernel and the capacity factor",
          "[service][serving]") {
    using json = nlohmann::json;
    ServingQuestion q;
    q.preset = "mixtral-8x7b";
    const cp::sim::TransformerShape base = cp::service::question_model(q).shape;
    REQUIRE(base.flash_attention); // the automatic framework's fused kernel
    cp::sim::TransformerShape shape = base;
    shape.learned_positions = true;
    shape.flash_attention_v1 = true;
    shape.moe.capacity_factor = 1.25;
    q.model_json = cp::service::reshaped_model_json(q, shape);
    CHECK(json::parse(q.model_json) == json{{"preset", "mixtral-8x7b"},
                                            {"learned_positions", true},
                                            {"attention_kernel", "flash1"},
                                            {"capacity_factor", 1.25}});
    const cp::sim::TransformerShape read = cp::service::question_model(q).shape;
    CHECK(read.learned_positions);
    CHECK(read.flash_attention_v1);
    CHECK(read.moe.capacity_factor == Approx(1.25));
    // Unfused is stated as flash_attention false; no cap drops the factor.
    shape.flash_attention = false;
    shape.flash_attention_v1 = false;
    shape.moe.capacity_factor = 0;
    const json unfused = json::parse(cp::service::reshaped_model_json(q, shape));
    CHECK(unfused == json{{"preset", "mixtral-8x7b"},
                          {"learned_positions", true},
                          {"flash_attention", false}});
}

TEST_CASE("A question is checked with its model before a pipeline degree is taken",
          "[service][serving]") {
    ServingQuestion q;
    q.preset = "llama3-8b"; // 32 layers
    q.pp = 4;
    q.replicas = 3;
    CHECK(error_of([&] { cp::service::check_question(q); }).empty());
    q.pp = 3; // uneven stages: 11, 11, 10 layers
    CHECK(error_of([&] { cp::service::check_question(q); }).empty());
    q.pp = 40;
    CHECK(error_of([&] { cp::service::check_question(q); }).find("serving.pp") !=
          std::string::npos);
}

TEST_CASE("Instance families match whole families only", "[service][serving]") {
    TempCatalog catalog;
    const auto g6 = cp::service::match_instances({"G6"}, catalog.get(), "us-east-1");
    REQUIRE_FALSE(g6.empty());
    for (const auto& type : g6)
        CHECK(type.rfind("g6.", 0) == 0);
    const auto one = cp::service::match_instances({" inf2.xlarge "}, catalog.get(), "us-east-1");
    CHECK(one == std::vector<std::string>{"inf2.xlarge"});
    const std::string error = error_of([&] {
        cp::service::match_instances({"g6", "h100"}, catalog.get(), "us-east-1");
    });
    CHECK(error.find("constraints.instances") != std::string::npos);
    CHECK(error.find("'h100'") != std::string::npos);
}

TEST_CASE("A form refuses what a file refuses, with the parser's sentence", "[service][serving]") {
    TempCatalog catalog;
    ServingQuestion q;
    q.preset = "bert-large";
    q.output_tokens = 16; // an encoder generates nothing
    CHECK(error_of([&] {
              cp::service::serving_scenario(q, catalog.get());
          }).find("serving.output_tokens") != std::string::npos);
    q = ServingQuestion{};
    q.preset = "no-such-model";
    CHECK(error_of([&] { cp::service::serving_scenario(q, catalog.get()); }).find("model") !=
          std::string::npos);
    CHECK_FALSE(cp::service::preset_generates("bert-large"));
    CHECK_FALSE(cp::service::preset_generates("resnet50"));
    CHECK(cp::service::preset_generates("llama3-8b"));
}

TEST_CASE("The study ranks SLO-meeting deployments by cost, one instance with its own plan",
          "[service][serving]") {
    TempCatalog catalog;
    ServingQuestion q; // Llama 3 8B chat at 10 requests/s, TTFT 500 ms, TPOT 50 ms
    q.instances = {"g6", "p5", "inf2", "p4d", "g4dn"};
    const cp::service::ServingStudy study =
        cp::service::study_serving(cp::service::serving_scenario(q, catalog.get()), catalog.get());
    REQUIRE(study.ranked.size() > 5);
    CHECK(study.meeting_slo() > 5);
    CHECK(study.servable() >= study.meeting_slo());
    double previous = 0;
    for (int i = 0; i < study.meeting_slo(); ++i) {
        const auto& p = study.ranked[std::size_t(i)];
        CHECK(p.meets_slo);
        CHECK(p.usd_per_million_output_tokens >= previous);
        previous = p.usd_per_million_output_tokens;
    }
    q.instances = {"p5.48xlarge"};
    const auto one =
        cp::service::study_serving(cp::service::serving_scenario(q, catalog.get()), catalog.get());
    REQUIRE(one.ranked.size() == 1);
    CHECK(one.ranked.front().instance == "p5.48xlarge");
    cp::sim::Scenario training = bundled("llama3-8b-any.json");
    CHECK(error_of([&] { cp::service::study_serving(training, catalog.get()); }).find("serving") !=
          std::string::npos);
}
