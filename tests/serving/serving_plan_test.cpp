// Deployment search over the catalog: Llama 3 8B at 10 requests/s under a TTFT/TPOT SLO ranked
// over every instance (GPU, Inferentia, Trainium) with $/1M tokens; BERT-large latency at
// batch 1 on Inf2, G5 and G4dn; spot reclaim and headroom; the scenario's serving section.
#include "clusterplan/sim/presets.h"
#include "clusterplan/sim/scenario.h"
#include "clusterplan/sim/serving_plan.h"
#include "clusterplan/sim/serving_wording.h"
#include "serving_fixture.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <limits>
#include <set>

using namespace cp::sim;

namespace {

std::vector<NodeSpec> all_nodes(cp::catalog::Catalog& cat) {
    std::vector<NodeSpec> out;
    for (const auto& in : cat.instances()) {
        auto n = cat.node_spec(in.instance_type);
        if (n) out.push_back(*n);
    }
    return out;
}

} // namespace

TEST_CASE("serving search: Llama 3 8B at 10 req/s, TTFT <= 500 ms, TPOT <= 50 ms over the whole "
          "catalog") {
    auto& fx = cp::test::serving_fixture();
    ServingRequest req;
    req.name = "llama3-8b chat";
    req.workload = find_model_preset("llama3-8b")->workload;
    req.spec.input_tokens = 512;
    req.spec.output_tokens = 256;
    req.spec.request_rate_per_s = 10;
    req.spec.slo.ttft_ms = 500;
    req.spec.slo.tpot_ms = 50;
    const auto ranked = rank_serving(req, all_nodes(fx.catalog), fx.factors);
    REQUIRE(!ranked.empty());
    REQUIRE(ranked.front().valid);
    CHECK(ranked.front().meets_slo);
    std::set<std::string> families_meeting;
    std::printf("\nLlama 3 8B, 10 req/s, 512 in / 256 out, TTFT <= 500 ms, TPOT <= 50 ms:\n");
    for (const auto& p : ranked) {
        if (!p.valid) continue;
        std::printf("  %-18s %-11s %-5s tp%-2d x%-3d  TTFT %7.1f ms  TPOT %6.1f ms  $%8.2f/h  "
                    "$%7.3f / 1M tok%s\n",
                    p.instance.c_str(), enum_name(p.engine), enum_name(p.weights), p.tp, p.replicas,
                    p.ttft_ms, p.tpot_ms, p.usd_per_hour, p.usd_per_million_output_tokens,
                    p.meets_slo ? "" : "  (misses SLO)");
        if (p.meets_slo) families_meeting.insert(p.instance.substr(0, p.instance.find('.')));
        // Instances without a published price (trn2 in us-east-1) rank after the priced ones.
        if (std::isfinite(p.usd_per_hour)) CHECK(p.usd_per_million_output_tokens > 0);
    }
    // Every plan that meets the SLO is sorted by price, cheapest first.
    for (std::size_t i = 1; i < ranked.size(); ++i)
        if (ranked[i].meets_slo && std::isfinite(ranked[i].usd_per_million_output_tokens))
            CHECK(ranked[i - 1].usd_per_million_output_tokens <=
                  ranked[i].usd_per_million_output_tokens + 1e-9);
    for (const char* family : {"g6", "p4d", "p5", "inf2"}) {
        INFO(family);
        CHECK(families_meeting.count(family) == 1);
    }
}

TEST_CASE("serving: BERT-large at batch 1 on inf2.xlarge, g5.xlarge and g4dn.xlarge") {
    auto& fx = cp::test::serving_fixture();
    ServingRequest req;
    req.workload = find_model_preset("bert-large")->workload;
    req.spec.input_tokens = 128;
    req.spec.output_tokens = 0;
    req.spec.batch = 1;
    std::printf("\nBERT-large, batch 1, seq 128:\n");
    for (const char* type : {"inf2.xlarge", "g5.xlarge", "g4dn.xlarge"}) {
        const ServingPlan p = plan_serving(req, fx.node(type), fx.factors, nullptr);
        std::printf(
            "  %-12s %-9s latency %6.2f ms  %7.0f samples/s per replica  $%.3f / 1M samples  %s\n",
            type, enum_name(p.engine), p.latency_ms, p.samples_per_s,
            p.usd_per_million_output_tokens, p.valid ? "" : p.limits.reason.c_str());
        if (std::string(type) == "g5.xlarge" && !p.valid) {
            // The A10G has no published tensor peak; the plan must say so instead of guessing.
            CHECK(p.limits.reason.find("A10G") != std::string::npos);
            continue;
        }
        REQUIRE(p.valid);
        CHECK(p.latency_ms > 0.5);
        CHECK(p.latency_ms < 20);
    }
    const ServingPlan inf2 = plan_serving(req, fx.node("inf2.xlarge"), fx.factors, nullptr);
    CHECK(inf2.engine == ServingEngine::neuron);
    // Published: 2.69 ms p50 on one NeuronCore (Neuron 2.25).
    CHECK_REL(inf2.latency_ms, 2.69, 0.3);
}

