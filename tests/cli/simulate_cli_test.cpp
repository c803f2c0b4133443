// `clusterplan simulate | sweep | recommend` run in-process through cp::cli::run against the
// bundled catalog (fresh CLUSTERPLAN_DATA_DIR): JSON contract, golden key list, exit codes and
// error sentences, determinism across thread counts, and the seed sanity checks.
#include "cli.h"
#include "cli_sandbox.h"
#include "tolerance.h"

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

// Writes a scenario file into the work directory and returns its path.
std::string scenario_file(const std::string& name, const std::string& text) {
    const fs::path p = workdir() / name;
    std::ofstream(p) << text;
    return p.string();
}

// "a.b.c" paths of every key in a JSON object (arrays: their first element, as "a[]").
void key_paths(const json& j, const std::string& prefix, std::set<std::string>& out) {
    if (j.is_object()) {
        for (const auto& [k, v] : j.items()) {
            const std::string path = prefix.empty() ? k : prefix + "." + k;
            out.insert(path);
            key_paths(v, path, out);
        }
    } else if (j.is_array() && !j.empty() && j.front().is_object()) {
        key_paths(j.front(), prefix + "[]", out);
    }
}

std::set<std::string> golden_lines(const std::string& name) {
    std::ifstream in(fs::path(CLUSTERPLAN_SOURCE_DIR) / "tests" / "cli" / "golden" / name);
    REQUIRE(in.good());
    std::set<std::string> lines;
    std::string line;
    while (std::getline(in, line))
        if (!line.empty() && line[0] != '#') lines.insert(line);
    return lines;
}

} // namespace

TEST_CASE("simulate --json returns the DESIGN.md contract for the Megatron GPT-3 layout",
          "[cli][simulate]") {
    const Result r = run({"simulate", example("gpt3-175b-p4d.json"), "--json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    CHECK(j["instance"] == "p4d.24xlarge");
    CHECK(j["nodes"] == 128);
    CHECK(j["devices"] == 1024);
    CHECK(j["layout"]["tp"] == 8);
    CHECK(j["layout"]["pp"] == 8);
    CHECK(j["layout"]["dp"] == 16);
    CHECK(j["layout"]["micro_batches"] == 96);
    CHECK(j["fits_in_memory"] == true);
    CHECK(j["searched"].empty());
    CHECK(j["calibration"]["source"] == "datasheet");
    // cost = nodes × price × wall time; time = steps × step time.
    const double hours = j["time_to_train_h"].get<double>();
    CHECK_REL(hours, j["steps"].get<double>() * j["step_time_s"].get<double>() / 3600, 1e-9);
    CHECK_REL(j["cost_usd"].get<double>(),
              128 * j["prices"]["usd_per_node_hour"].get<double>() * hours, 1e-9);
    CHECK(j["steps"].get<double>() == std::ceil(3.0e11 / 2048 / 1536));
    CHECK(j["spot_expected_interruptions"].get<double>() > 0);
    CHECK(j["assumptions"].size() >= 4);

    // Golden: the key set is the contract (numbers belong to the engine's tests).
    std::set<std::string> keys;
    key_paths(j, "", keys);
    const std::set<std::string> golden = golden_lines("simulate_json_keys.txt");
    for (const auto& k : golden) {
        INFO("missing key " << k);
        CHECK(keys.count(k) == 1);
    }
    for (const auto& k : keys) {
        INFO("key not in tests/cli/golden/simulate_json_keys.txt: " << k);
        CHECK(golden.count(k) == 1);
    }
}

TEST_CASE("simulate prints a readable breakdown, and says when it searched", "[cli][simulate]") {
    const Result r = run({"simulate", example("gpt3-175b-p4d.json")});
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("128 × p4d.24xlarge (1024 × A100-40GB), bf16"));
    CHECK_THAT(
        r.out,
        Catch::Contains(
            "layout       tp=8 pp=8 dp=16, micro-batch 1 of global 1536 (96 micro-batches)"));
    for (const char* part : {"step time", "compute", "pp_bubble", "dp_comm_exposed", "memory",
                             "train time", "on demand", "spot", "assumptions"})
        CHECK_THAT(r.out, Catch::Contains(part));

    const std::string searched =
        scenario_file("searched.json", R"({"model": {"preset": "llama2-7b"},
        "cluster": {"instance": "p4d.24xlarge", "nodes": 2}})");
    const Result s = run({"simulate", searched, "--json"});
    REQUIRE(s.code == 0);
    const json j = json::parse(s.out);
    CHECK(j["searched"].size() == 7);
    CHECK_THAT(
        j["note"].get<std::string>(),
        Catch::StartsWith("searched tp, pp, dp, micro_batch, zero, recompute, sequence_parallel"));

    // Context-parallel ranks are part of the layout: tp · pp · dp · cp is the device count.
    const std::string cp = scenario_file("cp.json", R"({"model": {"preset": "llama3-8b"},
        "cluster": {"instance": "p5.48xlarge", "nodes": 1},
        "parallel": {"tp": 1, "pp": 1, "dp": 4, "cp": 2, "micro_batch": 1, "global_batch": 64}})");
    const Result c = run({"simulate", cp});
    REQUIRE(c.code == 0);
    CHECK_THAT(c.out, Catch::Contains("layout       tp=1 pp=1 dp=4 cp=2, micro-batch 1"));
}

