// clusterplan-probe: measures GPUs and interconnects and prints one `clusterplan.probe/1` JSON
// document on stdout between marker lines (schema: probes/schema/clusterplan.probe-1.md);
// progress goes to stderr. Exit codes: 0 ok, 1 usage, 2 no usable GPU/driver (no document),
// 3 document written but a section failed (its errors are in the document).
#include "clusterplan/probe/dry_run.h"
#include "clusterplan/probe/host_facts.h"
#include "common.h"

#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <iostream>
#include <unistd.h>

namespace cp::probe {

#ifndef CLUSTERPLAN_PROBE_VERSION
#define CLUSTERPLAN_PROBE_VERSION "0.0.0"
#endif

void progress(const Context& c, const std::string& message) {
    if (c.plan.launch.world_size > 1)
        std::cerr << "clusterplan-probe[" << c.rank() << "]: " << message << std::endl;
    else
        std::cerr << "clusterplan-probe: " << message << std::endl;
}

namespace {

std::string utc_now() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

std::string hostname() {
    char host[256] = {};
    gethostname(host, sizeof host - 1);
    return host;
}

// Before any CUDA or NCCL call: NCCL reads its debug settings once, at its first use.
NcclLogSetup setup_nccl_log() {
    const char* tmp = std::getenv("TMPDIR");
    NcclLogSetup s = plan_nccl_log(process_env(), hostname(), static_cast<long>(getpid()),
                                   tmp && *tmp ? tmp : "/tmp");
    for (const auto& [name, value] : s.set)
        setenv(name.c_str(), value.c_str(), 1);
    return s;
}

} // namespace
} // namespace cp::probe

int main(int argc, char** argv) {
    using namespace cp::probe;
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h") {
        std::cerr << usage_text();
        return args.empty() ? kExitUsage : kExitOk;
    }
    Context c;
    // --dry-run returns here, before anything initialises CUDA.
    if (const int rc = dry_run_main(args, process_env(), std::cerr, c.options); rc >= 0) return rc;

    const NcclLogSetup nccl_log = setup_nccl_log();
    c.nccl_log_path = nccl_log.path;
    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        std::cerr << "clusterplan-probe: no usable NVIDIA GPU on this host ("
                  << (e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA devices")
                  << "); CUDA 13 needs driver 580 or newer and a Turing or newer GPU\n";
        return kExitNoGpu;
    }
    try {
        c.plan = make_plan(c.options, process_env(), count);
    } catch (const UsageError& ex) {
        std::cerr << "clusterplan-probe: " << ex.what() << "\n";
        return kExitUsage;
    }
    // The host must be what --instance says, or its figures would calibrate another type.
    std::string note;
    if (const auto mismatch = check_instance(read_dmi(), c.options.instance, &note)) {
        std::cerr << "clusterplan-probe: " << *mismatch << "\n";
        return kExitUsage;
    }
    if (!note.empty()) progress(c, "warning: " + note);

    RunReport report;
    JsonWriter w;
    w.begin_object().field("schema", "clusterplan.probe/1");
    w.key("tool")
        .begin_object()
        .field("name", "clusterplan-probe")
        .field("version", CLUSTERPLAN_PROBE_VERSION)
        .end_object();
    w.field("command", c.options.command)
        .field("started_at", utc_now())
        .field("quick", c.options.quick);
    bool clean_exit = true;
    try {
        write_info(w, c, report);
    } catch (const ProbeError& ex) {
        std::cerr << "clusterplan-probe: " << ex.what() << "\n";
        return kExitNoGpu;
    }
    // Collectives first, while every rank is waiting for them; the local sections then run on
    // rank 0 only in `all` (make_plan leaves them out elsewhere). A section that fails before
    // writing anything is recorded as failed; the others still run.
    for (const auto& section : c.plan.sections) {
        try {
            if (section == "nccl")
                clean_exit = run_nccl(w, c, report);
            else if (section == "gemm")
                run_gemm(w, c, report);
            else if (section == "membw")
                run_membw(w, c, report);
            else if (section == "pcie")
                run_pcie(w, c, report);
            else if (section == "p2p")
                run_p2p(w, c, report);
        } catch (const ProbeError& ex) {
            report.fail(section, ex.what());
        }
    }
    w.field("finished_at", utc_now());
    report.write(w);
    w.end_object();
    for (const auto& err : report.errors())
        progress(c, "error: " + err);
    // With several processes only rank 0 prints the document (launchers merge stdout).
    if (c.rank() == 0) write_stdout(framed_document(w.str()));
    if (nccl_log.owned) std::remove(nccl_log.path.c_str());
    progress(c, "done");
    const int rc = report.exit_code();
    if (!clean_exit) std::_Exit(rc); // a blocked NCCL initialisation thread cannot be joined
    return rc;
}
