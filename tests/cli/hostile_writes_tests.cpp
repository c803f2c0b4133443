// Writes that must touch nothing but the file asked for: `catalog export` onto the live database
// (it overwrote it with CSV), onto a symlink or a planted temporary name, `report --out LINK`
// (it replaced the link's target), a FIFO or a directory as the output, an export named .json
// (it wrote CSV anyway).
#include "bad_input_support.h"

#include <sys/stat.h>

namespace {

using namespace cp::test;
namespace fs = std::filesystem;

void expect_write_refused(const Sandbox& box, const std::vector<std::string>& argv,
                          const std::vector<std::string>& mentions) {
    const std::string before = box.stored_data();
    const std::string db_bytes = read_bytes(box.database());
    const CliResult r = run_cli(argv);
    INFO(argv[0] << " " << argv[1] << " " << argv.back() << ": exit " << r.code
                 << ", stderr: " << r.err);
    CHECK(r.code == 2);
    CHECK(line_count(r.err) == 1);
    for (const auto& m : mentions)
        CHECK(lower(r.err).find(lower(m)) != std::string::npos);
    CHECK(box.stored_data() == before);
    CHECK(read_bytes(box.database()) == db_bytes);
}

} // namespace

TEST_CASE("catalog export never replaces a database", "[cli][bad-input][writes]") {
    Sandbox box;
    REQUIRE(run_cli({"catalog", "list"}).code == 0);
    const fs::path history =
        fs::path(CLUSTERPLAN_TEST_DATA_DIR) / "catalog/spot_history_us_east_1.json";
    REQUIRE(run_cli({"catalog", "import", history.string()}).code == 0);
    // The live database by its own name (not .csv), and through a .csv symlink and a hard link.
    expect_write_refused(box, {"catalog", "export", box.database().string()}, {"csv"});
    const fs::path sym = box.files_dir() / "catalog.csv";
    fs::create_symlink(box.database(), sym);
    expect_write_refused(box, {"catalog", "export", sym.string()}, {"live catalog"});
    const fs::path hard = box.data_dir() / "hard.csv";
    fs::create_hard_link(box.database(), hard);
    expect_write_refused(box, {"catalog", "export", hard.string()}, {"live catalog"});
    // A database set aside by rebuild, renamed .csv by someone: still a database.
    const fs::path copy = box.files_dir() / "old.csv";
    fs::copy_file(box.database(), copy);
    const std::string copy_bytes = read_bytes(copy);
    expect_write_refused(box, {"catalog", "export", copy.string()}, {"SQLite database"});
    CHECK(read_bytes(copy) == copy_bytes);
    // The export is CSV: another extension is refused before anything is written.
    expect_write_refused(box, {"catalog", "export", (box.files_dir() / "x.json").string()},
                         {"csv"});
    CHECK_FALSE(fs::exists(box.files_dir() / "x.json"));
    CHECK(run_cli({"catalog", "export", (box.files_dir() / "X.CSV").string()}).code == 0);
}

TEST_CASE("catalog export follows no symlink and writes no guessable temporary file",
          "[cli][bad-input][writes]") {
    Sandbox box;
    REQUIRE(run_cli({"catalog", "list"}).code == 0);
    const fs::path victim = box.files_dir() / "victim.txt";
    { std::ofstream(victim) << "keep me"; }
    // The old export wrote F.tmp with truncate: a planted F.tmp link overwrote its target.
    const fs::path out = box.files_dir() / "prices.csv";
    fs::path planted = out;
    planted += ".tmp";
    fs::create_symlink(victim, planted);
    REQUIRE(run_cli({"catalog", "export", out.string()}).code == 0);
    CHECK(read_bytes(victim) == "keep me");
    CHECK(fs::is_symlink(planted));
    CHECK(read_bytes(out).rfind("record,instance_type", 0) == 0);
    // The output itself a symlink: refused, the target untouched.
    const fs::path link = box.files_dir() / "link.csv";
    fs::create_symlink(victim, link);
    expect_write_refused(box, {"catalog", "export", link.string()}, {"symbolic link"});
    CHECK(read_bytes(victim) == "keep me");
    // A FIFO or a directory as the output.
    const fs::path fifo = box.files_dir() / "fifo.csv";
    REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
    expect_write_refused(box, {"catalog", "export", fifo.string()}, {"not a regular file"});
    fs::create_directory(box.files_dir() / "dir.csv");
    expect_write_refused(box, {"catalog", "export", (box.files_dir() / "dir.csv").string()},
                         {"directory"});
    // No temporary file is left behind.
    for (const auto& entry : fs::directory_iterator(box.files_dir()))
        CHECK(entry.path().filename().string().find(".tmp") ==
              (entry.path() == planted ? 10u : std::string::npos));
}

#ifdef CLUSTERPLAN_APP_HAS_REPORT
TEST_CASE("report --out refuses a symlink and leaves its target alone",
          "[cli][bad-input][writes][binary]") {
    Sandbox box;
    const std::string app = CLUSTERPLAN_APP_BINARY;
    REQUIRE(run_program(app, {"catalog", "list"}, box.files_dir()).code == 0);
    const fs::path scenario = box.write("s.json", base_scenario().dump());
    const fs::path victim = box.files_dir() / "victim.html";
    { std::ofstream(victim) << "keep me"; }
    const fs::path link = box.files_dir() / "report.html";
    fs::create_symlink(victim, link);
    const CliResult r =
        run_program(app, {"report", scenario.string(), "--out", link.string()}, box.data_dir());
    INFO(r.err);
    CHECK(r.code == 2);
    CHECK(line_count(r.err) == 1);
    CHECK(r.err.find("symbolic link") != std::string::npos);
    CHECK(read_bytes(victim) == "keep me");
    CHECK(fs::is_symlink(link));
    // The Markdown report's chart directory as a symlink: charts would land elsewhere.
    const fs::path elsewhere = box.files_dir() / "elsewhere";
    fs::create_directory(elsewhere);
    fs::create_directory_symlink(elsewhere, box.files_dir() / "r_charts");
    const CliResult md = run_program(
        app, {"report", scenario.string(), "--out", (box.files_dir() / "r.md").string()},
        box.data_dir());
    INFO(md.err);
    CHECK(md.code == 2);
    CHECK(fs::is_empty(elsewhere));
    CHECK_FALSE(fs::exists(box.files_dir() / "r.md"));
}
#endif
