#include "args.h"
#include "cli.h"
#include "help_text.h"
#include "terminal_safe.h"

#include <algorithm>
#include <cstdio>
#include <exception>
#include <ostream>

namespace cp::cli {

namespace {
// Error sentences may quote bytes from hostile files (issue 7): print them as one printable
// line of bounded length - control characters (C0, DEL, UTF-8-encoded C1) escaped as \xNN,
// anything past kMaxBytes cut at a character boundary.
std::string printable_message(const std::string& text) {
    constexpr std::size_t kMaxBytes = 600;
    std::string out;
    std::size_t end = text.find_last_not_of(" \t\r\n");
    end = end == std::string::npos ? 0 : end + 1;
    for (std::size_t i = 0; i < end; ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (out.size() >= kMaxBytes && (c & 0xC0) != 0x80) {
            out += "...";
            break;
        }
        const bool c1 = c == 0xC2 && i + 1 < end &&
                        static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                        static_cast<unsigned char>(text[i + 1]) <= 0x9F;
        if (c < 0x20 || c == 0x7F || c1) {
            const unsigned code = c1 ? static_cast<unsigned char>(text[++i]) : c;
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\x%02x", code);
            out += buf;
        } else {
            out += static_cast<char>(c);
        }
    }
    return out;
}
} // namespace

std::string usage_text() {
    return "usage: clusterplan [command] [options]\n"
           "  (no command), --gui [SCENARIO.json]  open the desktop GUI (with a scenario)\n"
           "  SCENARIO.json                     open the desktop GUI with this scenario\n"
           "  --screenshot FILE.png [--page catalog|plan|scaling|serve|probes|report]\n"
           "        [--size WxH] [--probe-file FILE] [--job-log FILE] [SCENARIO.json]\n"
           "                                    render a GUI page offscreen to a PNG\n"
           "  --bench-plan                      time the Plan page's edit-to-charts latency\n"
           "  catalog list|show|import|export|rebuild|refresh\n"
           "                                    browse and update the instance catalog\n"
           "  simulate SCENARIO.json [--json]   one plan with its full breakdown\n"
           "  sweep SCENARIO.json [--json] [--threads N]\n"
           "                                    every valid layout/instance/count\n"
           "  recommend SCENARIO.json [--top N] [--json]\n"
           "                                    ranked choices and the Pareto front\n"
           "  serve SCENARIO.json [--json] [--top N]\n"
           "                                    inference serving: latency, throughput, $/1M "
           "tokens\n"
           "  report SCENARIO.json --out FILE.pdf|.html|.md|.csv|.json [--top N]\n"
           "  probe run --host H [--host H2 ...] [--launcher ssh|mpirun|srun]\n"
           "  calibrate import|list|show        calibration profiles from probes or nccl-tests\n"
           "  COMMAND --help                    the command's options\n"
           "  --version                         print the version\n"
           "Exit codes: 0 ok, 1 usage error, 2 bad input or data, 3 no feasible plan.\n"
           "Input files are read up to 64 MiB (an AWS price-list CSV up to 1 GiB).\n"
           "CLUSTERPLAN_DATA_DIR overrides where the user database lives.\n";
}

int no_feasible_plan(Io& io, const std::string& command, const std::string& sentence) {
    io.err << "clusterplan " << command << ": no feasible plan: " << printable_message(sentence)
           << "\n";
    return kNoFeasiblePlan;
}

namespace {

bool wants_help(const std::vector<std::string>& args) {
    return std::find(args.begin(), args.end(), "--help") != args.end() ||
           std::find(args.begin(), args.end(), "-h") != args.end();
}

int run_command(const std::vector<std::string>& argv, Io& io,
                const std::map<std::string, Command>& extra) {
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
        {"serve", cmd_serve},
    };
    const std::vector<std::string> rest(argv.begin() + 1, argv.end());
    Command command;
    if (auto it = builtin.find(argv[0]); it != builtin.end()) command = it->second;
    if (auto it = extra.find(argv[0]); it != extra.end()) command = it->second;
    if (!command) {
        io.err << "clusterplan: unknown command '" << printable_message(argv[0]) << "'\n"
               << usage_text();
        return kUsage;
    }
    if (const std::string help = command_help(argv[0]); !help.empty() && wants_help(rest)) {
        io.out << help;
        return kOk;
    }
    try {
        return command(rest, io);
    } catch (const UsageError& e) {
        io.err << "clusterplan " << argv[0] << ": " << printable_message(e.what()) << "\n"
               << e.usage();
        return kUsage;
    } catch (const std::exception& e) {
        // Everything else that escapes a command is bad input or data.
        io.err << "clusterplan " << argv[0] << ": " << printable_message(e.what()) << "\n";
        return kBadInput;
    }
}

} // namespace

int run(const std::vector<std::string>& argv, Io& io, const std::map<std::string, Command>& extra) {
    TerminalSafeBuf out_buf(io.out), err_buf(io.err);
    std::ostream out(&out_buf), err(&err_buf);
    Io safe{out, err};
    const int code = run_command(argv, safe, extra);
    out.flush();
    err.flush();
    return code;
}

} // namespace cp::cli