TEST_CASE(
    "serving on spot: a reclaim takes out every replica on the instance, headroom covers it") {
    auto& fx = cp::test::serving_fixture();
    ServingRequest req;
    req.workload = find_model_preset("llama3-8b")->workload;
    req.spec.tp = 1;
    req.spec.input_tokens = 512;
    req.spec.output_tokens = 256;
    req.spec.request_rate_per_s = 40;
    req.spot = true;
    const ServingPlan p = plan_serving(req, fx.node("p5.48xlarge"), fx.factors, nullptr);
    REQUIRE(p.valid);
    CHECK(p.spot.replicas_per_node == 8);
    CHECK(p.spot.replicas_lost_per_reclaim == std::min(8, p.replicas));
    CHECK(p.spot.headroom_replicas == p.spot.replicas_lost_per_reclaim);
    CHECK(p.spot.nodes_with_headroom >= p.nodes);
}

TEST_CASE("an engine planned on another's profile keeps its own running cap") {
    CHECK(engine_max_running("SGLang") == 4096);
    CHECK(engine_max_running("vllm") == 0);
    CHECK(engine_max_running("lmdeploy") == 0);
    // Llama 3 8B on one H100 with short requests: vLLM's scheduler stops at 256 sequences while
    // the KV cache would hold more; SGLang, on the same profile, runs the batch the KV cache holds.
    auto& fx = cp::test::serving_fixture();
    ServingRequest req;
    req.workload = find_model_preset("llama3-8b")->workload;
    req.spec.tp = 1;
    req.spec.input_tokens = 128;
    req.spec.output_tokens = 128;
    req.spec.engine = ServingEngine::vllm;
    const ServingPlan vllm = plan_serving(req, fx.node("p5.48xlarge"), fx.factors, nullptr);
    req.spec.engine_as_given = "sglang";
    const ServingPlan sglang = plan_serving(req, fx.node("p5.48xlarge"), fx.factors, nullptr);
    REQUIRE(vllm.valid);
    REQUIRE(sglang.valid);
    CHECK(vllm.batch <= 256);
    CHECK(vllm.limits.batch_cap);
    CHECK(sglang.batch > 256);
    CHECK(sglang.output_tokens_per_s > vllm.output_tokens_per_s);
}

TEST_CASE("scenario serving section: defaults, round trip and errors naming the field") {
    const std::string text =
        R"({"model": {"preset": "llama3-8b"}, "cluster": {"instance": "g6e.xlarge"},
        "serving": {"engine": "vllm", "weights": "fp8", "input_tokens": 1000, "request_rate_per_s": 5,
                    "slo": {"ttft_ms": 300, "p": 0.9}}})";
    const Scenario sc = parse_scenario(text, "s.json");
    REQUIRE(sc.serving);
    CHECK(sc.serving.value().engine == ServingEngine::vllm);
    CHECK(sc.serving.value().output_tokens == 128);
    CHECK(sc.serving.value().slo.p == 0.9);
    const Scenario again = parse_scenario(scenario_to_json(sc), "again.json");
    REQUIRE(again.serving);
    CHECK(again.serving.value().input_tokens == 1000);
    CHECK(again.serving.value().request_rate_per_s == 5);
    CHECK_THROWS_WITH(parse_scenario(R"({"model": {"preset": "bert-large"}, "cluster": {},
        "serving": {"output_tokens": 10}})",
                                     "b.json"),
                      Catch::Contains("serving.output_tokens"));
    CHECK_THROWS_WITH(parse_scenario(R"({"model": {"preset": "llama3-8b"}, "cluster": {},
        "serving": {"weights": "fp4"}})",
                                     "c.json"),
                      Catch::Contains("serving.weights: unknown value 'fp4'"));
    CHECK_THROWS_WITH(parse_scenario(R"({"model": {"preset": "llama3-8b"}, "cluster": {},
        "serving": {"slo": {"p": 1.5}}})",
                                     "d.json"),
                      Catch::Contains("serving.slo.p"));
}

