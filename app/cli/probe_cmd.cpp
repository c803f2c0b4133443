// `clusterplan probe run --host H [--host H2 ...] [--launcher ssh|mpirun|srun] [--gpus N]`:
// runs clusterplan-probe remotely (app/remote) and stores the result as a calibration profile.
#include "args.h"
#include "calibration_output.h"
#include "cli.h"
#include "clusterplan/catalog/calibration_store.h"
#include "clusterplan/catalog/name_lookup.h"
#include "clusterplan/remote/probe_locate.h"
#include "clusterplan/remote/probe_runner.h"
#include "clusterplan/remote/remote_text.h"
#include "clusterplan/service/clock.h"
#include "clusterplan/sim/io/json_depth.h"
#include "instance_option.h"

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <ostream>
#include <unistd.h>

namespace cp::cli {
namespace {

using nlohmann::json;

remote::ProbeRunner* g_active_runner = nullptr;

extern "C" void on_interrupt(int) {
    // Only an atomic store: safe in a signal handler.
    if (g_active_runner) g_active_runner->cancel();
}

// --probe, else remote::find_probe_binary (environment, next to this program, the build tree).
std::string find_probe(const std::string& given) {
    if (!given.empty()) return given;
    std::string found = remote::find_probe_binary(remote::this_program());
    if (found.empty())
        throw InputError("no clusterplan-probe binary found (it is built only where CUDA is "
                         "available); pass --probe PATH");
    return found;
}

int cmd_run(const std::vector<std::string>& argv, Io& io) {
    const Args args(argv, {{"--json", "--allow-partial"},
                           {"--host", "--launcher", "--gpus", "--probe", "--command", "--instance",
                            "--name", "--port", "--connect-timeout", "--timeout", "--env"}});
    if (!args.positional().empty())
        throw UsageError("probe run takes no positional arguments (use --host H)");
    remote::RunOptions opt;
    opt.hosts = args.values("--host");
    if (opt.hosts.empty()) throw UsageError("probe run needs at least one --host");
    for (const auto& h : opt.hosts) {
        // Checked before anything runs: a hostile name never reaches ssh, mpirun or srun.
        if (!remote::is_valid_host(h))
            throw InputError("--host: '" + h +
                             "' is not a valid host name (letters, digits, '.', '-', '_', an "
                             "optional user@ prefix)");
    }
    const std::string launcher = args.value("--launcher", "ssh");
    if (launcher == "ssh")
        opt.launcher = remote::Launcher::ssh;
    else if (launcher == "mpirun")
        opt.launcher = remote::Launcher::mpirun;
    else if (launcher == "srun")
        opt.launcher = remote::Launcher::srun;
    else
        throw UsageError("--launcher must be ssh, mpirun or srun");
    opt.gpus = args.int_value("--gpus", 0, 0, 64);
    opt.nccl_port = args.int_value("--port", 29517, 1024, 65535);
    opt.ssh.connect_timeout_s = args.int_value("--connect-timeout", 10, 1, 600);
    opt.probe_timeout_s = args.int_value("--timeout", 3600, 1, 86400);
    opt.probe_command = args.value("--command", "all");
    if (!remote::is_probe_command(opt.probe_command))
        throw UsageError("--command must be one of info, gemm, membw, pcie, p2p, nccl, all");
    opt.probe_path = find_probe(args.value("--probe"));
    if (!std::filesystem::is_regular_file(opt.probe_path))
        throw InputError("--probe: " + opt.probe_path + " is not a file");

    for (const auto& assignment : args.values("--env")) {
        try {
            opt.env.push_back(remote::parse_env_assignment(assignment));
        } catch (const std::invalid_argument& e) {
            throw InputError(e.what());
        }
    }
    catalog::Catalog db = catalog::Catalog::open_default();
    const std::string instance = instance_option(args, db);
    opt.instance = instance; // the probe refuses a host whose DMI names another type
    if (!instance.empty()) {
        // Known from the catalog before any host is contacted: V100 (P3, P3dn) is not a CUDA 13
        // target.
        const auto info = db.instance(instance);
        if (info && info->accelerator.rfind("V100", 0) == 0)
            throw InputError(
                "--instance: " + instance + " carries " + info->accelerator +
                " GPUs, which CUDA 13 (the probe's toolkit) does not support; run nccl-tests on "
                "those "
                "hosts and import its output with `clusterplan calibrate import FILE --instance " +
                instance + "`");
    }
    catalog::CalibrationStore store(db);
    const std::string wanted_name = args.value("--name");
    if (!wanted_name.empty() && store.exists(wanted_name))
        throw InputError("--name: calibration profile '" + wanted_name +
                         "' already exists; choose another name");

    remote::ProbeRunner runner(opt);
    g_active_runner = &runner;
    struct sigaction sa {
    }, old_int{}, old_term{};
    sa.sa_handler = on_interrupt;
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    remote::RunResult result;
    try {
        result = runner.run([&io](const remote::ProgressEvent& e) {
            io.err << "[" << (e.host.empty() ? "run" : e.host) << "] " << e.stage << ": "
                   << e.message << "\n";
            io.err.flush();
        });
    } catch (...) {
        g_active_runner = nullptr;
        sigaction(SIGINT, &old_int, nullptr);
        sigaction(SIGTERM, &old_term, nullptr);
        throw;
    }
    g_active_runner = nullptr;
    sigaction(SIGINT, &old_int, nullptr);
    sigaction(SIGTERM, &old_term, nullptr);

    const std::string source = "probe output from " + opt.hosts.front();
    ImportedCalibration imported;
    try {
        imported = import_calibration_text(result.rank0_json, source, "",
                                           {args.flag("--allow-partial"), instance});
    } catch (const std::exception& e) {
        throw InputError(e.what());
    }
    if (imported.format != "probe")
        throw InputError(source + ": not a clusterplan.probe/1 document");
    if (!instance.empty()) imported.profile.instance_type = instance; // else the host's DMI, if any
    for (const auto& e : result.rank_errors)
        io.err << "[run] probe " << e << "\n";
    imported.profile.name = wanted_name.empty()
                                ? store.unused_name(remote::host_address(opt.hosts.front()) +
                                                    "-probe-" + service::utc_now("%Y%m%d"))
                                : wanted_name;
    json raw = {{"format", "probe"},
                {"hosts", opt.hosts},
                {"launcher", launcher},
                {"probe_sha256", result.probe_sha256},
                {"rank0", json::parse(result.rank0_json)}};
    for (const auto& other : result.other_json) {
        try {
            // Kept as text when too deep to store as a document (see sim/io/json_depth.h).
            if (sim::io::json_nesting_problem(other))
                raw["other_ranks"].push_back(other);
            else
                raw["other_ranks"].push_back(json::parse(other));
        } catch (const json::exception&) {
            raw["other_ranks"].push_back(other);
        }
    }
    store.store(imported.profile, raw.dump());

    if (args.flag("--json")) {
        json out = import_report_json(imported);
        out["stored"] = true;
        out["probe_sha256"] = result.probe_sha256;
        json hosts = json::array();
        for (const auto& h : result.hosts)
            hosts.push_back({{"host", h.host},
                             {"arch", h.arch},
                             {"glibc", h.glibc},
                             {"driver", h.driver},
                             {"gpus", h.gpus},
                             {"uploaded", h.uploaded}});
        out["hosts"] = hosts;
        io.out << out.dump(2) << "\n";
    } else {
        write_profile_text(io.out, imported.profile);
        io.out << "Stored as calibration '" << imported.profile.name << "' in "
               << db.path().string() << "\n";
    }
    return kOk;
}

} // namespace

int cmd_probe(const std::vector<std::string>& args, Io& io) {
    static const char* kHelp =
        "usage: clusterplan probe run --host H [--host H2 ...] [--launcher ssh|mpirun|srun] "
        "[--gpus N]\n"
        "           [--probe PATH] [--command all|info|gemm|membw|pcie|p2p|nccl] [--instance "
        "TYPE]\n"
        "           [--name N] [--port P] [--connect-timeout S] [--timeout S] [--env NAME=VALUE "
        "...]\n"
        "           [--allow-partial] [--json]\n"
        "NCCL_*, FI_* and OFI_NCCL_* variables set here (NCCL_SOCKET_IFNAME, FI_PROVIDER, ...) "
        "and\n"
        "every --env reach each probe process with every launcher. A run with a failed section is\n"
        "not stored unless --allow-partial (the profile then lists the errors).\n"
        "Uses your ssh client, config and agent (BatchMode: no password prompts). The probe is\n"
        "uploaded to ~/.cache/clusterplan/probe-<sha256> on each host and verified by hash.\n"
        "CUDA 13 does not support V100 (P3) hosts: run nccl-tests there and use `calibrate "
        "import`.\n";
    const bool help = std::find(args.begin(), args.end(), "--help") != args.end() ||
                      std::find(args.begin(), args.end(), "-h") != args.end();
    if (args.empty() || help) {
        (args.empty() ? io.err : io.out) << kHelp;
        return args.empty() ? kUsage : kOk;
    }
    if (args[0] == "run") {
        try {
            return cmd_run(std::vector<std::string>(args.begin() + 1, args.end()), io);
        } catch (const remote::RemoteError& e) {
            throw InputError(e.what());
        } catch (const std::invalid_argument& e) {
            throw UsageError(e.what());
        }
    }
    io.err << "clusterplan probe: unknown subcommand '" << args[0] << "'\n" << kHelp;
    return kUsage;
}

} // namespace cp::cli
