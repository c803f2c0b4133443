#include "args.h"
#include "cli.h"

#include <exception>
#include <ostream>

namespace cp::cli {

std::string usage_text() {
    return "usage: clusterplan [command] [options]\n"
           "  (no command)                      open the desktop GUI\n"
           "  catalog list|show|import|export   browse and update the instance catalog\n"
           "  simulate SCENARIO.json [--json]   one plan with its full breakdown\n"
           "  sweep SCENARIO.json [--json] [--threads N]\n"
           "                                    every valid layout/instance/count\n"
           "  recommend SCENARIO.json [--top N] [--json]\n"
           "                                    ranked choices and the Pareto front\n"
           "  report SCENARIO.json --out FILE.pdf|.html|.md|.csv|.json [--top N]\n"
           "  probe run --host H [--host H2 ...] [--launcher ssh|mpirun|srun]\n"
           "  calibrate import|list|show        calibration profiles from probes or nccl-tests\n"
           "  --version                         print the version\n"
           "Exit codes: 0 ok, 1 usage error, 2 bad input or data.\n"
           "CLUSTERPLAN_DATA_DIR overrides where the user database lives.\n";
}

int run(const std::vector<std::string>& argv, Io& io, const std::map<std::string, Command>& extra) {
    if (argv.empty() || argv[0] == "--help" || argv[0] == "-h" || argv[0] == "help") {
        io.out << usage_text();
        return argv.empty() ? kUsage : kOk;
    }
    if (argv[0] == "--version") {
        io.out << "clusterplan " << CLUSTERPLAN_VERSION << "\n";
        return kOk;
    }
    const std::map<std::string, Command> builtin = {
        {"catalog", cmd_catalog},     {"simulate", cmd_simulate},   {"sweep", cmd_sweep},
        {"recommend", cmd_recommend}, {"calibrate", cmd_calibrate}, {"probe", cmd_probe},
    };
    const std::vector<std::string> rest(argv.begin() + 1, argv.end());
    Command command;
    if (auto it = builtin.find(argv[0]); it != builtin.end()) command = it->second;
    if (auto it = extra.find(argv[0]); it != extra.end()) command = it->second;
    if (!command) {
        io.err << "clusterplan: unknown command '" << argv[0] << "'\n" << usage_text();
        return kUsage;
    }
    try {
        return command(rest, io);
    } catch (const UsageError& e) {
        io.err << "clusterplan " << argv[0] << ": " << e.what() << "\n";
        return kUsage;
    } catch (const std::exception& e) {
        // Everything else that escapes a command is bad input or data.
        io.err << "clusterplan " << argv[0] << ": " << e.what() << "\n";
        return kBadInput;
    }
}

} // namespace cp::cli
