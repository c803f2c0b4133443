// `clusterplan serve` read as a user reads it: a deployment that does not fit says what does not
// fit and what would (exit 3, no feasible plan); a ranking on spot prices shows the prices it
// ranked on, in text and JSON alike; the instance types that cannot serve are listed with their
// reasons; counts read "1 replica", not "1 replica(s)"; an estimate outside its own range says
// which way the model leans.
#include "cli.h"
#include "cli_sandbox.h"
#include "range_text.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

namespace fs = std::filesystem;
using nlohmann::json;

namespace {

using cp::test::CliResult;
constexpr auto run = cp::test::run_in_shared_sandbox;
constexpr auto example = cp::test::example_scenario;

bool has(const std::string& text, const std::string& part) {
    return text.find(part) != std::string::npos;
}

// The text table's row of rank `rank`, or "".
std::string row(const std::string& text, int rank) {
    const std::string start = "\n" + std::to_string(rank) + " ";
    const auto at = text.find(start);
    if (at == std::string::npos) return {};
    return text.substr(at + 1, text.find('\n', at + 1) - at - 1);
}

} // namespace

TEST_CASE("serve: weights that do not fit name what does not fit and what would, exit 3") {
    const std::string path = cp::test::shared_sandbox()
                                 .write("too-big.json", R"({"model": {"preset": "llama3-70b"},
                "cluster": {"instance": "g5.xlarge"},
                "serving": {"input_tokens": 512, "output_tokens": 128}})")
                                 .string();
    const CliResult r = run({"serve", path});
    CHECK(r.code == 3);
    INFO(r.out);
    INFO(r.err);
    // What: the weights, their size per device and the device's memory.
    CHECK(has(r.out, "cannot serve: does not fit in memory: the int4 weights need"));
    CHECK(has(r.out, "GiB of one A10G"));
    // What would: more such devices than the instance has.
    CHECK(has(r.out, "they need at least 2 such devices per replica (g5.xlarge has 1)"));
    CHECK(has(r.err, "no feasible plan: does not fit in memory"));
    const CliResult j = run({"serve", path, "--json"});
    CHECK(j.code == 3);
    const json doc = json::parse(j.out);
    CHECK(doc["valid"] == false);
    CHECK(has(doc["limit_reason"].get<std::string>(), "at least 2 such devices"));
}

TEST_CASE("serve: a ranking on spot prices shows them, in text and JSON alike") {
    const std::string scenario = example("serve-llama3-70b-slo.json"); // cluster.pricing spot
    const CliResult text = run({"serve", scenario});
    const CliResult r = run({"serve", scenario, "--json"});
    REQUIRE(text.code == 0);
    REQUIRE(r.code == 0);
    const json j = json::parse(r.out);
    CHECK(j["ranked_on"] == "spot");
    CHECK(has(text.out, "Ranked on spot prices"));
    CHECK(has(text.out, "spot $/h"));
    // The order follows the spot cost per 1M output tokens among priced plans meeting the SLO.
    double last = 0;
    for (const auto& c : j["ranking"]) {
        if (c["meets_slo"] != true || c["usd_per_million_output_tokens_spot"].is_null()) continue;
        const double per_million = c["usd_per_million_output_tokens_spot"];
        CHECK(per_million >= last);
        last = per_million;
    }
    // The first row's price columns are the JSON's spot figures.
    const json& first = j["ranking"][0];
    char spot_per_hour[32], spot_per_million[32];
    std::snprintf(spot_per_hour, sizeof spot_per_hour, " %.2f ",
                  first["usd_per_hour_spot"].get<double>());
    std::snprintf(spot_per_million, sizeof spot_per_million, " %.3f ",
                  first["usd_per_million_output_tokens_spot"].get<double>());
    const std::string first_row = row(text.out, 1);
    INFO(first_row);
    CHECK(has(first_row, first["instance"].get<std::string>()));
    CHECK(has(first_row, spot_per_hour));
    CHECK(has(first_row, spot_per_million));
    // On demand, the plain columns.
    const CliResult chat = run({"serve", example("serve-llama3-8b-chat.json"), "--json"});
    REQUIRE(chat.code == 0);
    CHECK(json::parse(chat.out)["ranked_on"] == "on_demand");
}

TEST_CASE("serve: the types that cannot serve are listed with their reasons and counts read well") {
    const CliResult r = run({"serve", example("serve-llama3-8b-chat.json")});
    REQUIRE(r.code == 0);
    INFO(r.out);
    CHECK(has(r.out, "instance types cannot serve this model:\n"));
    CHECK(has(r.out, "  inf1.xlarge: Inferentia1 serves small encoder and CNN models only"));
    CHECK_FALSE(has(r.out, "(s)"));
    CHECK_FALSE(has(r.out, " 1 devices"));
    const CliResult one = run({"serve", example("serve-llama3-70b-h100-fp8.json")});
    REQUIRE(one.code == 0);
    CHECK(has(one.out, "1 replica on 1 instance, 1 device\n"));
    // An encoder's cost column is per million samples, not output tokens.
    const CliResult bert = run({"serve", example("serve-bert-large-latency.json")});
    REQUIRE(bert.code == 0);
    CHECK(has(bert.out, "$/1M smp"));
    CHECK_FALSE(has(bert.out, "$/1M out"));
}

TEST_CASE("a range the estimate lies outside says which way the model leans") {
    cp::sim::PredictionInterval iv;
    iv.validated = true;
    iv.confidence = 0.8;
    const auto ms = [](double v) { return std::to_string(int(v)) + " ms"; };
    // Comparable runs measured 3-5 ms where the model said 2: it reads low there.
    CHECK(cp::cli::range_note(iv, cp::sim::FigureRange{3, 5}, ms, 2.0) ==
          " (80 % of comparable runs within 3–5 ms; the estimate is below that range: the model "
          "reads low there)");
    CHECK(has(cp::cli::range_note(iv, cp::sim::FigureRange{3, 5}, ms, 6.0), "reads high"));
    // Inside its range: the plain note.
    CHECK(cp::cli::range_note(iv, cp::sim::FigureRange{3, 5}, ms, 4.0) ==
          cp::cli::range_note(iv, cp::sim::FigureRange{3, 5}, ms));
}
