// Test plumbing for hostile-input and database-safety tests: a temporary CLUSTERPLAN_DATA_DIR,
// running commands in-process (cp::cli::run) or through the real `clusterplan` binary, and a
// byte-exact view of everything the user has stored.
#pragma once

#include "cli.h"
#include "clusterplan/catalog/catalog.h"

#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <system_error>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace cp::test {

namespace fs = std::filesystem;

struct CliResult {
    int code = -1;
    std::string out;
    std::string err;
};

inline std::string read_bytes(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// A fresh data directory (set as CLUSTERPLAN_DATA_DIR) and a directory for input files.
class Sandbox {
public:
    Sandbox() {
        char tmpl[] = "/tmp/cp-sandbox-XXXXXX";
        root_ = mkdtemp(tmpl);
        data_ = root_ / "data";
        files_ = root_ / "files";
        fs::create_directories(data_);
        fs::create_directories(files_);
        setenv("CLUSTERPLAN_DATA_DIR", data_.c_str(), 1);
    }
    ~Sandbox() {
        std::error_code ec;
        fs::remove_all(root_, ec);
        unsetenv("CLUSTERPLAN_DATA_DIR");
    }
    Sandbox(const Sandbox&) = delete;
    Sandbox& operator=(const Sandbox&) = delete;

    const fs::path& data_dir() const { return data_; }
    const fs::path& files_dir() const { return files_; }
    fs::path database() const { return data_ / "catalog.sqlite"; }

    fs::path write(const std::string& name, const std::string& bytes) const {
        fs::path file = files_ / name;
        std::ofstream out(file, std::ios::binary | std::ios::trunc);
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        return file;
    }

    // Every table's rows (prices, Spot Advisor, calibrations, scenarios, ...), as text.
    std::string stored_data() const { return cp::catalog::Catalog(database()).dump(); }

private:
    fs::path root_, data_, files_;
};

inline CliResult run_cli(const std::vector<std::string>& argv) {
    std::ostringstream out, err;
    cp::cli::Io io{out, err};
    CliResult r;
    r.code = cp::cli::run(argv, io);
    r.out = out.str();
    r.err = err.str();
    return r;
}

// One sandbox for a whole test binary (the catalog is created on first use), and a command run
// in-process inside it.
inline Sandbox& shared_sandbox() {
    static Sandbox box;
    return box;
}

inline CliResult run_in_shared_sandbox(const std::vector<std::string>& argv) {
    shared_sandbox();
    return run_cli(argv);
}

// A scenario shipped in resources/scenarios/.
inline std::string example_scenario(const std::string& name) {
    return (fs::path(CLUSTERPLAN_SOURCE_DIR) / "resources" / "scenarios" / name).string();
}

// Runs `program argv...` without a shell, stdout/stderr captured through files in `scratch`.
inline CliResult run_program(const std::string& program, const std::vector<std::string>& argv,
                             const fs::path& scratch) {
    const fs::path out_file = scratch / "stdout.txt";
    const fs::path err_file = scratch / "stderr.txt";
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, out_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    posix_spawn_file_actions_addopen(&actions, 2, err_file.c_str(), O_WRONLY | O_CREAT | O_TRUNC,
                                     0600);
    std::vector<std::string> args{program};
    args.insert(args.end(), argv.begin(), argv.end());
    std::vector<char*> c_args;
    for (auto& a : args)
        c_args.push_back(a.data());
    c_args.push_back(nullptr);
    pid_t pid = 0;
    CliResult r;
    if (posix_spawn(&pid, program.c_str(), &actions, nullptr, c_args.data(), environ) == 0) {
        int status = 0;
        waitpid(pid, &status, 0);
        r.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    }
    posix_spawn_file_actions_destroy(&actions);
    r.out = read_bytes(out_file);
    r.err = read_bytes(err_file);
    return r;
}

// Lines in `text` (a trailing newline does not start another line).
inline std::size_t line_count(const std::string& text) {
    std::size_t n = 0;
    for (const char c : text)
        n += c == '\n';
    if (!text.empty() && text.back() != '\n') ++n;
    return n;
}

} // namespace cp::test
