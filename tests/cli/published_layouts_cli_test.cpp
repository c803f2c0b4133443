// Published layouts and deployments the planner must answer (issues 12 and 14): each file under
// tests/data/scenarios/published_layouts names its source (repo@commit and path, or the document)
// in its "name". Training files run through `simulate`, serving files through `serve`; each must
// exit 0 with finite, positive figures. They include layouts the planner refused before: uneven
// serving pipelines (DeepSeek-V3's 61 layers on pp 2), heads of a given width that do not divide
// the hidden size (GLM-4.5), and heads NeuronX Distributed pads (DBRX's 48 heads at tp 32).
#include "cli_sandbox.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>
#include <vector>

namespace fs = std::filesystem;
using cp::test::run_cli;
using cp::test::Sandbox;
using nlohmann::json;

namespace {

std::vector<fs::path> published_layouts() {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(fs::path(CLUSTERPLAN_TEST_DATA_DIR) /
                                                    "scenarios" / "published_layouts"))
        if (entry.path().extension() == ".json") files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    return files;
}

bool positive(const json& v) {
    return v.is_number() && std::isfinite(v.get<double>()) && v.get<double>() > 0;
}

} // namespace

TEST_CASE("every published layout and deployment in the audit set is answered",
          "[cli][published]") {
    Sandbox box;
    const auto files = published_layouts();
    REQUIRE(files.size() >= 40);
    for (const fs::path& file : files) {
        std::ifstream in(file);
        const json scenario = json::parse(in);
        const bool serving = scenario.contains("serving");
        const auto r = run_cli({serving ? "serve" : "simulate", file.string(), "--json"});
        INFO(file.filename().string() << ": " << scenario["name"].get<std::string>() << "\n"
                                      << r.err);
        REQUIRE(r.code == 0);
        const json j = json::parse(r.out);
        if (serving) {
            CHECK(j["valid"] == true);
            CHECK((positive(j["output_tokens_per_s"]) || positive(j["samples_per_s"])));
        } else {
            CHECK(j["limit"] == "none");
            CHECK(positive(j["step_time_s"]));
            CHECK(positive(j["mfu"]));
            CHECK(j["mfu"].get<double>() < 1.0);
            CHECK(positive(j["memory_gib"]["total"]));
        }
    }
}
