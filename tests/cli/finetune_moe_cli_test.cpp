// The fine-tuning and Mixture-of-Experts questions a user brings, asked through the CLI
// (cp::cli::run in-process, bundled catalog, fresh CLUSTERPLAN_DATA_DIR) with the example
// scenarios in resources/scenarios: a Llama 3 8B LoRA run on one G5/G6 GPU, which instances hold a
// Llama 3 70B QLoRA run, and the expert-parallel layout of Mixtral 8x22B on 8 p5 nodes.
#include "cli.h"
#include "cli_sandbox.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

constexpr auto example = cp::test::example_scenario;

using Result = cp::test::CliResult;

// The whole file shares one data directory (the catalog is created on first use); scenario files
// go beside it.
const fs::path& workdir() {
    return cp::test::shared_sandbox().files_dir();
}

Result run(const std::vector<std::string>& argv) {
    return cp::test::run_in_shared_sandbox(argv);
}

// The scenario with `edit` applied to its JSON, written to the work directory.
std::string edited(const std::string& name, const std::function<void(json&)>& edit) {
    json doc = json::parse(std::ifstream(example(name)));
    edit(doc);
    const fs::path p = workdir() / ("edited-" + name);
    std::ofstream(p) << doc.dump(2);
    return p.string();
}

double job_cost(const json& plan) {
    return plan["purchase"] == "spot" ? plan["cost_spot_usd"].get<double>()
                                      : plan["cost_usd"].get<double>();
}

} // namespace