TEST_CASE("serving.engine accepts engines that run on one of the profiles, and says so") {
    const Scenario sc = parse_scenario(R"({"model": {"preset": "llama3-8b"}, "cluster": {},
        "serving": {"engine": "SGLang"}})",
                                       "s.json");
    REQUIRE(sc.serving);
    CHECK(sc.serving.value().engine == ServingEngine::vllm);
    CHECK(sc.serving.value().engine_as_given == "SGLang");
    // The name the user gave is kept through a save.
    const Scenario again = parse_scenario(scenario_to_json(sc), "again.json");
    CHECK(again.serving.value().engine_as_given == "SGLang");
    CHECK(parse_scenario(R"({"model": {"preset": "llama3-8b"}, "cluster": {},
        "serving": {"engine": "nim"}})",
                         "n.json")
              .serving.value()
              .engine == ServingEngine::tensorrt_llm);
    CHECK(parse_scenario(R"({"model": {"preset": "llama3-8b"}, "cluster": {},
        "serving": {"engine": "vllm"}})",
                         "v.json")
              .serving.value()
              .engine_as_given.empty());
    CHECK_THROWS_WITH(parse_scenario(R"({"model": {"preset": "llama3-8b"}, "cluster": {},
        "serving": {"engine": "ollama"}})",
                                     "o.json"),
                      Catch::Contains("serving.engine: unknown value 'ollama'") &&
                          Catch::Contains("sglang"));
}

TEST_CASE("serving.engine_max_batch and gqa_shared_kv_reads: defaults, round trip, bad values") {
    const std::string head = R"({"model": {"preset": "llama3-8b"}, "cluster": {}, "serving": )";
    const Scenario defaults = parse_scenario(head + R"({"engine": "tensorrt-llm"}})", "d.json");
    REQUIRE(defaults.serving);
    CHECK_FALSE(defaults.serving.value().engine_max_batch);
    CHECK(defaults.serving.value().gqa_shared_kv_reads);
    const Scenario defaults_again = parse_scenario(scenario_to_json(defaults), "d2.json");
    CHECK_FALSE(defaults_again.serving.value().engine_max_batch);
    CHECK(defaults_again.serving.value().gqa_shared_kv_reads);

    const Scenario sc = parse_scenario(
        head + R"({"batch": 64, "engine_max_batch": 256, "gqa_shared_kv_reads": false}})",
        "s.json");
    REQUIRE(sc.serving);
    CHECK(sc.serving.value().engine_max_batch == 256);
    CHECK_FALSE(sc.serving.value().gqa_shared_kv_reads);
    const Scenario again = parse_scenario(scenario_to_json(sc), "again.json");
    REQUIRE(again.serving);
    CHECK(again.serving.value().engine_max_batch == 256);
    CHECK_FALSE(again.serving.value().gqa_shared_kv_reads);
    CHECK(again.serving.value().batch == 64);

    // Each bad value is one error naming the field.
    const std::pair<std::string, std::string> bad[] = {
        {R"({"engine_max_batch": 0})", "serving.engine_max_batch: must be an integer from 1"},
        {R"({"engine_max_batch": -8})", "serving.engine_max_batch: must be an integer from 1"},
        {R"({"engine_max_batch": 12.5})", "serving.engine_max_batch: must be an integer"},
        {R"({"engine_max_batch": 1e12})", "serving.engine_max_batch: must be an integer from 1"},
        {R"({"engine_max_batch": "256"})", "serving.engine_max_batch: must be an integer, got"},
        {R"({"engine_max_batch": [256]})", "serving.engine_max_batch: must be an integer, got"},
        {R"({"gqa_shared_kv_reads": "yes"})", "serving.gqa_shared_kv_reads: must be true or false"},
        {R"({"gqa_shared_kv_reads": 1})", "serving.gqa_shared_kv_reads: must be true or false"},
        {R"({"batch": 512, "engine_max_batch": 256})",
         "serving.batch: must not exceed serving.engine_max_batch (256)"}};
    for (const auto& [serving, message] : bad) {
        INFO(serving);
        CHECK_THROWS_WITH(parse_scenario(head + serving + "}", "b.json"), Catch::Contains(message));
    }
}

