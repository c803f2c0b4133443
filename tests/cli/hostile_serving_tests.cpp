// Hostile serving scenarios and files through `serve`, `recommend` of a serving scenario and
// `report` (the real binary): wrong types, negative, zero, NaN-like and overflowing numbers,
// layouts the model refuses, and every kind of file that is not a readable scenario (missing,
// a directory, symlinks to a directory or a device, a dangling symlink, oversize, invalid
// JSON). Each gives exit 2, one line naming the file and the field, and stores nothing.
#include "bad_input_support.h"

#include <sys/stat.h>

namespace {

using namespace cp::test;
using json = nlohmann::json;
namespace fs = std::filesystem;

json serving_base() {
    return json::parse(R"({
      "schema": "clusterplan.scenario/1", "name": "serving bad-input baseline",
      "model": {"preset": "llama3-8b"},
      "cluster": {"instance": "g5.12xlarge", "region": "us-east-1"},
      "serving": {"tp": 4, "input_tokens": 512, "output_tokens": 256, "request_rate_per_s": 2,
                  "slo": {"ttft_ms": 500, "tpot_ms": 50, "p": 0.9}}
    })");
}

Case serving_case(const std::string& label, const std::function<void(json&)>& edit,
                  std::vector<std::string> mentions) {
    json doc = serving_base();
    edit(doc);
    return {label, "serving.json", doc.dump(2), std::move(mentions)};
}

std::vector<Case> serving_cases() {
    const std::string base = serving_base().dump(2);
    return {
        {"empty file", "serving.json", "", {}},
        {"invalid JSON", "serving.json", base.substr(0, base.size() / 2), {}},
        serving_case("tp as a string", [](json& d) { d["serving"]["tp"] = "4"; }, {"serving.tp"}),
        serving_case("replicas as a boolean", [](json& d) { d["serving"]["replicas"] = true; },
                     {"serving.replicas"}),
        serving_case("negative request rate",
                     [](json& d) { d["serving"]["request_rate_per_s"] = -1; },
                     {"request_rate_per_s"}),
        serving_case("request rate 1e308 (was planned at 1e306 % utilisation)",
                     [](json& d) { d["serving"]["request_rate_per_s"] = 1e308; },
                     {"request_rate_per_s"}),
        serving_case("request rate 1e-300 (its cost per 1M tokens printed 300 digits)",
                     [](json& d) { d["serving"]["request_rate_per_s"] = 1e-300; },
                     {"request_rate_per_s", "at least 1e-06"}),
        serving_case("a GPT-2 prompt past its 1024 learned positions",
                     [](json& d) {
                         d["model"] = {{"preset", "gpt2-1.5b"}};
                         d["serving"]["tp"] = 1;
                         d["serving"]["input_tokens"] = 1000;
                     },
                     {"serving.input_tokens", "1256", "1024 learned positions"}),
        serving_case("zero input tokens", [](json& d) { d["serving"]["input_tokens"] = 0; },
                     {"input_tokens"}),
        serving_case("zero replicas", [](json& d) { d["serving"]["replicas"] = 0; }, {"replicas"}),
        serving_case("TTFT limit as the string NaN",
                     [](json& d) { d["serving"]["slo"]["ttft_ms"] = "NaN"; }, {"ttft_ms"}),
        serving_case("TPOT limit 1e308", [](json& d) { d["serving"]["slo"]["tpot_ms"] = 1e308; },
                     {"tpot_ms"}),
        serving_case("quantile of 1", [](json& d) { d["serving"]["slo"]["p"] = 1; }, {"slo.p"}),
        serving_case("negative quantile", [](json& d) { d["serving"]["slo"]["p"] = -0.5; },
                     {"slo.p"}),
        serving_case("pipeline degree above the layers", [](json& d) { d["serving"]["pp"] = 64; },
                     {"serving.pp"}),
        serving_case("batch above the engine build's",
                     [](json& d) {
                         d["serving"]["batch"] = 64;
                         d["serving"]["engine_max_batch"] = 32;
                     },
                     {"serving.batch"}),
        serving_case("unknown engine", [](json& d) { d["serving"]["engine"] = "turbo"; },
                     {"serving.engine"}),
        serving_case("top-k above the experts",
                     [](json& d) {
                         d["model"] = {{"preset", "mixtral-8x7b"}, {"experts_per_token", 16}};
                     },
                     {"model.experts_per_token"}),
        serving_case("a training section next to serving",
                     [](json& d) {
                         d["training"] = {{"tokens", 1e9}};
                     },
                     {"training"}),
    };
}

} // namespace

