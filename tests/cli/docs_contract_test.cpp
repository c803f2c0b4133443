// The documented contract is additive: every scenario field the parser reads and every field
// `simulate --json`, `serve --json`, `sweep --json`, `recommend --json` and `report --out
// FILE.json` write is named in docs/DESIGN.md or docs/ARCHITECTURE.md.
// The parser's fields are its own list (sim::scenario_field_paths), widened section by section:
// each object or list it looks up is filled with an empty one so its own fields are read too.
#include "cli_sandbox.h"
#include "clusterplan/sim/scenario.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <vector>

using cp::test::read_bytes;
using cp::test::run_cli;
using cp::test::run_program;
using cp::test::Sandbox;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

const fs::path kSource = CLUSTERPLAN_SOURCE_DIR;

std::string docs_text() {
    return read_bytes(kSource / "docs/DESIGN.md") + read_bytes(kSource / "docs/ARCHITECTURE.md");
}

// A field is named where it stands quoted or in code: `field`, "field", `section.field`.
bool documented(const std::string& docs, const std::string& field) {
    for (const char* before : {"`", "\"", "."})
        for (const char* after : {"`", "\""})
            if (docs.find(before + field + after) != std::string::npos) return true;
    return false;
}

// "training.seq_phases[0].step_fraction" -> "step_fraction".
std::string leaf(const std::string& path) {
    std::string last = path.substr(path.rfind('.') == std::string::npos ? 0 : path.rfind('.') + 1);
    return last.substr(0, last.find('['));
}

// `doc` with an empty object (or a list of one) at `path`, creating the sections above it.
json with_empty_at(json doc, const std::string& path, bool as_list) {
    json* node = &doc;
    std::istringstream parts(path);
    std::string part;
    std::vector<std::string> keys;
    while (std::getline(parts, part, '.'))
        keys.push_back(part);
    for (std::size_t i = 0; i < keys.size(); ++i) {
        std::string key = keys[i];
        const auto bracket = key.find('[');
        const bool item = bracket != std::string::npos;
        key = key.substr(0, bracket);
        if (!node->is_object()) *node = json::object();
        json& child = (*node)[key];
        if (item) {
            if (!child.is_array() || child.empty()) child = json::array({json::object()});
            node = &child[0];
        } else if (i + 1 == keys.size()) {
            child = as_list ? json::array({json::object()}) : json::object();
        } else {
            node = &child;
        }
    }
    return doc;
}

std::vector<fs::path> scenario_files() {
    std::vector<fs::path> files;
    for (const fs::path& dir : {kSource / "resources/scenarios", kSource / "tests/data/scenarios"})
        for (const auto& entry : fs::directory_iterator(dir))
            if (entry.path().extension() == ".json") files.push_back(entry.path());
    return files;
}

// Every object key in `doc`, at any depth.
void collect_keys(const json& doc, std::set<std::string>& keys) {
    if (doc.is_object()) {
        for (const auto& [key, value] : doc.items()) {
            keys.insert(key);
            collect_keys(value, keys);
        }
    } else if (doc.is_array()) {
        for (const json& item : doc)
            collect_keys(item, keys);
    }
}

// The keys of `keys` that neither document names.
std::vector<std::string> undocumented(const std::set<std::string>& keys) {
    const std::string docs = docs_text();
    std::vector<std::string> missing;
    for (const std::string& key : keys)
        if (!documented(docs, key)) missing.push_back(key);
    return missing;
}

bool plans_serving(const json& doc) {
    return doc.contains("serving");
}

} // namespace

TEST_CASE("Every scenario field the parser reads is documented", "[cli][docs]") {
    std::set<std::string> paths;
    for (const fs::path& file : scenario_files())
        for (const std::string& p : cp::sim::scenario_field_paths(read_bytes(file)))
            paths.insert(p);
    // Each section the parser looks up, filled with an empty object or list, shows its fields.
    const json base = {{"schema", "clusterplan.scenario/1"},
                       {"model", {{"preset", "llama3-8b"}}},
                       {"cluster", {{"instance", "p4d.24xlarge"}}}};
    for (const std::string& p : cp::sim::scenario_field_paths(base.dump()))
        paths.insert(p);
    std::set<std::string> tried;
    for (bool grew = true; grew;) {
        grew = false;
        const std::set<std::string> now = paths;
        for (const std::string& p : now) {
            if (!tried.insert(p).second) continue;
            for (const bool as_list : {false, true})
                for (const std::string& found :
                     cp::sim::scenario_field_paths(with_empty_at(base, p, as_list).dump()))
                    grew = paths.insert(found).second || grew;
        }
    }
    // The widening reached nested objects and list items.
    for (const char* nested : {"serving.slo.p", "cluster.custom.accelerator",
                               "training.seq_phases[0].step_fraction", "constraints.max_nodes"})
        CHECK(paths.count(nested) == 1);

    const std::string docs = docs_text();
    std::vector<std::string> missing;
    for (const std::string& p : paths)
        if (!documented(docs, leaf(p))) missing.push_back(p);
    INFO("fields the parser reads that docs/DESIGN.md does not name: " << json(missing).dump());
    CHECK(missing.empty());
}

