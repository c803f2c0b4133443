// What a new user hits first: escape sequences from names reaching the terminal, `--help` on
// every command, exit 3 with the nearest miss when nothing is feasible, instance names typed in
// another case or with a typo, another user's read-only catalog, `catalog rebuild` on a healthy
// catalog with imports, the probe binary next to the program, a scenario file as the argument.
#include "bad_input_support.h"
#include "clusterplan/remote/probe_locate.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using namespace cp::test;
using json = nlohmann::json;
namespace fs = std::filesystem;

const std::string kEscape = "\x1b]0;pwned\x07\x1b[2J\xc2\x9b"
                            "31m";

} // namespace

TEST_CASE("names from files reach the terminal with control characters escaped",
          "[cli][rough-edges]") {
    Sandbox box;
    json doc = base_scenario();
    doc["name"] = "plan " + kEscape;
    const fs::path scenario = box.write("esc.json", doc.dump());
    for (const auto& argv : {std::vector<std::string>{"simulate", scenario.string()},
                             std::vector<std::string>{"simulate", scenario.string(), "--json"},
                             std::vector<std::string>{"recommend", scenario.string()}}) {
        const CliResult r = run_cli(argv);
        INFO(argv.back() << ": " << r.err);
        CHECK(r.code == 0);
        CHECK(r.out.find('\x1b') == std::string::npos);
        CHECK(r.out.find('\x07') == std::string::npos);
        CHECK(r.out.find("\xc2\x9b") == std::string::npos);
        CHECK(r.out.find("\\u001b]0;pwned\\u0007") != std::string::npos);
    }
    // --json stays valid JSON and decodes to the original name.
    const CliResult j = run_cli({"simulate", scenario.string(), "--json"});
    const json parsed = json::parse(j.out);
    CHECK(parsed.dump().find("pwned") != std::string::npos);
    // A host name inside imported nccl-tests output, shown by `calibrate list`.
    const std::string text = read_bytes(fs::path(CLUSTERPLAN_TEST_DATA_DIR) /
                                        "calibration/nccl_tests_allreduce_a100x8.txt");
    const fs::path nccl = box.write(
        "esc.txt", with(text, "on dgx-a100-01 device  0", "on dgx" + kEscape + " device  0"));
    REQUIRE(run_cli({"calibrate", "import", nccl.string(), "--name", "esc"}).code == 0);
    const CliResult list = run_cli({"calibrate", "list"});
    CHECK(list.out.find('\x1b') == std::string::npos);
    CHECK(list.out.find("\\u001b") != std::string::npos);
}

TEST_CASE("every command answers --help on stdout with exit 0", "[cli][rough-edges]") {
    Sandbox box;
    for (const auto& argv : {std::vector<std::string>{"simulate", "--help"},
                             {"sweep", "--help"},
                             {"recommend", "-h"},
                             {"serve", "--help"},
                             {"serve", "s.json", "-h"},
                             {"simulate", "s.json", "--help"},
                             {"catalog", "--help"},
                             {"catalog", "list", "--help"},
                             {"catalog", "export", "--help"},
                             {"calibrate", "import", "--help"},
                             {"probe", "run", "--help"}}) {
        const CliResult r = run_cli(argv);
        INFO(argv[0] << " " << argv[1] << ": exit " << r.code << ", stderr: " << r.err);
        CHECK(r.code == 0);
        CHECK(r.out.rfind("usage: clusterplan", 0) == 0);
        CHECK(r.err.empty());
    }
    const CliResult top = run_cli({"--help"});
    CHECK(top.code == 0);
    for (const char* flag : {"--gui", "--screenshot", "--page", "--size", "--probe-file",
                             "SCENARIO.json", "3 no feasible plan"})
        CHECK(top.out.find(flag) != std::string::npos);
#ifdef CLUSTERPLAN_APP_HAS_REPORT
    const CliResult report =
        run_program(CLUSTERPLAN_APP_BINARY, {"report", "--help"}, box.files_dir());
    CHECK(report.code == 0);
    CHECK(report.out.rfind("usage: clusterplan report", 0) == 0);
#endif
}

