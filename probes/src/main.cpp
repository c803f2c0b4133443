// clusterplan-probe: measures GPUs and interconnects and prints one `clusterplan.probe/1` JSON
// document on stdout (schema: probes/schema/clusterplan.probe-1.md); progress goes to stderr.
// Exit codes: 0 ok (sections that failed are listed under "errors"), 1 usage, 2 no usable
// GPU/driver or the run could not produce results.
#include "common.h"

#include <chrono>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <iostream>
#include <set>
#include <unistd.h>

namespace cp::probe {

#ifndef CLUSTERPLAN_PROBE_VERSION
#define CLUSTERPLAN_PROBE_VERSION "0.0.0"
#endif

void progress(const Options& o, const std::string& message) {
    if (o.world_size > 1)
        std::cerr << "clusterplan-probe[" << o.rank << "]: " << message << std::endl;
    else
        std::cerr << "clusterplan-probe: " << message << std::endl;
}

namespace {

const char* kUsage =
    "usage: clusterplan-probe info|gemm|membw|pcie|p2p|nccl|all [--gpus N] [--quick] [--iters N]\n"
    "                         [--max-bytes B] [--nccl-timeout S]\n"
    "Prints one clusterplan.probe/1 JSON document on stdout; progress on stderr.\n"
    "Multi-host: one process per host; rank/size from RANK/WORLD_SIZE/LOCAL_RANK (torchrun, ssh),\n"
    "OMPI_COMM_WORLD_* (mpirun) or SLURM_* (srun); NCCL bootstraps from NCCL_COMM_ID=host0:port.\n";

std::string utc_now() {
    const std::time_t t = std::time(nullptr);
    std::tm tm{};
    gmtime_r(&t, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

int env_int(const char* name, int fallback) {
    const char* v = std::getenv(name);
    return v && *v ? std::atoi(v) : fallback;
}

// First launcher whose variables are present wins: mpirun, Slurm, then torchrun/ssh style.
void detect_launch(Options& o) {
    if (std::getenv("OMPI_COMM_WORLD_SIZE")) {
        o.rank = env_int("OMPI_COMM_WORLD_RANK", 0);
        o.world_size = env_int("OMPI_COMM_WORLD_SIZE", 1);
        o.local_rank = env_int("OMPI_COMM_WORLD_LOCAL_RANK", 0);
        o.launcher = "mpirun";
    } else if (std::getenv("SLURM_NTASKS") && std::getenv("SLURM_PROCID")) {
        o.rank = env_int("SLURM_PROCID", 0);
        o.world_size = env_int("SLURM_NTASKS", 1);
        o.local_rank = env_int("SLURM_LOCALID", 0);
        o.launcher = "slurm";
    } else if (std::getenv("WORLD_SIZE")) {
        o.rank = env_int("RANK", 0);
        o.world_size = env_int("WORLD_SIZE", 1);
        o.local_rank = env_int("LOCAL_RANK", 0);
        o.launcher = std::getenv("NCCL_COMM_ID") ? "nccl_comm_id" : "torchrun";
    }
}

} // namespace
} // namespace cp::probe

int main(int argc, char** argv) {
    using namespace cp::probe;
    if (argc < 2 || !std::strcmp(argv[1], "--help") || !std::strcmp(argv[1], "-h")) {
        std::cerr << kUsage;
        return argc < 2 ? 1 : 0;
    }
    const std::string command = argv[1];
    static const std::set<std::string> kCommands = {"info", "gemm", "membw", "pcie",
                                                    "p2p",  "nccl", "all"};
    if (!kCommands.count(command)) {
        std::cerr << "clusterplan-probe: unknown command '" << command << "'\n" << kUsage;
        return 1;
    }
    Options o;
    int gpus = 0;
    for (int i = 2; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&](const char* what) -> std::string {
            if (i + 1 >= argc) {
                std::cerr << "clusterplan-probe: " << what << " needs a value\n";
                std::exit(1);
            }
            return argv[++i];
        };
        if (a == "--gpus")
            gpus = std::atoi(next("--gpus").c_str());
        else if (a == "--quick")
            o.quick = true;
        else if (a == "--iters")
            o.iterations = std::max(1, std::atoi(next("--iters").c_str()));
        else if (a == "--max-bytes")
            o.max_bytes = std::max(1024.0, std::atof(next("--max-bytes").c_str()));
        else if (a == "--nccl-timeout")
            o.nccl_timeout_s = std::max(1, std::atoi(next("--nccl-timeout").c_str()));
        else {
            std::cerr << "clusterplan-probe: unknown option '" << a << "'\n" << kUsage;
            return 1;
        }
    }
    if (o.quick) {
        o.iterations = std::min(o.iterations, 5);
        o.warmup = 2;
    }
    detect_launch(o);

    int count = 0;
    const cudaError_t e = cudaGetDeviceCount(&count);
    if (e != cudaSuccess || count == 0) {
        std::cerr << "clusterplan-probe: no usable NVIDIA GPU on this host ("
                  << (e != cudaSuccess ? cudaGetErrorString(e) : "no CUDA devices")
                  << "); CUDA 13 needs driver 580 or newer and a Turing or newer GPU\n";
        return 2;
    }
    // In multi-process runs each process takes the GPUs of its local rank's slice.
    const int take =
        gpus > 0 ? std::min(gpus, count)
                 : (o.world_size > 1 && std::getenv("OMPI_COMM_WORLD_LOCAL_SIZE") ? 1 : count);
    const int first = o.world_size > 1 ? (o.local_rank * take) % count : 0;
    for (int i = 0; i < take; ++i)
        o.devices.push_back((first + i) % count);

    std::vector<std::string> errors;
    JsonWriter w;
    w.begin_object().field("schema", "clusterplan.probe/1");
    w.key("tool")
        .begin_object()
        .field("name", "clusterplan-probe")
        .field("version", CLUSTERPLAN_PROBE_VERSION)
        .end_object();
    w.field("command", command).field("started_at", utc_now());
    const bool all = command == "all";
    try {
        write_info(w, o);
        // Multi-host: collectives first, while every rank is waiting for them; local sections
        // then run on rank 0 only (the others would only delay their peers).
        if (all || command == "nccl") run_nccl(w, o, errors);
        const bool local = o.rank == 0 || !all;
        if (local && (all || command == "gemm")) run_gemm(w, o, errors);
        if (local && (all || command == "membw")) run_membw(w, o, errors);
        if (local && (all || command == "pcie")) run_pcie(w, o, errors);
        if (local && (all || command == "p2p")) run_p2p(w, o, errors);
    } catch (const ProbeError& ex) {
        std::cerr << "clusterplan-probe: " << ex.what() << "\n";
        return 2;
    }
    w.field("finished_at", utc_now());
    w.key("errors").begin_array();
    for (const auto& err : errors)
        w.value(err);
    w.end_array().end_object();
    for (const auto& err : errors)
        progress(o, "error: " + err);
    // With several ranks only rank 0 prints the document (launchers merge stdout).
    if (o.rank == 0) std::cout << w.str() << std::endl;
    progress(o, "done");
    return 0;
}
