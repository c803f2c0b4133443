// Entry point and shared plumbing for `clusterplan <command> ...` (contract in DESIGN.md).
#pragma once

#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

namespace cp::cli {

// 3: the input is fine but no plan is feasible (does not fit, or misses every constraint); the
// plan or search is still printed and stderr names the nearest miss (DESIGN.md "Command line").
enum ExitCode : int { kOk = 0, kUsage = 1, kBadInput = 2, kNoFeasiblePlan = 3 };

struct Io {
    std::ostream& out; // results (a single JSON document with --json)
    std::ostream& err; // errors and progress
};

// A subcommand receives the arguments after its name.
using Command = std::function<int(const std::vector<std::string>& args, Io& io)>;

// Built-in, Qt-free subcommands, one file each.
int cmd_catalog(const std::vector<std::string>& args, Io& io);
int cmd_simulate(const std::vector<std::string>& args, Io& io);
int cmd_sweep(const std::vector<std::string>& args, Io& io);
int cmd_recommend(const std::vector<std::string>& args, Io& io);
int cmd_calibrate(const std::vector<std::string>& args, Io& io);
int cmd_probe(const std::vector<std::string>& args, Io& io);
int cmd_serve(const std::vector<std::string>& args, Io& io);

// Runs argv (without the program name). `extra` adds commands implemented outside this
// Qt-free library (e.g. `report`, which renders charts with Qt). Usage errors -> 1,
// InputError and other bad data -> 2, each reported as one sentence on io.err; no feasible
// plan -> 3. Control characters in anything written (names from files) reach the terminal
// escaped (terminal_safe.h). `COMMAND --help` prints the command's usage (exit 0).
int run(const std::vector<std::string>& argv, Io& io,
        const std::map<std::string, Command>& extra = {});

std::string usage_text();

// Writes "clusterplan COMMAND: no feasible plan: <sentence>" on io.err; returns kNoFeasiblePlan.
int no_feasible_plan(Io& io, const std::string& command, const std::string& sentence);

} // namespace cp::cli