TEST_CASE("scenario errors exit 2 with one sentence naming the file and field", "[cli][errors]") {
    struct Case {
        const char* text;
        const char* expect;
    };
    const Case cases[] = {
        {R"({"model": {"preset": "gpt3-175b"}, "cluster": {"instance": "p4d.24xlarge", "nodes": 2}, "parallel": {"tpp": 8}})",
         "bad.json: parallel.tpp: unknown field"},
        {R"({"model": {"preset": "gpt3-175b"}, "cluster": {"instance": "p4d.24xlarge", "nodes": 2}, "parallel": {"tp": 7}})",
         "bad.json: parallel.tp: must divide model.ffn_hidden (49152)"},
        // Heads are checked against the framework the hardware resolves (NeuronX Distributed
        // pads them; Megatron-Core on p4d does not).
        {R"({"model": {"layers": 40, "hidden": 6144, "heads": 48, "kv_heads": 8, "ffn_hidden": 10752,
                       "seq_len": 4096, "vocab": 100352},
             "cluster": {"instance": "p4d.24xlarge", "nodes": 4}, "parallel": {"tp": 32}})",
         "bad.json: parallel.tp: must divide model.heads (48), got 32"},
        {R"({"model": {"preset": "gpt3-175b"}, "cluster": {"instance": "p4d.24xlarge", "nodes": 2},
             "parallel": {"tp": 8, "pp": 2, "dp": 4}})",
         "bad.json: parallel.dp: tp × pp × dp = 64 does not equal the cluster's 16 devices (2 "
         "nodes × 8)"},
        {R"({"model": {"preset": "gpt3-175b"}, "cluster": {"instance": "p9.huge", "nodes": 2}})",
         "bad.json: cluster.instance: unknown instance type 'p9.huge'"},
        {R"({"model": {"preset": "llama2-7b"}, "cluster": {"instance": "inf2.48xlarge", "nodes": 1}})",
         "bad.json: cluster.instance: inf2.48xlarge carries Inferentia2 accelerators, which are "
         "built for inference"},
        {R"({"model": {"preset": "llama2-7b"}, "cluster": {"instance": "p4d.24xlarge", "nodes": 1, "calibration": "lab-run-7"}})",
         "bad.json: cluster.calibration: no calibration profile named 'lab-run-7'"},
        {R"({"model": {"preset": "llama2-7b"}, "cluster": {"nodes": 1, "custom": {"accelerator": "Z80"}}})",
         "bad.json: cluster.custom.accelerator: unknown accelerator 'Z80'"},
        {R"({"model": {"preset": "llama2-7b"}, "cluster": {"instance": "p4d.24xlarge"}})",
         "bad.json: cluster.nodes: required by simulate"},
        {R"({"model": {"preset": "llama2-7b"}, "cluster": {"instance": "p4d.24xlarge", "nodes": 1}, "precision": "int4"})",
         "bad.json: precision: unknown value 'int4'"},
        // A precision the accelerator has no peak for names `precision`, not the layout.
        {R"({"model": {"preset": "llama2-7b"}, "cluster": {"instance": "p4d.24xlarge", "nodes": 1}, "precision": "fp8"})",
         "bad.json: precision: A100-40GB has no published fp8 peak, so p4d.24xlarge cannot be "
         "planned at this "
         "precision (known: fp32, tf32, fp16, bf16; precision \"auto\" falls back by itself)"},
        {"{ not json", "bad.json: (file): not valid JSON"},
    };
    for (const Case& c : cases) {
        const std::string path = scenario_file("bad.json", c.text);
        const Result r = run({"simulate", path});
        INFO(c.text << "\nstderr: " << r.err);
        CHECK(r.code == 2);
        CHECK(r.out.empty());
        CHECK_THAT(r.err, Catch::Contains(std::string("clusterplan simulate: ") +
                                          workdir().string() + "/" + c.expect));
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    }
    // Unknown instances in sweep/recommend name constraints.instances.
    const std::string path =
        scenario_file("bad.json", R"({"model": {"preset": "llama2-7b"}, "cluster": {},
        "constraints": {"instances": ["p4d.24xlarge", "x1.nope"]}})");
    const Result r = run({"recommend", path});
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("constraints.instances: unknown instance type 'x1.nope'"));

    CHECK(run({"simulate", (workdir() / "missing.json").string()}).code == 2);
}

