// `clusterplan calibrate import|list|show`: collective and probe measurements into stored
// calibration profiles (DESIGN.md "Probes and calibration").
#include "args.h"
#include "calibrate_job.h"
#include "calibration_output.h"
#include "cli.h"
#include "clusterplan/catalog/calibration_store.h"
#include "clusterplan/catalog/name_lookup.h"
#include "clusterplan/sim/calibration_import.h"
#include "clusterplan/sim/calibration_probe.h"
#include "clusterplan/sim/calibration_profile_json.h"
#include "clusterplan/sim/io/input_file.h"
#include "clusterplan/sim/io/json_depth.h"
#include "instance_option.h"

#include <algorithm>
#include <iomanip>
#include <nlohmann/json.hpp>
#include <ostream>

namespace cp::cli {
namespace {

using nlohmann::json;

int cmd_import(const std::vector<std::string>& argv, Io& io) {
    const Args args(argv, {{"--json", "--replace", "--allow-partial"},
                           {"--instance", "--name", "--collective", "--scenario"}});
    if (args.positional().size() != 1) throw UsageError("calibrate import takes exactly one FILE");
    if (args.has("--scenario")) return cmd_import_job(args, io);
    const std::string path = args.positional()[0];
    const std::string hint = args.value("--collective");
    if (!hint.empty() && sim::canonical_collective(hint).empty())
        throw UsageError("--collective must be one of all_reduce, all_gather, reduce_scatter, "
                         "broadcast, reduce, sendrecv, alltoall");
    const std::string text = sim::io::read_input_file(path, "the calibration file");

    catalog::Catalog db = catalog::Catalog::open_default();
    const std::string instance = instance_option(args, db);

    ImportedCalibration imported;
    try {
        imported =
            import_calibration_text(text, path, hint, {args.flag("--allow-partial"), instance});
    } catch (const sim::CalibrationInputError& e) {
        throw InputError(e.what());
    }
    catalog::CalibrationStore store(db);
    std::string name = args.value("--name");
    if (name.empty())
        name = store.unused_name(default_profile_name(path, imported));
    else if (store.exists(name) && !args.flag("--replace"))
        throw InputError("--name: calibration profile '" + name +
                         "' already exists; choose another name or pass --replace");
    imported.profile.name = name;
    if (!instance.empty()) imported.profile.instance_type = instance; // else the host's DMI, if any
    store.store(imported.profile, imported.raw_json.dump(), args.flag("--replace"));

    if (args.flag("--json")) {
        json out = import_report_json(imported);
        out["stored"] = true;
        out["database"] = db.path().string();
        io.out << out.dump(2) << "\n";
    } else {
        write_import_report_text(io.out, imported);
        io.out << "Stored as calibration '" << name << "' in " << db.path().string() << "\n";
    }
    return kOk;
}

int cmd_list(const std::vector<std::string>& argv, Io& io) {
    const Args args(argv, {{"--json"}, {}});
    if (!args.positional().empty()) throw UsageError("calibrate list takes no arguments");
    catalog::Catalog db = catalog::Catalog::open_default();
    const auto rows = catalog::CalibrationStore(db).list();
    if (args.flag("--json")) {
        json out = json::array();
        for (const auto& r : rows) {
            out.push_back({{"name", r.name},
                           {"source", r.source},
                           {"host", r.host},
                           {"instance_type", r.instance_type},
                           {"accelerator", r.accelerator},
                           {"measured_at", r.measured_at},
                           {"created_at", r.created_at}});
        }
        io.out << json{{"calibrations", out}}.dump(2) << "\n";
        return kOk;
    }
    if (rows.empty()) {
        io.out << "No calibration profiles yet (import one with `clusterplan calibrate import "
                  "FILE`).\n";
        return kOk;
    }
    // Pads by characters, not bytes, so "—" (unknown) keeps the columns aligned.
    auto cell = [](const std::string& s, std::size_t width) {
        const std::string v = s.empty() ? std::string("—") : s;
        std::size_t chars = 0;
        for (unsigned char c : v)
            chars += (c & 0xC0) != 0x80;
        return v + std::string(chars < width ? width - chars : 1, ' ');
    };
    io.out << std::left << std::setw(32) << "NAME" << std::setw(11) << "SOURCE" << std::setw(20)
           << "INSTANCE" << std::setw(26) << "ACCELERATOR" << std::setw(22) << "MEASURED"
           << "HOST\n";
    for (const auto& r : rows) {
        io.out << cell(r.name, 32) << cell(r.source, 11) << cell(r.instance_type, 20)
               << cell(r.accelerator, 26) << cell(r.measured_at, 22)
               << (r.host.empty() ? "—" : r.host) << "\n";
    }
    return kOk;
}

int cmd_show(const std::vector<std::string>& argv, Io& io) {
    const Args args(argv, {{"--json", "--raw"}, {}});
    if (args.positional().size() != 1) throw UsageError("calibrate show takes exactly one NAME");
    const std::string name = args.positional()[0];
    catalog::Catalog db = catalog::Catalog::open_default();
    catalog::CalibrationStore store(db);
    const auto row = store.find(name);
    if (!row)
        throw InputError("no calibration profile named '" + name +
                         "' (see `clusterplan calibrate list`)");
    const auto profile = store.load(name);
    if (args.flag("--json")) {
        json out = sim::profile_to_json(*profile);
        out["created_at"] = row->created_at;
        out["predicted_time_us"] = predicted_times_json(*profile);
        if (args.flag("--raw")) {
            // Documents stored before nesting was bounded may be arbitrarily deep; printing one
            // recursed once per level (a stack overflow) and wrote gigabytes.
            if (const auto problem = sim::io::json_nesting_problem(row->raw_json))
                throw InputError("calibration profile '" + name + "': the stored raw document " +
                                 *problem + "; show the profile without --raw");
            out["raw"] = json::parse(row->raw_json);
        }
        io.out << out.dump(2) << "\n";
        return kOk;
    }
    write_profile_text(io.out, *profile);
    io.out << "Stored " << row->created_at << " in " << db.path().string() << "\n";
    return kOk;
}

} // namespace

int cmd_calibrate(const std::vector<std::string>& args, Io& io) {
    static const char* kHelp =
        "usage: clusterplan calibrate import FILE [--instance TYPE] [--name N] [--collective C] "
        "[--replace] [--allow-partial] [--json]\n"
        "       clusterplan calibrate import LOG --scenario S.json [--name N] [--replace] "
        "[--json]\n"
        "       clusterplan calibrate list [--json]\n"
        "       clusterplan calibrate show NAME [--json] [--raw]\n"
        "FILE: clusterplan-probe JSON, nccl-tests text output or its -J JSON, or a CSV table\n"
        "(size(B),count,type,time(ns),busbw(GB/s)[,time(ns),busbw(GB/s)]).\n"
        "LOG: a training log of the job S.json describes (Megatron-LM/NeMo, DeepSpeed, "
        "torchtitan,\nHugging Face Trainer, or a step,step_time_s CSV); fits its compute and "
        "communication factors.\n";
    const bool help = std::find(args.begin(), args.end(), "--help") != args.end() ||
                      std::find(args.begin(), args.end(), "-h") != args.end();
    if (args.empty() || help) {
        (args.empty() ? io.err : io.out) << kHelp;
        return args.empty() ? kUsage : kOk;
    }
    const std::vector<std::string> rest(args.begin() + 1, args.end());
    if (args[0] == "import") return cmd_import(rest, io);
    if (args[0] == "list") return cmd_list(rest, io);
    if (args[0] == "show") return cmd_show(rest, io);
    io.err << "clusterplan calibrate: unknown subcommand '" << args[0] << "'\n" << kHelp;
    return kUsage;
}

} // namespace cp::cli