TEST_CASE("no feasible plan exits 3 and names the nearest miss", "[cli][rough-edges]") {
    Sandbox box;
    // Llama 3 8B in fp32 with every layout field fixed on one g5.xlarge (24 GB): cannot fit.
    json big = base_scenario();
    big["cluster"] = {{"instance", "g5.xlarge"}, {"nodes", 1}};
    big["precision"] = "fp32";
    big["parallel"] = {{"tp", 1}, {"pp", 1}, {"dp", 1}, {"micro_batch", 1}, {"global_batch", 64}};
    const fs::path too_big = box.write("too-big.json", big.dump());
    CliResult r = run_cli({"simulate", too_big.string()});
    INFO(r.err);
    CHECK(r.code == 3);
    CHECK(line_count(r.err) == 1);
    CHECK(r.err.find("no feasible plan") != std::string::npos);
    CHECK(r.err.find("GiB") != std::string::npos);
    CHECK_FALSE(r.out.empty()); // the plan is still shown
    r = run_cli({"simulate", too_big.string(), "--json"});
    CHECK(r.code == 3);
    CHECK(json::parse(r.out)["fits_in_memory"] == false);
    // A budget no plan meets: the cheapest plan and how far over it is.
    json poor = base_scenario();
    poor["constraints"] = {{"budget_usd", 1}};
    const fs::path over = box.write("over-budget.json", poor.dump());
    r = run_cli({"recommend", over.string()});
    INFO(r.err);
    CHECK(r.code == 3);
    CHECK(line_count(r.err) == 1);
    CHECK(r.err.find("budget") != std::string::npos);
    CHECK(r.err.find("nearest") != std::string::npos);
    CHECK(run_cli({"sweep", over.string(), "--threads", "1"}).code == 3);
    // A deadline no plan meets.
    json rushed = base_scenario();
    rushed["constraints"] = {{"deadline_hours", 0.001}};
    r = run_cli({"recommend", box.write("rushed.json", rushed.dump()).string()});
    CHECK(r.code == 3);
    CHECK(r.err.find("deadline") != std::string::npos);
    // Feasible plans still exit 0.
    CHECK(run_cli({"recommend", box.write("ok.json", base_scenario().dump()).string()}).code == 0);
}

TEST_CASE("instance names match in any case and typos get a suggestion", "[cli][rough-edges]") {
    Sandbox box;
    CliResult r = run_cli({"catalog", "show", "P4D.24XLarge"});
    INFO(r.err);
    CHECK(r.code == 0);
    CHECK(r.out.rfind("p4d.24xlarge", 0) == 0);
    r = run_cli({"catalog", "show", "p4d.24xlarg"});
    CHECK(r.code == 2);
    CHECK(r.err.find("did you mean p4d.24xlarge") != std::string::npos);
    json doc = base_scenario();
    doc["cluster"]["instance"] = "P4D.24xlarge";
    CHECK(run_cli({"simulate", box.write("case.json", doc.dump()).string()}).code == 0);
    doc["cluster"]["instance"] = "p4d.24xlarge2";
    r = run_cli({"simulate", box.write("typo.json", doc.dump()).string()});
    CHECK(r.code == 2);
    CHECK(r.err.find("did you mean p4d.24xlarge") != std::string::npos);
}

TEST_CASE("catalog rebuild keeps a healthy catalog with imports unless --force",
          "[cli][rough-edges]") {
    Sandbox box;
    const fs::path history =
        fs::path(CLUSTERPLAN_TEST_DATA_DIR) / "catalog/spot_history_us_east_1.json";
    REQUIRE(run_cli({"catalog", "import", history.string()}).code == 0);
    const std::string before = box.stored_data();
    CliResult r = run_cli({"catalog", "rebuild"});
    INFO(r.err);
    CHECK(r.code == 2);
    CHECK(line_count(r.err) == 1);
    CHECK(r.err.find("--force") != std::string::npos);
    CHECK(r.err.find("prices") != std::string::npos);
    CHECK(box.stored_data() == before);
    r = run_cli({"catalog", "rebuild", "--force"});
    CHECK(r.code == 0);
    CHECK(box.stored_data() != before);
    bool backup = false;
    for (const auto& e : fs::directory_iterator(box.data_dir()))
        backup = backup || e.path().filename().string().find("catalog.sqlite.corrupt-") == 0;
    CHECK(backup);
    // A fresh catalog holds nothing of the user's: no --force needed.
    CHECK(run_cli({"catalog", "rebuild"}).code == 0);
}