namespace {

// Llama 3 8B on vLLM at TP 8, batch 4, one request per second, with one serving flag set:
// the decode step the flag changes.
template <class Fixture, class Edit>
double vllm_tp8_tpot_ms(const Fixture& fx, const char* instance, Edit edit) {
    ServingRequest req;
    req.workload = find_model_preset("llama3-8b")->workload;
    req.spec.engine = ServingEngine::vllm;
    req.spec.tp = 8;
    req.spec.batch = 4;
    req.spec.input_tokens = 512;
    req.spec.output_tokens = 128;
    req.spec.request_rate_per_s = 1;
    edit(req.spec);
    const auto ranked = rank_serving(req, {*fx.catalog.node_spec(instance)}, fx.factors);
    REQUIRE(!ranked.empty());
    REQUIRE(ranked.front().valid);
    return ranked.front().tpot_ms;
}

} // namespace

TEST_CASE("serving.async_scheduling: the host loop bounds a Neuron decode step and is "
          "ignored on GPUs, with round trip and a bad value") {
    auto& fx = cp::test::serving_fixture();
    const auto tpot_ms = [&](const char* instance, bool async) {
        return vllm_tp8_tpot_ms(fx, instance,
                                [&](ServingSpec& spec) { spec.async_scheduling = async; });
    };
    // Scheduling one step ahead hides the host loop behind the device's step.
    CHECK(tpot_ms("inf2.48xlarge", true) < 0.9 * tpot_ms("inf2.48xlarge", false));
    // GPU engines' fitted steps already carry their host overlap.
    CHECK(tpot_ms("p4d.24xlarge", true) == tpot_ms("p4d.24xlarge", false));

    const std::string head = R"({"model": {"preset": "llama3-8b"}, "cluster": {}, "serving": )";
    const Scenario plain = parse_scenario(head + "{}}", "p.json");
    CHECK_FALSE(plain.serving.value().async_scheduling);
    const Scenario sc = parse_scenario(head + R"({"async_scheduling": true}})", "a.json");
    CHECK(sc.serving.value().async_scheduling);
    CHECK(parse_scenario(scenario_to_json(sc), "again.json").serving.value().async_scheduling);
    CHECK_THROWS_WITH(parse_scenario(head + R"({"async_scheduling": "on"}})", "b.json"),
                      Catch::Contains("serving.async_scheduling: must be true or false"));
}

TEST_CASE("serving.on_device_sampling: false adds the host's sampling to every Neuron decode "
          "step, is ignored on GPUs, with round trip and a bad value") {
    auto& fx = cp::test::serving_fixture();
    const auto tpot_ms = [&](const char* instance, bool on_device) {
        return vllm_tp8_tpot_ms(fx, instance,
                                [&](ServingSpec& spec) { spec.on_device_sampling = on_device; });
    };
    const double host_ms = 1e3 * fx.factors.of(ServingEngine::neuron).host_sampling_s;
    REQUIRE(host_ms > 0);
    CHECK(tpot_ms("inf2.48xlarge", false) > tpot_ms("inf2.48xlarge", true) + 0.9 * host_ms);
    CHECK(tpot_ms("p4d.24xlarge", false) == tpot_ms("p4d.24xlarge", true));

    const std::string head = R"({"model": {"preset": "llama3-8b"}, "cluster": {}, "serving": )";
    CHECK(parse_scenario(head + "{}}", "p.json").serving.value().on_device_sampling);
    const Scenario sc = parse_scenario(head + R"({"on_device_sampling": false}})", "a.json");
    CHECK_FALSE(sc.serving.value().on_device_sampling);
    CHECK_FALSE(
        parse_scenario(scenario_to_json(sc), "again.json").serving.value().on_device_sampling);
    CHECK_THROWS_WITH(parse_scenario(head + R"({"on_device_sampling": 0}})", "b.json"),
                      Catch::Contains("serving.on_device_sampling: must be true or false"));
}

