// A refused manual training layout names the rule it breaks, not every rule a layout can break.
#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/scenario.h"
#include "engine/layout_check.h"
#include "engine_fixtures.h"

#include <catch2/catch.hpp>
#include <string>

using namespace cp::sim;

namespace {

// The planner's sentence for a scenario on `nodes` nodes of 8 A100s ("" when it plans), after
// `edit` changes the parsed scenario as an editor does (the parser checks a file's own fields).
template <class Edit>
std::string refusal(const std::string& model, const std::string& parallel, int nodes,
                    const std::string& training, Edit edit) {
    Scenario sc = parse_scenario(R"({"model": )" + model + R"(, "cluster": {"nodes": )" +
                                     std::to_string(nodes) + R"(}, "parallel": )" + parallel +
                                     R"(, "training": )" + training + "}",
                                 "t.json");
    edit(sc);
    try {
        simulate_plan(sc, cp::test::priced_a100_node(), nullptr);
    } catch (const ScenarioError& e) {
        return e.what();
    }
    return {};
}

} // namespace

TEST_CASE("a refused manual layout names the rule it breaks", "[planner]") {
    // 12 heads over tp 8 (a multiple of the 4 KV heads, so the parser takes it).
    const std::string own = R"({"layers": 8, "hidden": 3072, "heads": 12, "kv_heads": 4,
        "ffn_hidden": 8192, "seq_len": 2048, "vocab": 32000})";
    std::string why = refusal(own, R"({"pp": 1, "dp": 1, "global_batch": 16})", 1, "{}",
                              [](Scenario& sc) { sc.parallel.tp = 8; });
    INFO(why);
    // Named as the parser names it, once the hardware's framework (Megatron-Core on A100, which
    // does not pad heads) is known.
    CHECK(why.find("parallel.tp: must divide model.heads (12), got 8") != std::string::npos);
    CHECK(why.find("batch divisibility") == std::string::npos);

    // Megatron-LM's interleaved schedule needs micro-batches divisible by pp: 6 over pp 4.
    why = refusal(R"({"preset": "llama2-7b"})",
                  R"({"tp": 8, "pp": 4, "dp": 1, "micro_batch": 1, "global_batch": 6,
                      "schedule": "interleaved", "virtual_stages": 2})",
                  4, R"({"framework": "megatron-lm"})", [](Scenario&) {});
    INFO(why);
    CHECK(why.find("6 micro-batches per replica do not divide into them under megatron-lm") !=
          std::string::npos);
    CHECK(why.find("heads") == std::string::npos);
}

TEST_CASE("layout_problem says nothing of a layout that runs and names each rule", "[planner]") {
    const Workload w =
        parse_scenario(R"({"model": {"preset": "llama2-7b"}, "cluster": {}})", "t.json").workload;
    const Cluster cluster{cp::test::priced_a100_node(), 4};
    Layout l;
    l.tp = 8;
    l.pp = 4;
    l.dp = 1;
    l.micro_batch = 1;
    l.global_batch = 8;
    CHECK(layout_problem(w, cluster, l).empty());
    CHECK(check_layout(w, cluster, l) == Limit::none);
    l.pp = 2;
    CHECK(layout_problem(w, cluster, l) ==
          "tp × pp × dp × cp = 16 does not equal the cluster's 32 devices");
    CHECK(check_layout(w, cluster, l) == Limit::invalid_layout);
    l.pp = 4;
    l.global_batch = 7;
    l.dp = 1;
    l.micro_batch = 2;
    CHECK(layout_problem(w, cluster, l).find("global batch of 7") != std::string::npos);
}
