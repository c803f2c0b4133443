// `clusterplan serve` (and recommend of a serving scenario) in-process against the bundled
// catalog: the JSON contract fields, the whole-catalog ranking of the example scenario, the
// BERT-large comparison, and bad input (exit 2, one sentence naming the field).
#include "cli.h"
#include "cli_sandbox.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using cp::test::CliResult;
constexpr auto run = cp::test::run_in_shared_sandbox;
constexpr auto example = cp::test::example_scenario;

} // namespace

TEST_CASE("serve --json on one instance returns the contract fields") {
    const CliResult r = run({"serve", example("serve-llama3-70b-h100-fp8.json"), "--json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    for (const char* key :
         {"ttft_ms", "tpot_ms", "e2e_latency_ms", "batch", "output_tokens_per_s",
          "output_tokens_per_s_per_device", "requests_per_s", "samples_per_s", "latency_ms",
          "replicas", "devices", "memory_gib", "fits_in_memory", "usd_per_hour",
          "usd_per_million_output_tokens", "limits", "assumptions"})
        CHECK(j.contains(key));
    for (const char* key : {"weights", "kv_cache", "activations", "reserve", "total", "capacity"})
        CHECK(j["memory_gib"].contains(key));
    CHECK(j["instance"] == "p5.48xlarge");
    // One H100 holds ~65 GiB of FP8 weights: the KV cache caps the batch (published 912 tok/s).
    const auto limits = j["limits"].get<std::vector<std::string>>();
    CHECK(std::find(limits.begin(), limits.end(), "kv_bound") != limits.end());
    CHECK(j["output_tokens_per_s"].get<double>() > 500);
    CHECK(j["output_tokens_per_s"].get<double>() < 1500);
}

TEST_CASE("serve ranks the whole catalog for Llama 3 8B at 10 req/s with $/1M tokens") {
    const CliResult r =
        run({"serve", example("serve-llama3-8b-chat.json"), "--json", "--top", "60"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    REQUIRE(j["ranking"].is_array());
    CHECK(j["meets_slo"] == true);
    std::set<std::string> families;
    for (const auto& c : j["ranking"]) {
        const std::string type = c["instance"];
        if (c["meets_slo"] == true) families.insert(type.substr(0, type.find('.')));
    }
    for (const char* f : {"g6", "p4d", "p5", "inf2"}) {
        INFO(f);
        CHECK(families.count(f) == 1);
    }
    const CliResult text = run({"serve", example("serve-llama3-8b-chat.json")});
    REQUIRE(text.code == 0);
    CHECK(text.out.find("Best choice:") != std::string::npos);
    CHECK(text.out.find("per 1M output tokens") != std::string::npos);
}

TEST_CASE("serve: BERT-large at batch 1, and recommend accepts serving scenarios") {
    const CliResult r = run({"serve", example("serve-bert-large-latency.json"), "--json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    std::set<std::string> answered;
    for (const auto& c : j["ranking"])
        answered.insert(c["instance"]);
    CHECK(answered.count("inf2.xlarge") == 1);
    CHECK(answered.count("g4dn.xlarge") == 1);
    const CliResult rec = run({"recommend", example("serve-bert-large-latency.json"), "--json"});
    REQUIRE(rec.code == 0);
    CHECK(json::parse(rec.out).contains("ranking"));
}

TEST_CASE(
    "serve: bad input is exit 2 with one sentence naming the field, training scenarios refused") {
    const std::string bad =
        cp::test::shared_sandbox()
            .write("bad.json",
                   R"({"model": {"preset": "llama3-8b"}, "cluster": {}, "serving": {"tp": 0}})")
            .string();
    const CliResult r = run({"serve", bad});
    CHECK(r.code == 2);
    CHECK(r.err.find("serving.tp") != std::string::npos);
    const CliResult training = run({"serve", example("llama3-8b-any.json")});
    CHECK(training.code == 2);
    CHECK(training.err.find("serving: required by serve") != std::string::npos);
    const CliResult simulate = run({"simulate", example("serve-llama3-70b-h100-fp8.json")});
    CHECK(simulate.code == 2);
    CHECK(run({"serve"}).code == 1);
}

TEST_CASE("serve: bad engine_max_batch or gqa_shared_kv_reads is exit 2 naming the field") {
    const std::pair<std::string, std::string> bad[] = {
        {R"("engine_max_batch": 0)", "serving.engine_max_batch"},
        {R"("engine_max_batch": -1)", "serving.engine_max_batch"},
        {R"("engine_max_batch": 2.5)", "serving.engine_max_batch"},
        {R"("engine_max_batch": 1e12)", "serving.engine_max_batch"},
        {R"("engine_max_batch": "64")", "serving.engine_max_batch"},
        {R"("gqa_shared_kv_reads": "false")", "serving.gqa_shared_kv_reads"},
        {R"("gqa_shared_kv_reads": 0)", "serving.gqa_shared_kv_reads"}};
    for (const auto& [field, name] : bad) {
        INFO(field);
        const std::string path =
            cp::test::shared_sandbox()
                .write("bad-serving.json", R"({"model": {"preset": "llama3-8b"}, "cluster": {},
                           "serving": {)" + field +
                                               "}}")
                .string();
        const CliResult r = run({"serve", path});
        CHECK(r.code == 2);
        CHECK(r.err.find(name) != std::string::npos);
        // One sentence: a single error line, no stack of repeats.
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') <= 1);
        CHECK(r.out.empty());
    }
}