TEST_CASE("near capacity the plan states TTFT and TPOT over the capacity's range, which widens "
          "as the rate nears capacity") {
    auto& fx = cp::test::serving_fixture();
    ServingRequest req;
    req.workload = find_model_preset("llama3-8b")->workload;
    req.spec.engine = ServingEngine::tensorrt_llm;
    req.spec.weights = StorageType::fp8;
    req.spec.tp = 1;
    req.spec.replicas = 1;
    req.spec.input_tokens = 512;
    req.spec.output_tokens = 256;
    const NodeSpec node = fx.node("p5.48xlarge");
    const ServingPlan full = plan_serving(req, node, fx.factors, nullptr);
    REQUIRE(full.valid);
    CHECK(!full.load_range.known); // no rate: the replica's capacity, no queue
    auto at = [&](double share) {
        ServingRequest r = req;
        r.spec.request_rate_per_s = share * full.requests_per_s;
        return plan_serving(r, node, fx.factors, nullptr);
    };
    const ServingPlan light = at(0.2), busy = at(0.9);
    for (const ServingPlan* p : {&light, &busy}) {
        const ServingLoadRange& lr = p->load_range;
        REQUIRE(lr.known);
        CHECK(lr.utilization_low <= p->utilization);
        CHECK(lr.utilization_high >= p->utilization);
        CHECK(lr.ttft_ms_low <= p->ttft_ms);
        CHECK(lr.ttft_ms_high >= p->ttft_ms);
        CHECK(lr.tpot_ms_low <= p->tpot_ms);
        CHECK(lr.tpot_ms_high >= p->tpot_ms);
        // The slow end's utilisation is the rate over the capacity at the range's high factor.
        CHECK_REL(lr.utilization_high,
                  p->utilization * std::max(1.0, p->intervals.throughput.high_factor), 1e-9);
        CHECK(lr.may_overload == (lr.utilization_high >= 1.0));
    }
    // The same capacity range moves a busy replica's TPOT further than a lightly loaded one's.
    const auto spread = [](const ServingLoadRange& lr) {
        return std::isfinite(lr.tpot_ms_high) ? lr.tpot_ms_high / lr.tpot_ms_low
                                              : std::numeric_limits<double>::infinity();
    };
    CHECK(spread(busy.load_range) > spread(light.load_range));
    // Every front end states the range in one sentence; an end past capacity reads "unbounded".
    CHECK(serving_load_range_text(full).empty());
    const ServingPlan over = at(1.0 / std::max(1.0, busy.intervals.throughput.high_factor) + 0.05);
    REQUIRE(over.load_range.may_overload);
    const std::string text = serving_load_range_text(over);
    CHECK(text.find("utilisation ") == 0);
    CHECK(text.find("unbounded") != std::string::npos);
    CHECK(text.find("(the slow end is past capacity)") != std::string::npos);
}

TEST_CASE("uneven pipeline stages: the fullest stage sets a device's weights") {
    // DeepSeek-V3's 61 layers on pp 2 (vLLM get_pp_indices: 31 + 30) hold 31/61 of the layer
    // weights on a device, not 1/2; an even 62-layer copy holds exactly half.
    auto& fx = cp::test::serving_fixture();
    ServingRequest req;
    req.workload = find_model_preset("llama3-70b")->workload;
    req.spec.engine = ServingEngine::vllm;
    req.spec.weights = StorageType::fp8;
    req.spec.tp = 8;
    req.spec.pp = 2;
    req.spec.input_tokens = 1000;
    req.spec.output_tokens = 1000;
    req.workload.shape.layers = 80;
    const ServingPlan even = plan_serving(req, fx.node("p5.48xlarge"), fx.factors, nullptr);
    req.workload.shape.layers = 79; // 40 + 39
    const ServingPlan uneven = plan_serving(req, fx.node("p5.48xlarge"), fx.factors, nullptr);
    REQUIRE(even.valid);
    REQUIRE(uneven.valid);
    CHECK(even.devices_per_replica == 16);
    CHECK(uneven.devices_per_replica == 16);
    // The 79-layer model's fullest stage holds 40 layers, as the 80-layer one's do: the same
    // layer weights per device (embeddings aside), not 79/80 of them.
    CHECK(uneven.memory.weights > even.memory.weights * 0.995);
}

TEST_CASE("a GPU replica's TP may span instances, its all-reduces cross the network") {
    // SGLang's Llama 3.1 405B BF16 at tp 16 on two 8-GPU nodes (sgl-project/sglang
    // docs/references/multi_node.md).
    auto& fx = cp::test::serving_fixture();
    ServingRequest req;
    req.workload = find_model_preset("llama3-405b")->workload;
    req.spec.engine = ServingEngine::vllm;
    req.spec.engine_as_given = "sglang";
    req.spec.weights = StorageType::bf16;
    req.spec.input_tokens = 1000;
    req.spec.output_tokens = 1000;
    req.spec.batch = 32;
    req.spec.tp = 16;
    const ServingPlan across = plan_serving(req, fx.node("p5.48xlarge"), fx.factors, nullptr);
    REQUIRE(across.valid);
    CHECK(across.devices_per_replica == 16);
    CHECK(across.nodes == 2);
    req.spec.tp = 8;
    req.spec.pp = 2;
    const ServingPlan pipelined = plan_serving(req, fx.node("p5.48xlarge"), fx.factors, nullptr);
    REQUIRE(pipelined.valid);
    // The same 16 GPUs: the network all-reduces cost tp 16 more than pp 2's activation hand-off.
    CHECK(across.step.tp_comm_s > pipelined.step.tp_comm_s);
}