TEST_CASE("another user's read-only catalog can be listed and planned with",
          "[cli][rough-edges][binary]") {
    Sandbox box;
    const std::string app = CLUSTERPLAN_APP_BINARY;
    REQUIRE(run_program(app, {"catalog", "list"}, box.files_dir()).code == 0);
    const std::string before = read_bytes(box.database());
    const fs::path scenario = box.write("s.json", base_scenario().dump());
    const fs::path scratch = box.files_dir() / "out";
    fs::create_directory(scratch);
    // The catalog's owner is this user; the commands run as `nobody` when this is root, else
    // with the file and its directory made read-only.
    const bool as_root = geteuid() == 0;
    fs::permissions(box.data_dir().parent_path(), fs::perms(0755));
    fs::permissions(box.files_dir(), fs::perms(0755));
    fs::permissions(scratch, fs::perms(0777));
    fs::permissions(scenario, fs::perms(0644));
    fs::permissions(box.data_dir(), fs::perms(as_root ? 0755 : 0555));
    fs::permissions(box.database(), fs::perms(0444));
    auto run_other = [&](const std::vector<std::string>& argv) {
        if (!as_root) return run_program(app, argv, scratch);
        const pid_t pid = fork();
        if (pid == 0) {
            if (setgid(65534) != 0 || setuid(65534) != 0) _exit(99);
            const int out =
                open((scratch / "stdout.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            const int err =
                open((scratch / "stderr.txt").c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
            dup2(out, 1);
            dup2(err, 2);
            std::vector<std::string> args{app};
            args.insert(args.end(), argv.begin(), argv.end());
            std::vector<char*> c_args;
            for (auto& a : args)
                c_args.push_back(a.data());
            c_args.push_back(nullptr);
            execve(app.c_str(), c_args.data(), environ);
            _exit(98);
        }
        int status = 0;
        waitpid(pid, &status, 0);
        CliResult r;
        r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
        r.out = read_bytes(scratch / "stdout.txt");
        r.err = read_bytes(scratch / "stderr.txt");
        return r;
    };
    CliResult r = run_other({"catalog", "list"});
    INFO(r.err);
    CHECK(r.code == 0);
    CHECK(r.out.find("p4d.24xlarge") != std::string::npos);
    CHECK(run_other({"catalog", "show", "p4d.24xlarge"}).code == 0);
    CHECK(run_other({"simulate", scenario.string()}).code == 0);
    // Writing is refused in one sentence that says why.
    const fs::path history =
        fs::path(CLUSTERPLAN_TEST_DATA_DIR) / "catalog/spot_history_us_east_1.json";
    r = run_other({"catalog", "import", history.string()});
    CHECK(r.code == 2);
    CHECK(r.err.find("read-only") != std::string::npos);
    fs::permissions(box.data_dir(), fs::perms(0755));
    fs::permissions(box.database(), fs::perms(0644));
    CHECK(read_bytes(box.database()) == before); // not even the journal mode changed
}

TEST_CASE("the probe binary is found next to the program, installed or in the build tree",
          "[cli][rough-edges]") {
    Sandbox box;
    unsetenv("CLUSTERPLAN_PROBE");
    const fs::path& root = box.files_dir();
    fs::create_directories(root / "build/app");
    fs::create_directories(root / "build/probes");
    { std::ofstream(root / "build/probes/clusterplan-probe") << "#!/bin/sh\n"; }
    CHECK(cp::remote::find_probe_binary(root / "build/app/clusterplan") ==
          (root / "build/probes/clusterplan-probe").lexically_normal().string());
    { std::ofstream(root / "build/app/clusterplan-probe") << "#!/bin/sh\n"; }
    CHECK(cp::remote::find_probe_binary(root / "build/app/clusterplan") ==
          (root / "build/app/clusterplan-probe").string());
    CHECK(cp::remote::find_probe_binary(root / "elsewhere/clusterplan").empty());
}

TEST_CASE("the desktop entry passes a file and declares JSON", "[cli][rough-edges]") {
    const std::string entry = source_file("packaging/clusterplan.desktop");
    CHECK(entry.find("\nExec=clusterplan %f\n") != std::string::npos);
    CHECK(entry.find("\nMimeType=application/json;\n") != std::string::npos);
}

#ifdef CLUSTERPLAN_APP_HAS_REPORT
TEST_CASE("a scenario file as the argument opens in the GUI and --screenshot renders it",
          "[cli][rough-edges][binary]") {
    Sandbox box;
    setenv("QT_QPA_PLATFORM", "offscreen", 1);
    const std::string app = CLUSTERPLAN_APP_BINARY;
    json doc = base_scenario();
    doc["name"] = "opened from the command line";
    const fs::path scenario = box.write("mine.json", doc.dump());
    const fs::path png = box.files_dir() / "plan.png";
    CliResult r = run_program(
        app, {"--screenshot", png.string(), "--page", "plan", scenario.string()}, box.data_dir());
    INFO(r.err);
    CHECK(r.code == 0);
    CHECK(fs::file_size(png) > 1000);
    // A bad scenario is reported, not silently replaced by the default.
    const fs::path bad = box.write("bad.json", "{\"model\": 1}");
    r = run_program(app, {"--screenshot", png.string(), "--page", "plan", bad.string()},
                    box.data_dir());
    CHECK(r.code == 2);
    CHECK(r.err.find("bad.json") != std::string::npos);
    unsetenv("QT_QPA_PLATFORM");
}
#endif
