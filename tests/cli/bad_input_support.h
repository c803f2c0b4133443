// The rejection contract every hostile-input table checks: exit code 2, ONE line on stderr that
// names the file (and the field where there is one), nothing on stdout, nothing stored changed.
#pragma once

#include "cli_sandbox.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cctype>
#include <functional>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace cp::test {

struct Case {
    std::string label; // what makes the input hostile
    std::string file_name;
    std::string bytes;
    std::vector<std::string> mentions; // the message must name these (field, value)
};

inline std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

// Replaces the first `from` in `text`; the table is wrong (not the program) if it is absent.
inline std::string with(std::string text, const std::string& from, const std::string& to) {
    const auto pos = text.find(from);
    REQUIRE(pos != std::string::npos);
    return text.replace(pos, from.size(), to);
}

inline std::string source_file(const std::string& relative) {
    return read_bytes(std::filesystem::path(CLUSTERPLAN_SOURCE_DIR) / relative);
}

// Checks the rejection contract for a run that already happened.
inline void check_rejected(const Sandbox& box, const CliResult& r, const std::string& before,
                           const std::string& name, const std::vector<std::string>& mentions) {
    CHECK(r.code == 2);
    CHECK(line_count(r.err) == 1);
    CHECK(r.err.size() < 1000);
    if (!name.empty()) CHECK(r.err.find(name) != std::string::npos);
    for (const auto& m : mentions)
        CHECK(lower(r.err).find(lower(m)) != std::string::npos);
    CHECK(r.out.empty());
    CHECK(box.stored_data() == before);
}

// Runs `argv` ({file} = the hostile file) and checks the rejection contract.
inline void expect_rejected(const Sandbox& box, const Case& c,
                            const std::vector<std::string>& argv) {
    const std::filesystem::path file = box.write(c.file_name, c.bytes);
    std::vector<std::string> args;
    for (const auto& a : argv)
        args.push_back(a == "{file}" ? file.string() : a);
    const std::string before = box.stored_data();
    const CliResult r = run_cli(args);
    std::string command;
    for (const auto& a : argv)
        command += (a == "{file}" ? c.file_name : a) + " ";
    INFO("case: " << c.label << "\ncommand: " << command << "\nexit " << r.code
                  << "\nstderr: " << r.err.substr(0, 400));
    check_rejected(box, r, before, c.file_name, c.mentions);
    std::filesystem::remove(file);
}

// The scenario every scenario table edits: valid, quick to simulate.
inline nlohmann::json base_scenario() {
    return nlohmann::json::parse(R"({
      "schema": "clusterplan.scenario/1", "name": "bad-input baseline",
      "model": {"preset": "llama3-8b"},
      "cluster": {"instance": "p4d.24xlarge", "nodes": 2, "region": "us-east-1"},
      "parallel": {"tp": 8, "pp": 1, "dp": 2, "micro_batch": 1, "global_batch": 64},
      "training": {"tokens": 1e9}
    })");
}

inline Case scenario_case(const std::string& label,
                          const std::function<void(nlohmann::json&)>& edit,
                          std::vector<std::string> mentions) {
    nlohmann::json doc = base_scenario();
    edit(doc);
    return {label, "scenario.json", doc.dump(2), std::move(mentions)};
}

// `depth` nested arrays around `inner`: "[[[...1...]]]".
inline std::string nested_json(std::size_t depth, const std::string& inner = "1") {
    std::string s(depth, '[');
    s += inner;
    s.append(depth, ']');
    return s;
}

} // namespace cp::test
