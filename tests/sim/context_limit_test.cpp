// A rotary-position preset reads as many positions as its config.json's max_position_embeddings:
// a longer serving context or training sequence is refused naming its field; a model section may
// state a larger limit (a context-extended variant), and a custom model without one is unlimited.
#include "clusterplan/sim/scenario.h"

#include <catch2/catch.hpp>
#include <string>

using namespace cp::sim;

namespace {

// The field a scenario is refused with ("" when it parses).
std::string refused_field(const std::string& model, const std::string& rest) {
    try {
        parse_scenario(R"({"model": )" + model + R"(, "cluster": {"instance": "p5.48xlarge"})" +
                           rest + "}",
                       "t.json");
    } catch (const ScenarioError& e) {
        return e.field();
    }
    return {};
}

std::string serving(int input, int output) {
    return R"(, "serving": {"input_tokens": )" + std::to_string(input) + R"(, "output_tokens": )" +
           std::to_string(output) + "}";
}

} // namespace

TEST_CASE("a serving context beyond a rotary preset's positions is refused", "[scenario]") {
    const struct {
        const char* preset;
        int positions;
    } presets[] = {{"llama2-7b", 4096},     {"llama2-70b", 4096},     {"llama3-8b", 8192},
                   {"llama3-405b", 131072}, {"mistral-7b", 32768},    {"gpt-j-6b", 2048},
                   {"mixtral-8x7b", 32768}, {"qwen3-30b-a3b", 40960}, {"deepseek-v3", 163840}};
    for (const auto& p : presets) {
        INFO(p.preset);
        const std::string model = R"({"preset": ")" + std::string(p.preset) + R"("})";
        CHECK(refused_field(model, serving(p.positions - 100, 100)).empty());
        CHECK(refused_field(model, serving(p.positions - 100, 101)) == "serving.input_tokens");
    }
    try {
        parse_scenario(R"({"model": {"preset": "llama2-7b"}, "cluster": {"instance": "x"},
                          "serving": {"input_tokens": 4000, "output_tokens": 200}})",
                       "t.json");
        FAIL("accepted");
    } catch (const ScenarioError& e) {
        CHECK_THAT(e.what(), Catch::Matchers::Contains("(4200) exceeds the 4096 positions "
                                                       "llama2-7b reads"));
    }
    // Llama 3.1 8B: Llama 3's shape with its RoPE-scaled 131,072 positions, stated.
    CHECK(refused_field(R"({"preset": "llama3-8b", "max_position_embeddings": 131072})",
                        serving(100000, 1000))
              .empty());
    // A custom model without a stated limit is not limited; with one, it is.
    const std::string own = R"({"layers": 8, "hidden": 1024, "heads": 8, "seq_len": 2048,
                                "vocab": 32000)";
    CHECK(refused_field(own + "}", serving(500000, 1000)).empty());
    CHECK(refused_field(own + R"(, "max_position_embeddings": 4096})", serving(4096, 1)) ==
          "serving.input_tokens");
}

TEST_CASE("a training sequence beyond a rotary preset's positions is refused", "[scenario]") {
    CHECK(refused_field(R"({"preset": "llama2-7b", "seq_len": 8192})", "") == "model.seq_len");
    CHECK(refused_field(R"({"preset": "llama2-7b", "seq_len": 4096})", "").empty());
    CHECK(refused_field(R"({"preset": "llama2-7b", "seq_len": 8192,
                            "max_position_embeddings": 8192})",
                        "")
              .empty());
    CHECK(refused_field(R"({"preset": "llama2-7b", "max_position_embeddings": 2048})", "") ==
          "model.max_position_embeddings");
    CHECK(refused_field(R"({"preset": "llama2-7b"})", R"(, "training": {"seq_len": 8192})") ==
          "training.seq_len");
    CHECK(refused_field(R"({"preset": "llama2-7b"})",
                        R"(, "training": {"seq_phases": [{"step_fraction": 0.5, "seq_len": 4096},
                            {"step_fraction": 0.5, "seq_len": 8192}]})") ==
          "training.seq_phases");
    // The limit survives the scenario's round trip (the GUI writes the shape out).
    const Scenario sc = parse_scenario(R"({"model": {"preset": "llama3-8b"}, "cluster": {}})", "t");
    CHECK(sc.workload.shape.max_positions == 8192);
    CHECK(parse_scenario(scenario_to_json(sc), "back").workload.shape.max_positions == 8192);
}