TEST_CASE("Every field simulate --json and serve --json write is documented", "[cli][docs]") {
    Sandbox box;
    std::set<std::string> keys;
    for (const fs::path& file : scenario_files()) {
        const json doc = json::parse(read_bytes(file));
        // simulate plans one cluster; a file that leaves the instance to the search is skipped.
        const json& cluster = doc.at("cluster");
        if (!doc.contains("serving") && !cluster.contains("instance") &&
            !cluster.contains("custom"))
            continue;
        const char* command = doc.contains("serving") ? "serve" : "simulate";
        const auto r = run_cli({command, file.string(), "--json"});
        INFO(command << " " << file << ": " << r.err);
        // 3: no feasible plan; the document is still written.
        REQUIRE((r.code == 0 || r.code == 3));
        collect_keys(json::parse(r.out), keys);
    }
    // The ranking of several candidates writes its own fields (candidates, ranking, cannot_serve).
    const fs::path ranked = box.write("ranked.json", R"({"schema": "clusterplan.scenario/1",
        "model": {"preset": "llama3-70b"}, "cluster": {"region": "us-east-1"},
        "constraints": {"instances": ["g4dn.xlarge", "g5.48xlarge", "p5.48xlarge"]},
        "serving": {"request_rate_per_s": 2}})");
    const auto r = run_cli({"serve", ranked.string(), "--json"});
    INFO(r.err);
    REQUIRE((r.code == 0 || r.code == 3));
    collect_keys(json::parse(r.out), keys);
    for (const char* ranking_field : {"candidates", "ranking", "cannot_serve"})
        CHECK(keys.count(ranking_field) == 1);

    const std::string docs = docs_text();
    std::vector<std::string> missing;
    for (const std::string& key : keys)
        if (!documented(docs, key)) missing.push_back(key);
    INFO("fields the JSON output writes that docs/DESIGN.md does not name: "
         << json(missing).dump());
    CHECK(missing.empty());
}

TEST_CASE("Every field sweep --json and recommend --json write is documented", "[cli][docs]") {
    Sandbox box;
    std::set<std::string> sweep_keys, recommend_keys;
    for (const fs::path& file : scenario_files()) {
        const json doc = json::parse(read_bytes(file));
        // recommend ranks training and serving scenarios; sweep lists training layouts.
        auto r = run_cli({"recommend", file.string(), "--json", "--top", "3"});
        INFO("recommend " << file << ": " << r.err);
        REQUIRE((r.code == 0 || r.code == 3));
        collect_keys(json::parse(r.out), recommend_keys);
        if (plans_serving(doc)) continue;
        r = run_cli({"sweep", file.string(), "--json", "--top", "3"});
        INFO("sweep " << file << ": " << r.err);
        REQUIRE((r.code == 0 || r.code == 3));
        collect_keys(json::parse(r.out), sweep_keys);
    }
    // Both reached their own sections.
    for (const char* field : {"plans", "pareto", "excluded", "instances"})
        CHECK(sweep_keys.count(field) == 1);
    for (const char* field : {"recommendations", "fits", "summary"})
        CHECK(recommend_keys.count(field) == 1);
    const std::vector<std::string> sweep_missing = undocumented(sweep_keys);
    INFO("fields sweep --json writes that the docs do not name: " << json(sweep_missing).dump());
    CHECK(sweep_missing.empty());
    const std::vector<std::string> recommend_missing = undocumented(recommend_keys);
    INFO("fields recommend --json writes that the docs do not name: "
         << json(recommend_missing).dump());
    CHECK(recommend_missing.empty());
}

#ifdef CLUSTERPLAN_APP_HAS_REPORT
TEST_CASE("Every field report --out FILE.json writes is documented", "[cli][docs][binary]") {
    Sandbox box;
    const std::string app = CLUSTERPLAN_APP_BINARY;
    std::set<std::string> keys;
    // One training and one serving report: the serving one lists its deployments as serve --json
    // documents, already checked above; the report's own keys are checked here.
    for (const char* name : {"llama3-8b-any.json", "serve-llama3-8b-chat.json"}) {
        const fs::path out = box.files_dir() / (std::string(name) + ".report.json");
        const auto r = run_program(app,
                                   {"report", (kSource / "resources/scenarios" / name).string(),
                                    "--out", out.string(), "--top", "3"},
                                   box.data_dir());
        INFO("report " << name << ": exit " << r.code << ", " << r.err);
        REQUIRE((r.code == 0 || r.code == 3));
        const json doc = json::parse(read_bytes(out));
        CHECK(doc.at("schema") == "clusterplan.report/1");
        collect_keys(doc, keys);
    }
    const std::vector<std::string> missing = undocumented(keys);
    INFO("fields report JSON writes that the docs do not name: " << json(missing).dump());
    CHECK(missing.empty());
}
#endif