TEST_CASE("recommend ranks single-GPU instances for a Llama 3 8B LoRA fine-tune",
          "[cli][finetune]") {
    const Result r =
        run({"recommend", example("llama3-8b-lora-single-gpu.json"), "--top", "5", "--json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    REQUIRE(j["recommendations"].size() >= 3);
    double last_cost = 0;
    std::printf("\nLlama 3 8B LoRA, 50k examples x 1024 tokens x 3 epochs:\n");
    for (const auto& rec : j["recommendations"]) {
        const json& plan = rec["plan"];
        CHECK(plan["devices"] == 1);
        CHECK(plan["valid"] == true);
        // 150k packed sequences of 1,024 tokens at a global batch of 16.
        CHECK(plan["steps"].get<double>() == Approx(9375));
        // Adapters only: rank 16 on every linear layer is ~42M of 8B parameters.
        CHECK(plan["trainable_params"].get<double>() < 0.01 * 8.0e9);
        CHECK(plan["memory_gib"]["weights_frozen"].get<double>() > 13.0);
        CHECK(plan["memory_gib"]["optimizer"].get<double>() < 1.0);
        const double cost = job_cost(plan);
        CHECK(cost >= last_cost); // ranked by cost
        last_cost = cost;
        CHECK(plan["time_to_train_h"].get<double>() > 1.0);
        std::printf("  #%d %s %s: %.1f h, $%.0f, %.1f of %.1f GiB\n", rec["rank"].get<int>(),
                    plan["instance"].get<std::string>().c_str(),
                    plan["purchase"].get<std::string>().c_str(),
                    plan["time_to_train_h"].get<double>(), cost,
                    plan["memory_gib"]["total"].get<double>(),
                    plan["memory_gib"]["capacity"].get<double>());
    }
    const Result text = run({"recommend", example("llama3-8b-lora-single-gpu.json"), "--top", "3"});
    REQUIRE(text.code == 0);
    CHECK_THAT(text.out, Catch::Contains("1 × g6"));
}

TEST_CASE("a full fine-tune of Llama 3 8B does not fit one 24 GiB GPU where LoRA does",
          "[cli][finetune]") {
    const std::string full = edited("llama3-8b-lora-single-gpu.json", [](json& d) {
        d["training"]["method"] = "full";
        d["training"].erase("lora");
        d["constraints"]["instances"] = {"g6.xlarge"};
    });
    const Result r = run({"recommend", full, "--json"});
    CHECK(r.code == 3); // nothing fits
    CHECK_THAT(r.err + r.out, Catch::Contains("no layout fits"));
}

TEST_CASE("recommend of a Llama 3 70B QLoRA run says which instances hold it", "[cli][finetune]") {
    const Result r = run({"recommend", example("llama3-70b-qlora.json"), "--top", "5", "--json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    REQUIRE(j.contains("fits"));
    std::map<std::string, int> min_nodes;
    for (const auto& f : j["fits"])
        min_nodes[f["instance"].get<std::string>()] = f["min_nodes"].get<int>();
    // NF4 weights of 70B are ~35 GiB: one 80 GiB A100/H100 node holds them, a single 24 GiB L4
    // does not.
    CHECK(min_nodes.count("p4de.24xlarge") == 1);
    CHECK(min_nodes.count("p5.48xlarge") == 1);
    CHECK(min_nodes["p5.48xlarge"] == 1);
    // One L4 (24 GiB) cannot hold it: only a pipeline over several nodes could.
    if (min_nodes.count("g6.xlarge") == 1) CHECK(min_nodes["g6.xlarge"] > 1);
    for (const auto& rec : j["recommendations"]) {
        CHECK(rec["plan"]["memory_gib"]["weights_frozen"].get<double>() > 0);
        CHECK(rec["plan"]["memory_gib"]["total"].get<double>() <=
              rec["plan"]["memory_gib"]["capacity"].get<double>());
    }
    const Result text = run({"recommend", example("llama3-70b-qlora.json"), "--top", "2"});
    REQUIRE(text.code == 0);
    CHECK_THAT(text.out, Catch::Contains("Fits on"));
}

TEST_CASE("an 8-node p5 Mixtral 8x22B plan keeps expert parallelism inside a node", "[cli][moe]") {
    const Result r = run({"simulate", example("mixtral-8x22b-p5-8node.json"), "--json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    const int ep = j["layout"]["ep"].get<int>();
    const double step_s = j["step_time_s"].get<double>();
    const double a2a_s = j["breakdown_s"]["ep_comm"].get<double>();
    std::printf("\nMixtral 8x22B on 8 x p5.48xlarge: ep=%d, step %.2f s, all-to-all %.2f s "
                "(%.1f %%), host %.2f s, layout tp %d pp %d dp %d mbs %d zero %d\n",
                ep, step_s, a2a_s, 100.0 * a2a_s / step_s,
                j["breakdown_s"]["host_overhead"].get<double>(), j["layout"]["tp"].get<int>(),
                j["layout"]["pp"].get<int>(), j["layout"]["dp"].get<int>(),
                j["layout"]["micro_batch"].get<int>(), j["layout"]["zero"].get<int>());
    CHECK(ep > 1);
    CHECK(ep * j["layout"]["etp"].get<int>() <= 8);
    CHECK(a2a_s > 0);
    // The search weighs the expert-parallel sizes: each other ep (the rest still searched) is no
    // faster than the one it picked.
    for (const int other : {1, 2, 4, 8}) {
        if (other == ep) continue;
        const Result f = run({"simulate",
                              edited("mixtral-8x22b-p5-8node.json",
                                     [other](json& d) { d["parallel"]["ep"] = other; }),
                              "--json"});
        INFO(f.err);
        REQUIRE(f.code == 0);
        const json fj = json::parse(f.out);
        const double other_s = fj["step_time_s"].get<double>();
        std::printf("  ep=%d: step %.2f s, all-to-all %.1f %% of it\n", other, other_s,
                    100.0 * fj["breakdown_s"]["ep_comm"].get<double>() / other_s);
        CHECK(other_s >= step_s);
    }
    const Result text = run({"simulate", example("mixtral-8x22b-p5-8node.json")});
    CHECK_THAT(text.out, Catch::Contains("ep_comm"));
}

TEST_CASE("expert parallelism inside a node beats the same experts spread over two nodes",
          "[cli][moe]") {
    // Qwen3-30B-A3B (128 experts) on two p5 nodes: the searched expert-parallel size stays within
    // a node; with the layout fixed, ep 16 sends the all-to-all over EFA instead of NVSwitch.
    const auto qwen3 = [](std::optional<int> ep, bool dropless) {
        return [ep, dropless](json& d) {
            d["model"] = {{"preset", "qwen3-30b-a3b"}};
            if (!dropless) d["model"]["capacity_factor"] = 1.0;
            d["cluster"]["nodes"] = 2;
            d["parallel"] = {{"global_batch", 256}};
            if (!ep) return;
            d["parallel"].update({{"tp", 1},
                                  {"pp", 1},
                                  {"dp", 16},
                                  {"micro_batch", 1},
                                  {"zero", 1},
                                  {"recompute", "selective"},
                                  {"ep", *ep}});
        };
    };
    const Result searched = run(
        {"simulate", edited("mixtral-8x22b-p5-8node.json", qwen3(std::nullopt, true)), "--json"});
    INFO(searched.err);
    REQUIRE(searched.code == 0);
    const json sj = json::parse(searched.out);
    CHECK(sj["layout"]["ep"].get<int>() * sj["layout"]["etp"].get<int>() <= 8);
    // Token dropping (static expert shapes) isolates the all-to-all: ep 16 only adds EFA traffic.
    // Dropless routing also exposes the host's per-expert issue behind each layer's device-to-host
    // synchronisation (Transformer Engine launches one GEMM per local expert), and ep 16 halves
    // the local experts, so there the two effects are weighed against each other (printed).
    for (const bool dropless : {false, true}) {
        json fixed[2];
        for (const int i : {0, 1}) {
            const Result r =
                run({"simulate",
                     edited("mixtral-8x22b-p5-8node.json", qwen3(i == 0 ? 8 : 16, dropless)),
                     "--json"});
            INFO(r.err);
            REQUIRE(r.code == 0);
            fixed[i] = json::parse(r.out);
            std::printf("\nQwen3-30B-A3B on 2 x p5, %s, ep=%d: step %.3f s, all-to-all %.3f s, "
                        "host %.3f s\n",
                        dropless ? "dropless" : "token dropping", i == 0 ? 8 : 16,
                        fixed[i]["step_time_s"].get<double>(),
                        fixed[i]["breakdown_s"]["ep_comm"].get<double>(),
                        fixed[i]["breakdown_s"]["host_overhead"].get<double>());
        }
        CHECK(fixed[1]["breakdown_s"]["ep_comm"].get<double>() >
              fixed[0]["breakdown_s"]["ep_comm"].get<double>());
        if (!dropless)
            CHECK(fixed[1]["step_time_s"].get<double>() > fixed[0]["step_time_s"].get<double>());
        else
            CHECK(fixed[1]["breakdown_s"]["host_overhead"].get<double>() <
                  fixed[0]["breakdown_s"]["host_overhead"].get<double>());
    }
}

TEST_CASE("the hybrid dispatcher and the overlapped all-to-all shorten a two-node ep 16 step",
          "[cli][moe]") {
    // Qwen3-30B-A3B at ep 16 over two p5 nodes (Megatron-Bridge's H100 HybridEP recipe): each
    // option is read from the scenario and cuts the exposed all-to-all.
    const auto qwen3 = [](const json& extra) {
        return [extra](json& d) {
            d["model"] = {{"preset", "qwen3-30b-a3b"}};
            d["cluster"]["nodes"] = 2;
            d["parallel"] = {{"global_batch", 256},
                             {"tp", 1},
                             {"pp", 1},
                             {"dp", 16},
                             {"micro_batch", 1},
                             {"zero", 1},
                             {"recompute", "selective"},
                             {"ep", 16}};
            d["parallel"].update(extra);
        };
    };
    const auto ep_comm = [&](const json& extra) {
        const Result r =
            run({"simulate", edited("mixtral-8x22b-p5-8node.json", qwen3(extra)), "--json"});
        INFO(r.err);
        REQUIRE(r.code == 0);
        return json::parse(r.out)["breakdown_s"]["ep_comm"].get<double>();
    };
    const double plain = ep_comm(json::object());
    CHECK(ep_comm({{"ep_dispatcher", "hybrid"}}) < 0.5 * plain);
    CHECK(ep_comm({{"moe_a2a_overlap", true}}) < plain);
    const Result bad =
        run({"simulate", edited("mixtral-8x22b-p5-8node.json", qwen3({{"ep_dispatcher", "ring"}})),
             "--json"});
    CHECK(bad.code != 0);
    CHECK(bad.err.find("ep_dispatcher") != std::string::npos);
}
