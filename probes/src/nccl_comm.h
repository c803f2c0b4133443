// NCCL communicators of one probe process, one per local GPU, blocking (as nccl-tests uses
// them), with nccl-tests' watchdog: every wait polls cudaStreamQuery and ncclCommGetAsyncError
// and aborts the communicators on an error or past the timeout, so a missing or failed peer
// ends in an error naming it rather than a hang.
#pragma once

#include "common.h"

#include <cstdint>
#include <memory>
#include <nccl.h>
#include <string>
#include <vector>

namespace cp::probe {

struct LocalRank {
    int device = 0;
    int rank = 0; // NCCL rank
    ncclComm_t comm = nullptr;
    cudaStream_t stream = nullptr;
    cudaEvent_t start = nullptr, stop = nullptr;
    float* send = nullptr;
    float* recv = nullptr;
    void* scratch = nullptr; // small exchanges: host hashes, timings, barrier
};

class Communicators {
public:
    // Allocates streams, events and `buffer_bytes` send/receive buffers on every device.
    Communicators(const std::vector<int>& devices, int process_rank, int nranks,
                  std::size_t buffer_bytes);
    ~Communicators();
    Communicators(const Communicators&) = delete;
    Communicators& operator=(const Communicators&) = delete;

    // Blocking ncclCommInitRank for every local GPU, on a helper thread so a peer that never
    // arrives costs `timeout_s`: then false (`error` says why) and the helper stays blocked —
    // this object must then be leaked and the process ended with _Exit.
    bool init(const ncclUniqueId& id, int timeout_s, std::string& error);
    // Watchdog wait for all local streams (throws ProbeError after aborting the communicators).
    void wait(int timeout_s, const std::string& what);
    // A tiny all-reduce completed by every rank: all ranks have reached this point.
    void barrier(int timeout_s);
    // Mean over all NCCL ranks of each local rank's `value` (nccl-tests averages times).
    double mean_over_ranks(double value, int timeout_s);
    // Every rank's (host hash, process rank), gathered.
    void gather_hosts(std::uint64_t host_hash, int process_rank, std::vector<std::uint64_t>& hashes,
                      std::vector<int>& processes, int timeout_s);

    std::vector<LocalRank>& locals() { return locals_; }
    int nranks() const { return nranks_; }

private:
    void abort_all();
    std::vector<LocalRank> locals_;
    int nranks_ = 0;
    bool aborted_ = false;
};

[[noreturn]] void throw_nccl(const std::string& call, ncclResult_t r);

#define CP_NCCL(call)                                                                              \
    do {                                                                                           \
        const ncclResult_t cp_r_ = (call);                                                         \
        if (cp_r_ != ncclSuccess) ::cp::probe::throw_nccl(#call, cp_r_);                           \
    } while (0)

} // namespace cp::probe
