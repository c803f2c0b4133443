#include "nccl_comm.h"

#include <chrono>
#include <cstdlib>
#include <future>
#include <sched.h>
#include <thread>

namespace cp::probe {

void throw_nccl(const std::string& call, ncclResult_t r) {
    std::string msg = call + ": " + ncclGetErrorString(r);
    const char* last = ncclGetLastError(nullptr);
    if (last && *last) msg += " (" + std::string(last) + ")";
    throw ProbeError(msg);
}

Communicators::Communicators(const std::vector<int>& devices, int process_rank, int nranks,
                             std::size_t buffer_bytes)
    : nranks_(nranks) {
    const int local_n = static_cast<int>(devices.size());
    for (int i = 0; i < local_n; ++i) {
        LocalRank l;
        l.device = devices[static_cast<std::size_t>(i)];
        l.rank = process_rank * local_n + i;
        locals_.push_back(l);
        LocalRank& r = locals_.back();
        CP_CUDA(cudaSetDevice(r.device));
        CP_CUDA(cudaStreamCreateWithFlags(&r.stream, cudaStreamNonBlocking));
        CP_CUDA(cudaEventCreate(&r.start));
        CP_CUDA(cudaEventCreate(&r.stop));
        CP_CUDA(cudaMalloc(&r.send, buffer_bytes));
        CP_CUDA(cudaMalloc(&r.recv, buffer_bytes));
        // Room for 2 x 8 bytes per rank (host hash exchange) and a few doubles.
        CP_CUDA(cudaMalloc(&r.scratch, 16 * static_cast<std::size_t>(nranks) + 64));
        fill_constant_f32(r.send, buffer_bytes / sizeof(float), static_cast<float>(r.rank + 1),
                          r.stream);
        CP_CUDA(cudaStreamSynchronize(r.stream));
    }
}

Communicators::~Communicators() {
    for (auto& l : locals_) {
        cudaSetDevice(l.device);
        if (l.comm) (aborted_ ? ncclCommAbort(l.comm) : ncclCommDestroy(l.comm));
        cudaFree(l.send);
        cudaFree(l.recv);
        cudaFree(l.scratch);
        if (l.start) cudaEventDestroy(l.start);
        if (l.stop) cudaEventDestroy(l.stop);
        if (l.stream) cudaStreamDestroy(l.stream);
    }
}

bool Communicators::init(const ncclUniqueId& id, int timeout_s, std::string& error) {
    auto done = std::make_shared<std::promise<std::string>>();
    std::future<std::string> result = done->get_future();
    std::vector<LocalRank>* locals = &locals_;
    const int nranks = nranks_;
    std::thread([done, locals, nranks, id] {
        std::string err;
        try {
            CP_NCCL(ncclGroupStart());
            for (auto& l : *locals) {
                CP_CUDA(cudaSetDevice(l.device));
                CP_NCCL(ncclCommInitRank(&l.comm, nranks, id, l.rank));
            }
            CP_NCCL(ncclGroupEnd());
        } catch (const std::exception& e) {
            err = e.what();
        }
        done->set_value(err);
    }).detach();
    if (result.wait_for(std::chrono::seconds(timeout_s)) != std::future_status::ready) {
        const char* cid = std::getenv("NCCL_COMM_ID");
        error = "communicator initialisation did not complete within " + std::to_string(timeout_s) +
                " s: a peer is missing or cannot reach NCCL_COMM_ID=" + (cid ? cid : "(unset)");
        return false;
    }
    error = result.get();
    if (!error.empty()) {
        aborted_ = true;
        return true;
    }
    return true;
}

void Communicators::abort_all() {
    for (auto& l : locals_)
        if (l.comm) ncclCommAbort(l.comm);
    for (auto& l : locals_)
        l.comm = nullptr;
    aborted_ = true;
}

void Communicators::wait(int timeout_s, const std::string& what) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
    std::vector<bool> done(locals_.size(), false);
    std::size_t remaining = locals_.size();
    while (remaining) {
        for (std::size_t i = 0; i < locals_.size(); ++i) {
            if (done[i]) continue;
            const cudaError_t e = cudaStreamQuery(locals_[i].stream);
            if (e == cudaSuccess) {
                done[i] = true;
                --remaining;
                continue;
            }
            if (e != cudaErrorNotReady) {
                abort_all();
                throw ProbeError(what + ": " + cudaGetErrorString(e));
            }
            ncclResult_t async = ncclSuccess;
            const ncclResult_t q = ncclCommGetAsyncError(locals_[i].comm, &async);
            if (q != ncclSuccess || (async != ncclSuccess && async != ncclInProgress)) {
                abort_all();
                throw_nccl(what, q != ncclSuccess ? q : async);
            }
        }
        if (remaining && std::chrono::steady_clock::now() > deadline) {
            abort_all();
            const char* cid = std::getenv("NCCL_COMM_ID");
            throw ProbeError(what + " did not complete within " + std::to_string(timeout_s) +
                             " s: a peer stopped or is unreachable (NCCL_COMM_ID=" +
                             (cid ? cid : "unset") + ")");
        }
        if (remaining) sched_yield(); // let NCCL's proxy threads run
    }
}

