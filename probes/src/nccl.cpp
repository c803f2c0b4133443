// `nccl`: collective bandwidth/latency with nccl-tests' conventions (doc/PERFORMANCE.md):
// algbw = S / t, busbw = algbw x busbw_factor (probes/core schedule.h), S the full buffer
// (all-gather: output, reduce-scatter: input). Each process drives its local GPUs; NCCL ranks =
// processes x local GPUs; bootstrap from NCCL_COMM_ID=host0:port. Per size, as nccl-tests:
// untimed warm-up, correctness check, barrier, then the timed launches between CUDA events on
// every local stream (the host waits only after the stop event), time averaged over all ranks.
#include "clusterplan/probe/host_facts.h"
#include "nccl_comm.h"

#include <fstream>
#include <memory>
#include <sstream>
#include <unistd.h>

namespace cp::probe {
namespace {

// Launches one collective of `bytes` (full-buffer size) on all local ranks.
void launch(const std::string& c, std::vector<LocalRank>& locals, size_t bytes, int nranks) {
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

// Send buffers hold rank+1; the expected result follows from the collective's semantics.
unsigned long long check(const std::string& c, std::vector<LocalRank>& locals, size_t bytes,
                         int nranks) {
    unsigned long long bad = 0;
    const size_t count = bytes / sizeof(float);
    const float sum = nranks * (nranks + 1) / 2.0f;
    for (auto& l : locals) {
        CP_CUDA(cudaSetDevice(l.device));
        if (c == "all_reduce")
            bad += count_mismatches(l.recv, count, sum, 1e-3f * sum, l.stream);
        else if (c == "reduce_scatter")
            bad += count_mismatches(l.recv, count / nranks, sum, 1e-3f * sum, l.stream);
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

// Seconds per launch on this process's slowest local stream, from the events around `body`.
template <class Body> double timed(Communicators& comms, int timeout_s, int launches, Body&& body) {
    auto& locals = comms.locals();
    for (auto& l : locals)
        CP_CUDA(cudaEventRecord(l.start, l.stream));
    body();
    for (auto& l : locals)
        CP_CUDA(cudaEventRecord(l.stop, l.stream));
    comms.wait(timeout_s, "NCCL timed launches");
    double worst_ms = 0;
    for (auto& l : locals) {
        float ms = 0;
        CP_CUDA(cudaEventElapsedTime(&ms, l.start, l.stop));
        worst_ms = std::max(worst_ms, static_cast<double>(ms));
    }
    return worst_ms * 1e-3 / launches;
}

// The same launches captured once into a CUDA graph per stream and replayed: no per-launch
// host overhead, so small messages show NCCL's own latency (nccl-tests -G).
double graph_time_s(Communicators& comms, const std::string& c, size_t bytes, int launches,
                    int timeout_s) {
    auto& locals = comms.locals();
    std::vector<cudaGraph_t> graphs(locals.size(), nullptr);
    std::vector<cudaGraphExec_t> execs(locals.size(), nullptr);
    for (auto& l : locals)
        CP_CUDA(cudaStreamBeginCapture(l.stream, cudaStreamCaptureModeThreadLocal));
    for (int i = 0; i < launches; ++i)
        launch(c, locals, bytes, comms.nranks());
    for (std::size_t i = 0; i < locals.size(); ++i)
        CP_CUDA(cudaStreamEndCapture(locals[i].stream, &graphs[i]));
    for (std::size_t i = 0; i < locals.size(); ++i)
        CP_CUDA(cudaGraphInstantiate(&execs[i], graphs[i], 0));
    comms.barrier(timeout_s);
    const double t = timed(comms, timeout_s, launches, [&] {
        for (std::size_t i = 0; i < locals.size(); ++i)
            CP_CUDA(cudaGraphLaunch(execs[i], locals[i].stream));
    });
    for (std::size_t i = 0; i < locals.size(); ++i) {
        cudaGraphExecDestroy(execs[i]);
        cudaGraphDestroy(graphs[i]);
    }
    return t;
}

std::string read_bounded(const std::string& path, std::size_t max_bytes) {
    std::ifstream in(path, std::ios::binary);
    std::string out(max_bytes, '\0');
    in.read(out.data(), static_cast<std::streamsize>(max_bytes));
    out.resize(static_cast<std::size_t>(in.gcount()));
    return out;
}

} // namespace

bool run_nccl(JsonWriter& w, const Context& c, RunReport& report) {
    report.ran("nccl");
    const Options& o = c.options;
    const Iterations& it = c.iterations();
    const int local_n = static_cast<int>(c.devices().size());
    const int nranks = c.plan.launch.world_size * local_n;
    const int timeout_s = o.nccl_timeout_s;
    const char* algo = std::getenv("NCCL_ALGO");
    const char* proto = std::getenv("NCCL_PROTO");
    w.key("nccl")
        .begin_object()
        .field("ranks", nranks)
        .field("processes", c.plan.launch.world_size)
        .field("gpus_per_process", local_n)
        .field("algo", std::string(algo ? algo : ""))
        .field("proto", std::string(proto ? proto : ""))
        .field("type", "float")
        .field("convention", "nccl-tests: algbw = bytes/time, busbw = algbw * factor")
        .field("timing",
               "CUDA events around the timed launches on each local stream after a barrier; "
               "slowest local stream, mean over all ranks")
        .field("iterations", it.nccl_timed)
        .field("warmup", it.nccl_warmup)
        .field("graphs", o.graphs);
    if (nranks < 2) {
        w.key("results").begin_array().end_array().end_object();
        report.skip("nccl", "one rank: collectives need at least two GPUs");
        return true;
    }
    std::unique_ptr<Communicators> comms;
    bool stuck = false;
    int hosts = c.plan.launch.hosts;
    w.key("results").begin_array();
    try {
        if (c.plan.launch.world_size > 1 && !std::getenv("NCCL_COMM_ID"))
            throw ProbeError("multi-process runs need NCCL_COMM_ID=host0:port so every rank finds "
                             "the bootstrap root");
        ncclUniqueId id;
        CP_NCCL(ncclGetUniqueId(&id));
        size_t free_b = 0, total_b = 0;
        CP_CUDA(cudaSetDevice(c.devices().front()));
        CP_CUDA(cudaMemGetInfo(&free_b, &total_b));
        const double max_bytes =
            nccl_max_bytes(o.max_bytes, o.min_bytes, static_cast<double>(free_b));
        const auto sizes = nccl_sizes(o.min_bytes, max_bytes, o.quick, nranks);
        comms = std::make_unique<Communicators>(c.devices(), c.rank(), nranks,
                                                sizes.empty() ? 1024
                                                              : static_cast<size_t>(sizes.back()));
        progress(c, "nccl: creating communicators for " + std::to_string(nranks) + " ranks");
        std::string init_error;
        if (!comms->init(id, timeout_s, init_error)) {
            stuck = true;
            throw ProbeError(init_error);
        }
        if (!init_error.empty()) throw ProbeError(init_error);
        char host[256] = {};
        gethostname(host, sizeof host - 1);
        std::vector<std::uint64_t> hashes;
        std::vector<int> procs;
        comms->gather_hosts(host_hash(host), c.rank(), hashes, procs, timeout_s);
        const HostLayout layout = layout_from_hashes(hashes, procs);
        hosts = layout.hosts;
        if (layout.max_processes_per_host != c.plan.launch.local_size ||
            layout.min_processes_per_host != c.plan.launch.local_size)
            report.fail("nccl", "the launcher said " + std::to_string(c.plan.launch.local_size) +
                                    " process(es) per host but host names show " +
                                    std::to_string(layout.min_processes_per_host) + ".." +
                                    std::to_string(layout.max_processes_per_host) +
                                    ": GPUs may have been assigned twice");
        for (const std::string& coll : probe_collectives()) {
            for (const size_t bytes : sizes) {
                for (int i = 0; i < it.nccl_warmup; ++i)
                    launch(coll, comms->locals(), bytes, nranks);
                comms->wait(timeout_s, "NCCL " + coll + " warm-up");
                const unsigned long long wrong = check(coll, comms->locals(), bytes, nranks);
                comms->barrier(timeout_s);
                const double t_local = timed(*comms, timeout_s, it.nccl_timed, [&] {
                    for (int i = 0; i < it.nccl_timed; ++i)
                        launch(coll, comms->locals(), bytes, nranks);
                });
                const double t = comms->mean_over_ranks(t_local, timeout_s);
                double t_graph = -1;
                // Graphs for the latency-bound sizes only (<= 1 MiB), where launch overhead
                // matters.
                if (o.graphs && bytes <= (1u << 20))
                    t_graph = comms->mean_over_ranks(
                        graph_time_s(*comms, coll, bytes, it.nccl_timed, timeout_s), timeout_s);
                const double algbw = static_cast<double>(bytes) / t / 1e9;
                const double busbw = algbw * busbw_factor(coll, nranks);
                if (c.rank() == 0 && (bytes & (bytes - 1)) == 0 && bytes >= (64u << 20))
                    progress(c, "nccl " + coll + " " + std::to_string(bytes >> 20) +
                                    " MiB: busbw " + std::to_string(busbw) + " GB/s");
                w.begin_object()
                    .field("collective", coll)
                    .field("bytes", static_cast<double>(bytes))
                    .field("count", static_cast<double>(bytes) / sizeof(float))
                    .field("type", "float")
                    .field("time_us", t * 1e6)
                    .field("algbw_gbytes_per_s", algbw)
                    .field("busbw_gbytes_per_s", busbw);
                if (t_graph > 0) w.field("graph_time_us", t_graph * 1e6);
                w.field("wrong", wrong).field("correct", wrong == 0).end_object();
                if (wrong)
                    report.fail("nccl", coll + " " + std::to_string(bytes) +
                                            " bytes: " + std::to_string(wrong) + " wrong elements");
            }
        }
    } catch (const ProbeError& e) {
        report.fail("nccl", e.what());
    }
    w.end_array().field("nodes", hosts);
    // The network NCCL really used, from its own INIT/NET log (probes/core host_facts.h).
    const NcclTransport tr = c.nccl_log_path.empty()
                                 ? NcclTransport{}
                                 : parse_nccl_transport(read_bounded(c.nccl_log_path, 4u << 20));
    w.key("transport")
        .begin_object()
        .field("kind", tr.kind)
        .field("network", tr.network)
        .field("provider", tr.provider)
        .end_object();
    if (hosts > 1 && tr.kind == "socket")
        w.field(
            "transport_note",
            "NCCL used TCP sockets between hosts, not EFA or InfiniBand: the inter-node figures "
            "describe the socket path (check the aws-ofi-nccl plugin, FI_PROVIDER and "
            "NCCL_NET_PLUGIN)");
    w.end_object();
    if (stuck) {
        (void)comms.release(); // a helper thread still uses it
        return false;
    }
    return true;
}

} // namespace cp::probe