TEST_CASE("usage errors exit 1", "[cli][errors]") {
    CHECK(run({"simulate"}).code == 1);
    CHECK(run({"simulate", "a.json", "b.json"}).code == 1);
    CHECK(run({"simulate", example("gpt3-175b-p4d.json"), "--bogus"}).code == 1);
    CHECK(run({"sweep", example("llama3-8b-any.json"), "--threads", "0"}).code == 1);
    CHECK(run({"sweep", example("llama3-8b-any.json"), "--threads", "two"}).code == 1);
    CHECK(run({"recommend", example("llama3-8b-any.json"), "--top", "-1"}).code == 1);
}

TEST_CASE("sweep --json counts evaluated plans and does not depend on --threads", "[cli][sweep]") {
    const Result one = run({"sweep", example("llama3-8b-any.json"), "--json", "--threads", "1"});
    const Result two = run({"sweep", example("llama3-8b-any.json"), "--json", "--threads", "2"});
    INFO(one.err << two.err);
    REQUIRE(one.code == 0);
    REQUIRE(two.code == 0);
    json a = json::parse(one.out);
    json b = json::parse(two.out);
    CHECK(a["evaluated"].get<std::uint64_t>() > 10000);
    CHECK(a["elapsed_s"].get<double>() > 0);
    CHECK(a["threads"] == 1);
    CHECK(b["threads"] == 2);
    CHECK_FALSE(a["pareto"].empty());
    CHECK_FALSE(a["plans"].empty());
    CHECK(a["plans"].size() <= 20);
    std::uint64_t per_instance = 0;
    for (const auto& i : a["instances"])
        per_instance += i["evaluated"].get<std::uint64_t>();
    CHECK(per_instance == a["evaluated"].get<std::uint64_t>());
    for (const char* timing : {"elapsed_s", "plans_per_s", "threads"}) {
        a.erase(timing);
        b.erase(timing);
    }
    CHECK(a == b);
    // Plans are sorted by the objective (cost); the Pareto front trades time for cost.
    for (std::size_t i = 1; i < a["plans"].size(); ++i)
        CHECK(a["plans"][i]["total_cost_usd"].get<double>() >=
              a["plans"][i - 1]["total_cost_usd"].get<double>());
    for (std::size_t i = 1; i < a["pareto"].size(); ++i) {
        CHECK(a["pareto"][i]["wall_time_h"].get<double>() >=
              a["pareto"][i - 1]["wall_time_h"].get<double>());
        CHECK(a["pareto"][i]["total_cost_usd"].get<double>() <
              a["pareto"][i - 1]["total_cost_usd"].get<double>());
    }

    const Result text = run({"sweep", example("llama3-8b-any.json"), "--top", "3"});
    REQUIRE(text.code == 0);
    CHECK_THAT(text.out, Catch::StartsWith("Evaluated ") && Catch::Contains(" plans in ") &&
                             Catch::Contains("plans/s") && Catch::Contains("Pareto front"));
}