void Communicators::barrier(int timeout_s) {
    CP_NCCL(ncclGroupStart());
    for (auto& l : locals_)
        CP_NCCL(ncclAllReduce(l.scratch, l.scratch, 1, ncclFloat, ncclSum, l.comm, l.stream));
    CP_NCCL(ncclGroupEnd());
    wait(timeout_s, "NCCL barrier");
}

double Communicators::mean_over_ranks(double value, int timeout_s) {
    for (auto& l : locals_) {
        CP_CUDA(cudaSetDevice(l.device));
        CP_CUDA(cudaMemcpy(l.scratch, &value, sizeof value, cudaMemcpyHostToDevice));
    }
    CP_NCCL(ncclGroupStart());
    for (auto& l : locals_)
        CP_NCCL(ncclAllReduce(l.scratch, l.scratch, 1, ncclDouble, ncclSum, l.comm, l.stream));
    CP_NCCL(ncclGroupEnd());
    // The watchdog wait first: a blocking copy would hang on a missing peer.
    wait(timeout_s, "NCCL timing exchange");
    double sum = 0;
    CP_CUDA(cudaSetDevice(locals_.front().device));
    CP_CUDA(cudaMemcpy(&sum, locals_.front().scratch, sizeof sum, cudaMemcpyDeviceToHost));
    return sum / nranks_;
}

void Communicators::gather_hosts(std::uint64_t host_hash, int process_rank,
                                 std::vector<std::uint64_t>& hashes, std::vector<int>& processes,
                                 int timeout_s) {
    const std::uint64_t mine[2] = {host_hash, static_cast<std::uint64_t>(process_rank)};
    for (auto& l : locals_) {
        CP_CUDA(cudaSetDevice(l.device));
        auto* base = static_cast<std::uint64_t*>(l.scratch);
        CP_CUDA(cudaMemcpy(base + 2 * l.rank, mine, sizeof mine, cudaMemcpyHostToDevice));
    }
    // In place: rank r's pair is at offset 2r of the receive buffer (NCCL's in-place rule).
    CP_NCCL(ncclGroupStart());
    for (auto& l : locals_) {
        auto* base = static_cast<std::uint64_t*>(l.scratch);
        CP_NCCL(ncclAllGather(base + 2 * l.rank, base, 2, ncclUint64, l.comm, l.stream));
    }
    CP_NCCL(ncclGroupEnd());
    wait(timeout_s, "NCCL host exchange");
    std::vector<std::uint64_t> all(2 * static_cast<std::size_t>(nranks_));
    const LocalRank& first = locals_.front();
    CP_CUDA(cudaSetDevice(first.device));
    CP_CUDA(cudaMemcpy(all.data(), first.scratch, all.size() * sizeof(std::uint64_t),
                       cudaMemcpyDeviceToHost));
    hashes.clear();
    processes.clear();
    for (int r = 0; r < nranks_; ++r) {
        hashes.push_back(all[2 * static_cast<std::size_t>(r)]);
        processes.push_back(static_cast<int>(all[2 * static_cast<std::size_t>(r) + 1]));
    }
}

} // namespace cp::probe
