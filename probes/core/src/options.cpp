#include "clusterplan/probe/options.h"

#include "clusterplan/probe/json_writer.h"

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <set>

namespace cp::probe {
namespace {

long parse_long(const std::string& text, const std::string& option, long min_value,
                long max_value) {
    errno = 0;
    char* end = nullptr;
    const long v = std::strtol(text.c_str(), &end, 10);
    if (text.empty() || *end != '\0' || errno == ERANGE || v < min_value || v > max_value)
        throw UsageError(option + " needs an integer from " + std::to_string(min_value) + " to " +
                         std::to_string(max_value) + ", not '" + text + "'");
    return v;
}

double parse_bytes(const std::string& text, const std::string& option) {
    char* end = nullptr;
    const double v = std::strtod(text.c_str(), &end);
    // 1 KiB .. 64 GiB: below that NCCL sizes round to nothing, above no GPU holds two buffers.
    if (text.empty() || *end != '\0' || !std::isfinite(v) || v < 1024 || v > 68719476736.0)
        throw UsageError(option + " needs a byte count from 1024 to 68719476736, not '" + text +
                         "'");
    return v;
}

} // namespace

const char* usage_text() {
    return "usage: clusterplan-probe info|gemm|membw|pcie|p2p|nccl|all [--gpus N] [--quick] "
           "[--iters N]\n"
           "                         [--max-bytes B] [--nccl-timeout S] [--graphs] [--instance "
           "TYPE]\n"
           "                         [--dry-run [--visible-gpus N]]\n"
           "Prints one clusterplan.probe/1 JSON document on stdout between marker lines; progress "
           "on stderr.\n"
           "--dry-run prints the plan (devices, ranks, sizes, iterations) without touching a GPU.\n"
           "Multi-process: rank and host layout from OMPI_COMM_WORLD_* (mpirun), SLURM_* (srun),\n"
           "RANK/WORLD_SIZE/LOCAL_RANK/LOCAL_WORLD_SIZE (torchrun, ssh); NCCL bootstraps from\n"
           "NCCL_COMM_ID=host0:port. Exit: 0 ok, 1 usage, 2 no GPU or no document, 3 a section "
           "failed.\n";
}

bool is_probe_command(const std::string& command) {
    static const std::set<std::string> kCommands = {"info", "gemm", "membw", "pcie",
                                                    "p2p",  "nccl", "all"};
    return kCommands.count(command) != 0;
}

Options parse_options(const std::vector<std::string>& args) {
    if (args.empty()) throw UsageError("a command is needed");
    Options o;
    o.command = args[0];
    if (!is_probe_command(o.command)) throw UsageError("unknown command '" + o.command + "'");
    for (std::size_t i = 1; i < args.size(); ++i) {
        const std::string& a = args[i];
        auto next = [&]() -> const std::string& {
            if (i + 1 >= args.size()) throw UsageError(a + " needs a value");
            return args[++i];
        };
        if (a == "--gpus")
            o.gpus = static_cast<int>(parse_long(next(), a, 1, 64));
        else if (a == "--quick")
            o.quick = true;
        else if (a == "--graphs")
            o.graphs = true;
        else if (a == "--dry-run")
            o.dry_run = true;
        else if (a == "--iters")
            o.iterations = static_cast<int>(parse_long(next(), a, 1, 100000));
        else if (a == "--max-bytes")
            o.max_bytes = parse_bytes(next(), a);
        else if (a == "--nccl-timeout")
            o.nccl_timeout_s = static_cast<int>(parse_long(next(), a, 1, 86400));
        else if (a == "--visible-gpus")
            o.visible_gpus = static_cast<int>(parse_long(next(), a, 0, 64));
        else if (a == "--instance") {
            o.instance = next();
            if (o.instance.empty() || o.instance.size() > 64)
                throw UsageError("--instance needs an instance type");
        } else
            throw UsageError("unknown option '" + a + "'");
    }
    if (o.visible_gpus >= 0 && !o.dry_run) throw UsageError("--visible-gpus is only for --dry-run");
    return o;
}

RunPlan make_plan(const Options& o, const EnvLookup& env, std::optional<int> visible) {
    RunPlan p;
    p.launch = detect_launch(env);
    p.iterations = plan_iterations(o.iterations, o.quick);
    p.visible_gpus = visible;
    if (visible) {
        const char* cvd = env("CUDA_VISIBLE_DEVICES");
        p.devices = plan_devices(*visible, p.launch, o.gpus, cvd != nullptr);
    } else {
        p.notes.push_back(
            "no NVIDIA driver found: the GPUs each process takes are decided at run time");
    }
    const bool all = o.command == "all";
    p.sections.push_back("info");
    if (all || o.command == "nccl") p.sections.push_back("nccl");
    // Local sections run on rank 0 only in `all` (the other ranks would only delay their peers).
    if (!all || p.launch.rank == 0)
        for (const char* s : {"gemm", "membw", "pcie", "p2p"})
            if (all || o.command == s) p.sections.push_back(s);
    if (p.launch.world_size > 1 && !env("NCCL_COMM_ID"))
        p.notes.push_back(
            "multi-process run without NCCL_COMM_ID=host0:port: the NCCL section will fail");
    return p;
}

std::string plan_json(const Options& o, const RunPlan& p) {
    JsonWriter w;
    w.begin_object().field("schema", "clusterplan.probe-plan/1").field("command", o.command);
    w.key("launch")
        .begin_object()
        .field("launcher", p.launch.launcher)
        .field("rank", p.launch.rank)
        .field("world_size", p.launch.world_size)
        .field("local_rank", p.launch.local_rank)
        .field("local_size", p.launch.local_size)
        .field("hosts", p.launch.hosts)
        .end_object();
    w.key("visible_gpus");
    if (p.visible_gpus)
        w.value(*p.visible_gpus);
    else
        w.null();
    w.key("devices").begin_array();
    for (int d : p.devices.devices)
        w.value(d);
    w.end_array().field("binding", p.devices.binding);
    const int local = static_cast<int>(p.devices.devices.size());
    // NCCL ranks: one per GPU of every process (uniform layouts, as the launchers start them).
    const int ranks = local * p.launch.world_size;
    w.field("nccl_ranks", ranks);
    w.key("sections").begin_array();
    for (const auto& s : p.sections)
        w.value(s);
    w.end_array();
    const Iterations& it = p.iterations;
    w.key("iterations")
        .begin_object()
        .field("nccl_warmup", it.nccl_warmup)
        .field("nccl_timed", it.nccl_timed)
        .field("gemm_warmup", it.gemm_warmup)
        .field("gemm_timed", it.gemm_timed)
        .field("gemm_screen_warmup", it.gemm_screen_warmup)
        .field("gemm_screen_timed", it.gemm_screen_timed)
        .field("membw_warmup", it.membw_warmup)
        .field("membw_timed", it.membw_timed)
        .field("copy_warmup", it.copy_warmup)
        .field("copy_timed", it.copy_timed)
        .end_object();
    w.key("nccl_sizes").begin_array();
    for (std::size_t b : nccl_sizes(o.min_bytes, o.max_bytes, o.quick, ranks > 0 ? ranks : 1))
        w.value(static_cast<unsigned long long>(b));
    w.end_array().field("nccl_sizes_note",
                        "the largest sizes are dropped at run time when send and receive "
                        "buffers do not fit in GPU memory");
    w.field("graphs", o.graphs).field("quick", o.quick).field("instance", o.instance);
    w.key("notes").begin_array();
    for (const auto& n : p.notes)
        w.value(n);
    w.end_array().end_object();
    return w.str();
}

} // namespace cp::probe