TEST_CASE("the serving bad-input baseline is accepted", "[cli][bad-input][serving]") {
    Sandbox box;
    const fs::path file = box.write("serving.json", serving_base().dump(2));
    const CliResult r = run_cli({"serve", file.string(), "--json"});
    INFO(r.err);
    REQUIRE(r.code == 0);
}

TEST_CASE("hostile serving scenarios exit 2 with one clear sentence and change nothing",
          "[cli][bad-input][serving]") {
    Sandbox box;
    REQUIRE(run_cli({"catalog", "list"}).code == 0);
    for (const Case& c : serving_cases()) {
        expect_rejected(box, c, {"serve", "{file}"});
        expect_rejected(box, c, {"serve", "{file}", "--json"});
        expect_rejected(box, c, {"recommend", "{file}", "--json"});
    }
}

TEST_CASE("serve refuses what is not a readable scenario file, naming it",
          "[cli][bad-input][serving]") {
    Sandbox box;
    REQUIRE(run_cli({"catalog", "list"}).code == 0);
    const fs::path dir = box.files_dir() / "adir";
    fs::create_directory(dir);
    const fs::path to_dir = box.files_dir() / "to-dir.json";
    const fs::path to_zero = box.files_dir() / "to-zero.json";
    const fs::path dangling = box.files_dir() / "dangling.json";
    fs::create_symlink(dir, to_dir);
    fs::create_symlink("/dev/zero", to_zero);
    fs::create_symlink(box.files_dir() / "nowhere.json", dangling);
    const fs::path big = box.write("big.json", "{");
    fs::resize_file(big, (std::uintmax_t{64} << 20) + 1);
    const std::vector<std::pair<fs::path, std::string>> files = {
        {box.files_dir() / "missing.json", "does not exist"},
        {dir, "directory"},
        {to_dir, "directory"},
        {to_zero, "character device"},
        {dangling, "does not exist"},
        {big, "64 MiB"}};
    for (const auto& [path, why] : files) {
        for (const char* json_flag : {"--json", "--top"}) {
            std::vector<std::string> argv = {"serve", path.string(), json_flag};
            if (std::string(json_flag) == "--top") argv.push_back("3");
            const std::string before = box.stored_data();
            const CliResult r = run_cli(argv);
            INFO(path << ": exit " << r.code << ", stderr: " << r.err);
            check_rejected(box, r, before, path.filename().string(), {why});
        }
    }
}

#ifdef CLUSTERPLAN_APP_HAS_REPORT
TEST_CASE("report refuses hostile serving scenarios through the real binary",
          "[cli][bad-input][serving][binary]") {
    Sandbox box;
    const std::string app = CLUSTERPLAN_APP_BINARY;
    REQUIRE(run_program(app, {"catalog", "list"}, box.files_dir()).code == 0);
    const fs::path out = box.files_dir() / "report.json";
    for (const Case& c : serving_cases()) {
        const fs::path file = box.write(c.file_name, c.bytes);
        const std::string before = box.stored_data();
        const CliResult r =
            run_program(app, {"report", file.string(), "--out", out.string()}, box.data_dir());
        INFO("case: " << c.label << "\nexit " << r.code << "\nstderr: " << r.err);
        check_rejected(box, r, before, c.file_name, c.mentions);
        CHECK_FALSE(fs::exists(out));
    }
}
#endif