TEST_CASE("recommend ranks by the objective and explains each choice", "[cli][recommend]") {
    const Result r = run({"recommend", example("llama3-8b-any.json"), "--top", "3", "--json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    REQUIRE(j["recommendations"].size() == 3);
    double last = 0;
    std::set<std::string> choices;
    for (const auto& rec : j["recommendations"]) {
        CHECK_FALSE(rec["reasons"].empty());
        CHECK_FALSE(rec["limits"].empty());
        const json& plan = rec["plan"];
        const double cost = plan["purchase"] == "spot" ? plan["cost_spot_usd"].get<double>()
                                                       : plan["cost_usd"].get<double>();
        CHECK(cost >= last);
        last = cost;
        choices.insert(plan["instance"].get<std::string>() + "/" +
                       plan["purchase"].get<std::string>());
        CHECK_THAT(plan["note"].get<std::string>(), Catch::StartsWith("searched instance, nodes"));
    }
    CHECK(choices.size() == 3); // distinct choices, not one instance at neighbouring node counts
    CHECK_THAT(j["recommendations"][0]["reasons"][0].get<std::string>(),
               Catch::StartsWith("best by lowest cost"));
    CHECK_FALSE(j["pareto"].empty());

    const Result text = run({"recommend", example("llama3-8b-any.json"), "--top", "2"});
    REQUIRE(text.code == 0);
    CHECK_THAT(text.out,
               Catch::Contains("#1  ") && Catch::Contains("why:") && Catch::Contains("limit:"));
}

TEST_CASE("every example scenario runs", "[cli][examples]") {
    for (const auto& entry :
         fs::directory_iterator(fs::path(CLUSTERPLAN_SOURCE_DIR) / "resources" / "scenarios")) {
        if (entry.path().extension() != ".json") continue;
        const std::string path = entry.path().string();
        const json doc = json::parse(std::ifstream(path));
        const bool fixed =
            doc["cluster"].contains("nodes") &&
            (doc["cluster"].contains("instance") || doc["cluster"].contains("custom"));
        const Result r = run({fixed ? "simulate" : "recommend", path, "--json"});
        INFO(path << "\n" << r.err);
        CHECK(r.code == 0);
        if (doc.contains("serving")) {
            // A serving scenario answers with its cheapest deployment (serve --json's fields).
            CHECK(json::parse(r.out).contains("usd_per_million_output_tokens"));
            continue;
        }
        if (!fixed) CHECK_FALSE(json::parse(r.out)["recommendations"].empty());
    }
}

TEST_CASE(
    "seed sanity: data-parallel scaling of 8 × g5.48xlarge (PCIe) falls behind 8 × p3dn.24xlarge",
    "[cli][seed]") {
    // BERT-Large, pure data parallel over 64 devices, 4 samples per device per step. fp32: the
    // A10G has no published fp16 tensor rate in the catalog.
    auto efficiency = [](const std::string& instance) {
        const std::string path =
            scenario_file("dp-" + instance + ".json",
                          R"({"model": {"preset": "bert-large"}, "cluster": {"instance": ")" +
                              instance + R"(", "nodes": 8},
            "parallel": {"tp": 1, "pp": 1, "dp": 64, "global_batch": 256}, "precision": "fp32"})");
        const Result r = run({"simulate", path, "--json"});
        INFO(r.err);
        REQUIRE(r.code == 0);
        const json j = json::parse(r.out);
        CHECK(j["scaling_reference_devices"] == 1);
        return j["scaling_efficiency"].get<double>();
    };
    const double p3dn = efficiency("p3dn.24xlarge");
    const double g5 = efficiency("g5.48xlarge");
    INFO("scaling efficiency p3dn " << p3dn << ", g5 " << g5);
    CHECK(g5 < p3dn);
    CHECK(p3dn <= 1.0 + 1e-9);
}

TEST_CASE("seed sanity: p4d beats p3dn on cost per trained token", "[cli][seed]") {
    auto best_cost = [](const std::string& instance) {
        const std::string path =
            scenario_file("cost-" + instance + ".json",
                          R"({"model": {"preset": "gpt2-1.5b"}, "cluster": {"instance": ")" +
                              instance + R"("}, "precision": "fp16", "training": {"tokens": 3e10},
            "constraints": {"max_nodes": 16, "allow_spot": false}})");
        const Result r = run({"recommend", path, "--json", "--top", "1"});
        INFO(r.err);
        REQUIRE(r.code == 0);
        const json j = json::parse(r.out);
        REQUIRE(j["recommendations"].size() == 1);
        return j["recommendations"][0]["plan"]["cost_usd"].get<double>() / 3e10;
    };
    const double p4d = best_cost("p4d.24xlarge");
    const double p3dn = best_cost("p3dn.24xlarge");
    INFO("USD per token: p4d " << p4d << ", p3dn " << p3dn);
    CHECK(p4d < p3dn);
}

TEST_CASE("sweep skips inference-only instances with the reason", "[cli][seed]") {
    const std::string path =
        scenario_file("inf.json", R"({"model": {"preset": "bert-large"}, "cluster": {},
        "constraints": {"max_nodes": 2, "instances": ["inf2.48xlarge", "p4d.24xlarge"]}})");
    const Result r = run({"sweep", path, "--json"});
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    REQUIRE(j["instances"].size() == 2);
    CHECK(j["instances"][0]["evaluated"] == 0);
    CHECK_THAT(j["instances"][0]["skipped"].get<std::string>(),
               Catch::Contains("built for inference"));
    CHECK(j["instances"][1]["evaluated"].get<int>() > 0);
}
