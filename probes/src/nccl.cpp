// `nccl`: collective bandwidth/latency with nccl-tests' conventions (doc/PERFORMANCE.md):
// algbw = S / t, busbw = algbw · 2(n−1)/n (all-reduce), · (n−1)/n (all-gather, reduce-scatter),
// · 1 (broadcast, send/recv), where S is the full buffer (all-gather: output, reduce-scatter:
// input). Each process drives its local GPUs; ranks = world_size × local GPUs. Bootstrap with
// NCCL_COMM_ID=host0:port (every process then derives the same unique id); communicators are
// created non-blocking and abandoned with a clear error when peers do not arrive in time.
#include "common.h"

#include <chrono>
#include <cstdlib>
#include <nccl.h>
#include <thread>

namespace cp::probe {
namespace {

#define CP_NCCL(call)                                                                              \
    do {                                                                                           \
        const ncclResult_t cp_r_ = (call);                                                         \
        if (cp_r_ != ncclSuccess && cp_r_ != ncclInProgress)                                       \
            throw ProbeError(std::string(#call) + ": " + ncclGetErrorString(cp_r_));               \
    } while (0)

struct Local {
    int device;
    int rank;
    ncclComm_t comm = nullptr;
    cudaStream_t stream = nullptr;
    float* send = nullptr;
    float* recv = nullptr;
};

// Waits for non-blocking NCCL calls on every communicator; aborts all on timeout.
void wait_comms(std::vector<Local>& locals, int timeout_s, const std::string& what) {
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_s);
    for (;;) {
        bool pending = false;
        for (auto& l : locals) {
            ncclResult_t state = ncclSuccess;
            ncclCommGetAsyncError(l.comm, &state);
            if (state == ncclInProgress)
                pending = true;
            else if (state != ncclSuccess)
                throw ProbeError(what + ": " + ncclGetErrorString(state));
        }
        if (!pending) return;
        if (std::chrono::steady_clock::now() > deadline) {
            for (auto& l : locals)
                ncclCommAbort(l.comm);
            for (auto& l : locals)
                l.comm = nullptr;
            const char* id = std::getenv("NCCL_COMM_ID");
            throw ProbeError(
                what + " did not complete within " + std::to_string(timeout_s) +
                " s: a peer is missing or unreachable (NCCL_COMM_ID=" + (id ? id : "unset") + ")");
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
}

double busbw_factor(const std::string& c, int n) {
    if (c == "all_reduce") return 2.0 * (n - 1) / n;
    if (c == "all_gather" || c == "reduce_scatter") return static_cast<double>(n - 1) / n;
    return 1.0;
}

// Launches one collective of `bytes` (full-buffer size) on all local ranks.
void launch(const std::string& c, std::vector<Local>& locals, size_t bytes, int nranks) {
    const size_t count = bytes / sizeof(float);
    const size_t per_rank = count / static_cast<size_t>(nranks);
    CP_NCCL(ncclGroupStart());
    for (auto& l : locals) {
        if (c == "all_reduce")
            CP_NCCL(ncclAllReduce(l.send, l.recv, count, ncclFloat, ncclSum, l.comm, l.stream));
        else if (c == "all_gather")
            CP_NCCL(ncclAllGather(l.send, l.recv, per_rank, ncclFloat, l.comm, l.stream));
        else if (c == "reduce_scatter")
            CP_NCCL(
                ncclReduceScatter(l.send, l.recv, per_rank, ncclFloat, ncclSum, l.comm, l.stream));
        else if (c == "broadcast")
            CP_NCCL(ncclBroadcast(l.send, l.recv, count, ncclFloat, 0, l.comm, l.stream));
        else if (c == "sendrecv") {
            const int peer_to = (l.rank + 1) % nranks, peer_from = (l.rank - 1 + nranks) % nranks;
            CP_NCCL(ncclSend(l.send, count, ncclFloat, peer_to, l.comm, l.stream));
            CP_NCCL(ncclRecv(l.recv, count, ncclFloat, peer_from, l.comm, l.stream));
        }
    }
    CP_NCCL(ncclGroupEnd());
}

void sync_all(std::vector<Local>& locals, int timeout_s) {
    wait_comms(locals, timeout_s, "NCCL collective");
    for (auto& l : locals) {
        CP_CUDA(cudaSetDevice(l.device));
        CP_CUDA(cudaStreamSynchronize(l.stream));
    }
}

// Send buffers hold rank+1; the expected result follows from the collective's semantics.
unsigned long long check(const std::string& c, std::vector<Local>& locals, size_t bytes,
                         int nranks) {
    unsigned long long bad = 0;
    const size_t count = bytes / sizeof(float);
    for (auto& l : locals) {
        CP_CUDA(cudaSetDevice(l.device));
        if (c == "all_reduce")
            bad += count_mismatches(l.recv, count, nranks * (nranks + 1) / 2.0f, 1e-3f, l.stream);
        else if (c == "reduce_scatter")
            bad += count_mismatches(l.recv, count / nranks, nranks * (nranks + 1) / 2.0f, 1e-3f,
                                    l.stream);
        else if (c == "broadcast")
            bad += count_mismatches(l.recv, count, 1.0f, 0.0f, l.stream);
        else if (c == "sendrecv")
            bad += count_mismatches(l.recv, count,
                                    static_cast<float>((l.rank - 1 + nranks) % nranks + 1), 0.0f,
                                    l.stream);
        else if (c == "all_gather") {
            const size_t per = count / nranks;
            for (int r = 0; r < nranks; ++r)
                bad += count_mismatches(l.recv + per * r, per, static_cast<float>(r + 1), 0.0f,
                                        l.stream);
        }
    }
    return bad;
}

} // namespace

void run_nccl(JsonWriter& w, const Options& o, std::vector<std::string>& errors) {
    const int local_n = static_cast<int>(o.devices.size());
    const int nranks = o.world_size * local_n;
    const char* algo = std::getenv("NCCL_ALGO");
    const char* proto = std::getenv("NCCL_PROTO");
    w.key("nccl")
        .begin_object()
        .field("ranks", nranks)
        .field("nodes", o.world_size)
        .field("algo", std::string(algo ? algo : ""))
        .field("proto", std::string(proto ? proto : ""))
        .field("type", "float")
        .field("convention", "nccl-tests: algbw = bytes/time, busbw = algbw * factor")
        .field("iterations", o.iterations)
        .field("warmup", o.warmup)
        .key("results")
        .begin_array();
    if (nranks < 2) {
        w.end_array().field("note", "one rank: collectives need at least two GPUs").end_object();
        return;
    }
    std::vector<Local> locals;
    try {
        ncclUniqueId id;
        if (o.world_size > 1 && !std::getenv("NCCL_COMM_ID"))
            throw ProbeError("multi-process runs need NCCL_COMM_ID=host0:port so every rank finds "
                             "the bootstrap root");
        CP_NCCL(ncclGetUniqueId(&id));
        // Largest size: send + receive buffers of S each must fit (memory permitting, ≤ max_bytes).
        size_t free_b = 0, total_b = 0;
        CP_CUDA(cudaSetDevice(o.devices.front()));
        CP_CUDA(cudaMemGetInfo(&free_b, &total_b));
        double max_bytes = o.max_bytes;
        while (max_bytes > o.min_bytes && 2.2 * max_bytes > static_cast<double>(free_b))
            max_bytes /= 2;
        const size_t max_b = static_cast<size_t>(max_bytes);
        for (int i = 0; i < local_n; ++i) {
            Local l;
            l.device = o.devices[static_cast<size_t>(i)];
            l.rank = o.rank * local_n + i;
            CP_CUDA(cudaSetDevice(l.device));
            CP_CUDA(cudaStreamCreateWithFlags(&l.stream, cudaStreamNonBlocking));
            CP_CUDA(cudaMalloc(&l.send, max_b));
            CP_CUDA(cudaMalloc(&l.recv, max_b));
            fill_constant_f32(l.send, max_b / sizeof(float), static_cast<float>(l.rank + 1),
                              l.stream);
            locals.push_back(l);
        }
        progress(o, "nccl: creating communicators for " + std::to_string(nranks) + " ranks");
        ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
        config.blocking = 0;
        CP_NCCL(ncclGroupStart());
        for (auto& l : locals) {
            CP_CUDA(cudaSetDevice(l.device));
            CP_NCCL(ncclCommInitRankConfig(&l.comm, nranks, id, l.rank, &config));
        }
        CP_NCCL(ncclGroupEnd());
        wait_comms(locals, o.nccl_timeout_s, "NCCL communicator initialisation");

        for (const std::string c :
             {"all_reduce", "all_gather", "reduce_scatter", "broadcast", "sendrecv"}) {
            for (double b = o.min_bytes; b <= max_bytes; b *= o.quick ? 8 : 2) {
                // Whole elements, divisible across ranks (nccl-tests rounds the same way).
                size_t bytes =
                    static_cast<size_t>(b) / (sizeof(float) * nranks) * (sizeof(float) * nranks);
                if (bytes == 0) continue;
                for (int i = 0; i < o.warmup; ++i)
                    launch(c, locals, bytes, nranks);
                sync_all(locals, o.nccl_timeout_s);
                const unsigned long long wrong = check(c, locals, bytes, nranks);
                const auto t0 = std::chrono::steady_clock::now();
                for (int i = 0; i < o.iterations; ++i)
                    launch(c, locals, bytes, nranks);
                sync_all(locals, o.nccl_timeout_s);
                const double t =
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() /
                    o.iterations;
                const double algbw = static_cast<double>(bytes) / t / 1e9;
                if (o.rank == 0 && (bytes & (bytes - 1)) == 0 && bytes >= (64u << 20))
                    progress(o, "nccl " + c + " " + std::to_string(bytes >> 20) + " MiB: busbw " +
                                    std::to_string(algbw * busbw_factor(c, nranks)) + " GB/s");
                w.begin_object()
                    .field("collective", c)
                    .field("bytes", static_cast<double>(bytes))
                    .field("count", static_cast<double>(bytes / sizeof(float)))
                    .field("type", "float")
                    .field("time_us", t * 1e6)
                    .field("algbw_gbytes_per_s", algbw)
                    .field("busbw_gbytes_per_s", algbw * busbw_factor(c, nranks))
                    .field("wrong", static_cast<unsigned long long>(wrong))
                    .field("correct", wrong == 0)
                    .end_object();
                if (wrong)
                    errors.push_back("nccl " + c + " " + std::to_string(bytes) +
                                     " bytes: " + std::to_string(wrong) + " wrong elements");
            }
        }
    } catch (const ProbeError& e) {
        errors.push_back(std::string("nccl: ") + e.what());
    }
    for (auto& l : locals) {
        cudaSetDevice(l.device);
        if (l.comm) ncclCommDestroy(l.comm);
        cudaFree(l.send);
        cudaFree(l.recv);
        if (l.stream) cudaStreamDestroy(l.stream);
    }
    w.end_array().end_object();
}

} // namespace cp::probe
