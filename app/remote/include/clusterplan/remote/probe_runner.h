// Runs clusterplan-probe on one or more remote hosts with the system OpenSSH client (or
// mpirun/srun for clusters the user already runs): compatibility check, content-addressed
// upload with hash verification, one process per host, progress streaming, JSON collection,
// clean-up and cancel. Qt-free: the CLI and the GUI's Probes page both drive it.
#pragma once

#include "clusterplan/remote/launch.h"

#include <atomic>
#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace cp::remote {

struct RunOptions {
    std::vector<std::string> hosts; // validated with is_valid_host()
    Launcher launcher = Launcher::ssh;
    int gpus = 0;           // GPUs per host, 0 = all
    std::string probe_path; // local clusterplan-probe binary to upload
    std::string probe_command = "all";
    int nccl_port = 29517; // NCCL_COMM_ID=host0:port for multi-host runs
    SshOptions ssh;
    int probe_timeout_s = 3600;
    std::string instance; // --instance: the probe checks it against the host's DMI identity
    // --env NAME=VALUE, on top of the NCCL_*/FI_*/OFI_NCCL_* variables set here (remote_text.h).
    std::vector<std::pair<std::string, std::string>> env;
};

struct ProgressEvent {
    std::string host;  // empty for whole-run events
    std::string stage; // check, upload, launch, probe, collect, cleanup, done
    std::string message;
};

struct HostReport {
    std::string host;
    std::string arch, glibc, driver;
    std::vector<std::string> gpus;
    std::vector<std::string> missing_libraries; // libcublasLt.so.13, libnccl.so.2 not found
    bool uploaded = false;                      // false: the cached copy was already there
};

struct RunResult {
    std::vector<HostReport> hosts;
    std::string probe_sha256;
    std::string rank0_json;               // the clusterplan.probe/1 document of rank 0
    std::vector<std::string> other_json;  // documents printed by the other ranks, if any
    std::vector<std::string> rank_errors; // "rank 3: nccl: ..." as the ranks reported them
};

// A failure of the run that the user can act on (one sentence naming the host and reason).
class RemoteError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// Host compatibility rules, separated for testing. Throws RemoteError naming the host.
// CUDA 13 needs driver >= 580 and does not support Maxwell/Pascal/Volta GPUs (e.g. V100 on P3).
void check_host_compatibility(const HostReport& host, const std::string& local_arch,
                              const std::string& local_glibc);
// Parses the output of remote_check_command().
HostReport parse_check_output(const std::string& host, const std::string& output);

class ProbeRunner {
public:
    using Progress = std::function<void(const ProgressEvent&)>;
    explicit ProbeRunner(RunOptions options);
    // Blocks until done; throws RemoteError (or std::invalid_argument for bad options).
    RunResult run(const Progress& progress);
    // Thread-safe: stops local ssh/mpirun/srun processes and kills the remote probes.
    void cancel() { cancel_ = true; }
    bool cancelled() const { return cancel_; }

private:
    RunOptions options_;
    std::atomic<bool> cancel_{false};
};

} // namespace cp::remote
