#include "clusterplan/remote/probe_runner.h"

#include "clusterplan/probe/report.h"
#include "clusterplan/remote/process.h"
#include "clusterplan/remote/remote_text.h"
#include "clusterplan/remote/sha256.h"
#include "clusterplan/sim/io/input_file.h"

#include <algorithm>
#include <cctype>
#include <gnu/libc-version.h>
#include <random>
#include <sstream>
#include <sys/utsname.h>

namespace cp::remote {
namespace {

std::string first_line(const std::string& raw) {
    const std::string s = strip_terminal_escapes(raw);
    const auto nl = s.find('\n');
    std::string line = s.substr(0, nl);
    return line.empty() ? "(no output)" : line;
}

std::string last_line(std::string s) {
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r'))
        s.pop_back();
    const auto nl = s.rfind('\n');
    return s.empty() ? "(no output)" : nl == std::string::npos ? s : s.substr(nl + 1);
}

std::vector<int> version_numbers(const std::string& v) {
    std::vector<int> out;
    std::istringstream in(v);
    std::string part;
    while (std::getline(in, part, '.')) {
        try {
            out.push_back(std::stoi(part));
        } catch (const std::exception&) {
            break;
        }
    }
    return out;
}

bool version_less(const std::string& a, const std::string& b) {
    return version_numbers(a) < version_numbers(b);
}

std::string random_token() {
    std::random_device rd;
    std::ostringstream s;
    s << std::hex << rd() << rd();
    return s.str();
}

// A CUDA binary carrying its own cuBLASLt kernels is a few hundred MB at most.
constexpr std::size_t kMaxProbeBinaryBytes = std::size_t{1} << 30;

// One command run on `host` over ssh, with its time limit and what it reads on stdin.
ProcessJob ssh_job(const SshOptions& ssh, const std::string& host, const std::string& command,
                   std::chrono::seconds timeout, std::string stdin_data = {}) {
    return {ssh_argv(ssh, host, command), std::move(stdin_data), nullptr, timeout, {}};
}

std::string read_file(const std::string& path) {
    try {
        return sim::io::read_input_file(path, "the probe binary", kMaxProbeBinaryBytes);
    } catch (const sim::io::InputFileError& e) {
        throw RemoteError(std::string(e.what()) + " (pass --probe PATH)");
    }
}

} // namespace

HostReport parse_check_output(const std::string& host, const std::string& output) {
    HostReport r;
    r.host = host;
    std::istringstream in(output);
    for (std::string line; std::getline(in, line);) {
        if (line.rfind("arch=", 0) == 0)
            r.arch = line.substr(5);
        else if (line.rfind("glibc=", 0) == 0) {
            r.glibc = line.substr(6);
            if (auto sp = r.glibc.rfind(' '); sp != std::string::npos)
                r.glibc = r.glibc.substr(sp + 1);
        } else if (line.rfind("lib=", 0) == 0) {
            // "lib=libnccl.so.2 /usr/lib/x86_64-linux-gnu/libnccl.so.2" or "... missing".
            const std::string v = line.substr(4);
            const auto sp = v.find(' ');
            if (sp != std::string::npos && v.substr(sp + 1) == "missing")
                r.missing_libraries.push_back(v.substr(0, sp));
        } else if (line.rfind("gpu=", 0) == 0) {
            const std::string v = line.substr(4);
            if (v == "none") continue;
            const auto comma = v.rfind(',');
            if (comma == std::string::npos) {
                r.gpus.push_back("error: " + v);
                continue;
            }
            r.gpus.push_back(v.substr(0, comma));
            std::string driver = v.substr(comma + 1);
            while (!driver.empty() && driver.front() == ' ')
                driver.erase(0, 1);
            r.driver = driver;
        }
    }
    return r;
}

void check_host_compatibility(const HostReport& h, const std::string& local_arch,
                              const std::string& local_glibc) {
    if (h.arch.empty())
        throw RemoteError("host " + h.host +
                          " did not report its architecture; is it a Linux host?");
    if (h.arch != local_arch)
        throw RemoteError("host " + h.host + " is " + h.arch +
                          " but the probe binary is built for " + local_arch);
    if (!h.glibc.empty() && !local_glibc.empty() && version_less(h.glibc, local_glibc))
        throw RemoteError(
            "host " + h.host + " has glibc " + h.glibc + ", older than the " + local_glibc +
            " the probe was built against; build the probe on an older system or update the host");
    if (h.gpus.empty() || h.driver.empty()) {
        std::string why = h.gpus.empty() ? "nvidia-smi is not installed" : h.gpus.front();
        throw RemoteError("host " + h.host + " has no working NVIDIA driver (" + why + ")");
    }
    for (const auto& gpu : h.gpus) {
        for (const char* old :
             {"V100", "P100", "P40", "P4", "K80", "M60", "M40", "Titan V", "TITAN V"}) {
            const std::string o = old;
            const auto pos = gpu.find(o);
            // Whole-word match so "P4" does not hit "P40" names handled above, or "H100".
            const bool word_end = pos != std::string::npos &&
                                  (pos + o.size() == gpu.size() ||
                                   !std::isalnum(static_cast<unsigned char>(gpu[pos + o.size()])));
            const bool word_start = pos != std::string::npos && (pos == 0 || gpu[pos - 1] == ' ');
            if (word_start && word_end)
                throw RemoteError("host " + h.host + " has " + gpu +
                                  " GPUs, which CUDA 13 no longer supports (Maxwell, Pascal and "
                                  "Volta, e.g. V100 on P3 "
                                  "instances); run nccl-tests there and import its output with "
                                  "`clusterplan calibrate import FILE`");
        }
    }
    const auto v = version_numbers(h.driver);
    if (v.empty() || v.front() < 580)
        throw RemoteError("host " + h.host + " has NVIDIA driver " + h.driver +
                          "; the CUDA 13 probe needs driver 580 or newer");
    if (!h.missing_libraries.empty()) {
        std::string libs;
        for (const auto& l : h.missing_libraries)
            libs += (libs.empty() ? "" : ", ") + l;
        throw RemoteError(
            "host " + h.host + " lacks " + libs +
            " (not in the ldconfig cache, LD_LIBRARY_PATH or /usr/local/cuda), which the probe "
            "loads: install the CUDA 13 cuBLAS and NCCL libraries there, or pass --env "
            "LD_LIBRARY_PATH=DIR naming where they are");
    }
}

ProbeRunner::ProbeRunner(RunOptions options) : options_(std::move(options)) {
    if (options_.hosts.empty()) throw std::invalid_argument("at least one --host is needed");
    for (const auto& h : options_.hosts)
        if (!is_valid_host(h)) throw std::invalid_argument("invalid host name '" + h + "'");
    if (!is_probe_command(options_.probe_command))
        throw std::invalid_argument("unknown probe command");
    if (options_.gpus < 0) throw std::invalid_argument("--gpus must be >= 0");
}

RunResult ProbeRunner::run(const Progress& progress) {
    auto say = [&](const std::string& host, const std::string& stage, const std::string& msg) {
        if (progress) progress({host, stage, msg});
    };
    auto check_cancel = [&] {
        if (cancel_) throw RemoteError("probe run cancelled");
    };
    RunResult result;
    const std::string binary = read_file(options_.probe_path);
    result.probe_sha256 = sha256_hex(binary);
    const std::string& sha = result.probe_sha256;
    utsname un{};
    uname(&un);
    const std::string local_arch = un.machine;
    const std::string local_glibc = gnu_get_libc_version();
    const auto& hosts = options_.hosts;

    // NCCL/libfabric settings of this shell plus --env, for the check and every probe process.
    const EnvVars env = probe_environment(options_.env, environ);

    // 1. Compatibility (all hosts at once).
    std::vector<ProcessJob> jobs;
    for (const auto& h : hosts) {
        say(h, "check", "checking architecture, glibc and NVIDIA driver");
        jobs.push_back(
            ssh_job(options_.ssh, h, remote_check_command(env), std::chrono::seconds(60)));
    }
    auto res = run_processes(jobs, &cancel_);
    check_cancel();
    for (std::size_t i = 0; i < hosts.size(); ++i) {
        if (res[i].exit_code != 0)
            throw RemoteError("cannot reach host " + hosts[i] + " with ssh (exit " +
                              std::to_string(res[i].exit_code) + "): " + first_line(res[i].err));
        HostReport rep = parse_check_output(hosts[i], res[i].out);
        check_host_compatibility(rep, local_arch, local_glibc);
        say(hosts[i], "check",
            std::to_string(rep.gpus.size()) + " GPU(s), driver " + rep.driver + ", glibc " +
                rep.glibc);
        result.hosts.push_back(rep);
    }

    // 2. Upload to ~/.cache/clusterplan/probe-<sha256> unless already there, then verify.
    auto remote_hash_ok = [&](std::vector<bool>& ok) {
        std::vector<ProcessJob> hash_jobs;
        for (const auto& h : hosts)
            hash_jobs.push_back(
                ssh_job(options_.ssh, h, remote_hash_command(sha), std::chrono::seconds(120)));
        auto r = run_processes(hash_jobs, &cancel_);
        check_cancel();
        // Any line may carry the digest: login scripts sometimes print to stdout first.
        for (std::size_t i = 0; i < hosts.size(); ++i)
            ok[i] = r[i].exit_code == 0 &&
                    (r[i].out.rfind(sha, 0) == 0 || r[i].out.find("\n" + sha) != std::string::npos);
    };
    std::vector<bool> cached(hosts.size());
    remote_hash_ok(cached);
    jobs.clear();
    std::vector<std::size_t> upload_idx;
    for (std::size_t i = 0; i < hosts.size(); ++i) {
        if (cached[i]) {
            say(hosts[i], "upload", "probe " + sha.substr(0, 12) + " already cached");
            continue;
        }
        say(hosts[i], "upload",
            "uploading probe (" + std::to_string(binary.size()) + " bytes, sha256 " +
                sha.substr(0, 12) + ")");
        jobs.push_back(ssh_job(options_.ssh, hosts[i], remote_upload_command(sha),
                               std::chrono::seconds(600), binary));
        upload_idx.push_back(i);
    }
    if (!jobs.empty()) {
        res = run_processes(jobs, &cancel_);
        check_cancel();
        for (std::size_t k = 0; k < upload_idx.size(); ++k) {
            if (res[k].exit_code != 0)
                throw RemoteError("upload to host " + hosts[upload_idx[k]] +
                                  " failed: " + first_line(res[k].err));
            result.hosts[upload_idx[k]].uploaded = true;
        }
        std::vector<bool> verified(hosts.size());
        remote_hash_ok(verified);
        for (std::size_t i = 0; i < hosts.size(); ++i)
            if (!verified[i])
                throw RemoteError("the probe uploaded to host " + hosts[i] +
                                  " does not have sha256 " + sha + "; upload corrupted");
        for (auto i : upload_idx)
            say(hosts[i], "upload", "verified sha256");
    }

    // 3. Launch one process per host and stream progress.
    RankLaunch base;
    base.sha256_hex = sha;
    base.probe_command = options_.probe_command;
    base.gpus = options_.gpus;
    base.world_size = static_cast<int>(hosts.size());
    base.run_token = random_token();
    base.instance = options_.instance;
    base.env = env;
    if (hosts.size() > 1)
        base.comm_id = host_address(hosts.front()) + ":" + std::to_string(options_.nccl_port);
    jobs.clear();
    const auto timeout = std::chrono::seconds(options_.probe_timeout_s);
    if (options_.launcher == Launcher::ssh) {
        for (std::size_t i = 0; i < hosts.size(); ++i) {
            RankLaunch l = base;
            l.rank = static_cast<int>(i);
            const std::string h = hosts[i];
            ProcessJob job = ssh_job(options_.ssh, h, remote_launch_command(l), timeout);
            job.on_stderr_line = [&say, h](const std::string& line) {
                say(h, "probe", strip_terminal_escapes(line));
            };
            jobs.push_back(std::move(job));
        }
    } else {
        auto argv = options_.launcher == Launcher::mpirun ? mpirun_argv(hosts, base)
                                                          : srun_argv(hosts, base);
        jobs.push_back(
            {argv, "",
             [&say](const std::string& line) { say("", "probe", strip_terminal_escapes(line)); },
             timeout, env});
    }
    say("", "launch", "starting " + std::to_string(hosts.size()) + " probe process(es)");
    res = run_processes(jobs, &cancel_);
    if (cancel_ ||
        std::any_of(res.begin(), res.end(), [](const ProcessResult& r) { return r.timed_out; })) {
        // Local clients are gone; make sure the remote probes are too.
        if (options_.launcher == Launcher::ssh) {
            std::vector<ProcessJob> kills;
            for (const auto& h : hosts)
                kills.push_back(ssh_job(options_.ssh, h, remote_cancel_command(base.run_token),
                                        std::chrono::seconds(30)));
            run_processes(kills, nullptr);
        }
        say("", "cleanup", "remote probe processes stopped");
        throw RemoteError(cancel_
                              ? "probe run cancelled; remote processes were stopped"
                              : "probe run exceeded " + std::to_string(options_.probe_timeout_s) +
                                    " s and was stopped");
    }

    // 4. Collect: rank 0's document, found by its marker lines (banners and NCCL output on
    // stdout around it are ignored). Exit 3 is a document whose failed sections it lists.
    say("", "collect", "collecting results");
    for (std::size_t i = 0; i < res.size(); ++i) {
        const bool per_host = options_.launcher == Launcher::ssh;
        if (res[i].output_overflow)
            throw RemoteError(
                "probe on " + (per_host ? "host " + hosts[i] : std::string("the launcher")) +
                " printed more than " + std::to_string(jobs[i].max_output_bytes >> 20) +
                " MiB and was stopped (a clusterplan.probe/1 document is a few MB)");
        const auto [rank, why] = first_rank_error(res[i].err);
        if (res[i].exit_code != 0 && res[i].exit_code != probe::kExitSectionFailed) {
            const std::string who = per_host ? "rank " + std::to_string(i) + " on host " + hosts[i]
                                    : rank >= 0 ? "rank " + std::to_string(rank)
                                                : std::string("the launcher");
            const std::string detail =
                !why.empty() ? why
                             : strip_terminal_escapes(
                                   last_line(res[i].err.empty() ? res[i].out : res[i].err));
            throw RemoteError("probe " + who + " failed (exit " + std::to_string(res[i].exit_code) +
                              "): " + detail);
        }
        const probe::MarkedDocuments found = probe::extract_marked_documents(res[i].out);
        if (found.truncated)
            throw RemoteError("the probe's output from " +
                              (per_host ? "host " + hosts[i] : std::string("the launcher")) +
                              " was cut short (a document without its end marker)");
        for (const auto& d : found.documents) {
            if (result.rank0_json.empty())
                result.rank0_json = d;
            else
                result.other_json.push_back(d);
        }
        if (rank >= 0) result.rank_errors.push_back("rank " + std::to_string(rank) + ": " + why);
    }
    if (result.rank0_json.empty())
        throw RemoteError("the probe printed no clusterplan.probe/1 document on " + hosts.front());
    say("", "done", "probe finished on " + std::to_string(hosts.size()) + " host(s)");
    return result;
}

} // namespace cp::remote
