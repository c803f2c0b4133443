#include "clusterplan/remote/launch.h"

#include "clusterplan/probe/options.h"
#include "clusterplan/remote/remote_text.h"

#include <cctype>
#include <stdexcept>

namespace cp::remote {
namespace {

bool is_hex(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!std::isxdigit(static_cast<unsigned char>(c))) return false;
    return true;
}

void require(bool ok, const std::string& what) {
    if (!ok) throw std::invalid_argument(what);
}

std::string join_hosts(const std::vector<std::string>& hosts) {
    std::string out;
    for (const auto& h : hosts) {
        require(is_valid_host(h), "invalid host name");
        if (!out.empty()) out += ',';
        out += host_address(h);
    }
    return out;
}

std::string probe_args(const RankLaunch& l) {
    require(is_probe_command(l.probe_command), "invalid probe command");
    std::string args = shell_quote(l.probe_command);
    if (l.gpus > 0) args += " --gpus " + std::to_string(l.gpus);
    if (!l.instance.empty()) {
        for (char c : l.instance)
            require(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-',
                    "invalid instance type");
        args += " --instance " + shell_quote(l.instance);
    }
    return args;
}

} // namespace

bool is_valid_host(const std::string& host) {
    if (host.empty() || host.size() > 253 || host.front() == '-') return false;
    const auto at = host.find('@');
    std::string name = host;
    if (at != std::string::npos) {
        const std::string user = host.substr(0, at);
        name = host.substr(at + 1);
        if (user.empty() || user.size() > 32 || user.front() == '-') return false;
        for (char c : user)
            if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.'))
                return false;
    }
    if (name.empty() || name.front() == '-' || name.front() == '.') return false;
    for (char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '-' || c == '_' ||
              c == ':'))
            return false;
    return true;
}

std::string host_address(const std::string& host) {
    const auto at = host.find('@');
    return at == std::string::npos ? host : host.substr(at + 1);
}

std::string shell_quote(const std::string& s) {
    std::string out = "'";
    for (char c : s) {
        if (c == '\'')
            out += "'\\''";
        else
            out += c;
    }
    return out + "'";
}

std::vector<std::string> ssh_argv(const SshOptions& o, const std::string& host,
                                  const std::string& remote_command) {
    require(is_valid_host(host), "invalid host name");
    // "--" ends ssh's options, so even a validated name can never be read as one.
    return {o.ssh_program,
            "-o",
            "BatchMode=yes",
            "-o",
            "ConnectTimeout=" + std::to_string(o.connect_timeout_s),
            "-o",
            "ServerAliveInterval=15",
            "--",
            host,
            remote_command};
}

std::string remote_cache_dir() {
    return "\"$HOME/.cache/clusterplan\"";
}

std::string remote_probe_path(const std::string& sha) {
    require(is_hex(sha), "digest must be hex");
    return "\"$HOME/.cache/clusterplan/probe-" + sha + "\"";
}

std::string remote_check_command(const std::vector<std::pair<std::string, std::string>>& env) {
    std::string exports;
    for (const auto& [name, value] : env) {
        require(is_valid_env_name(name), "invalid environment variable name");
        exports += "export " + name + "=" + shell_quote(value) + "; ";
    }
    // Architecture, C library, the NVIDIA driver/GPUs and the probe's shared libraries as the
    // loader finds them (ldconfig cache, LD_LIBRARY_PATH, the CUDA toolkit's directories);
    // each line is tagged for parsing.
    return exports +
           "echo \"arch=$(uname -m)\"; echo \"glibc=$(getconf GNU_LIBC_VERSION 2>/dev/null)\"; "
           "if command -v nvidia-smi >/dev/null 2>&1; then "
           "nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | sed "
           "'s/^/gpu=/'; "
           "else echo 'gpu=none'; fi; "
           "for l in libcublasLt.so.13 libnccl.so.2; do "
           "p=$( { ldconfig -p 2>/dev/null || /sbin/ldconfig -p 2>/dev/null; } | "
           "awk -v l=\"$l\" '$1 == l {print $NF; exit}'); "
           "if [ -z \"$p\" ]; then for d in $(printf '%s' \"$LD_LIBRARY_PATH\" | tr ':' ' ') "
           "\"${CUDA_HOME:-/usr/local/cuda}/lib64\" "
           "\"${CUDA_HOME:-/usr/local/cuda}/targets/x86_64-linux/lib\" "
           "\"${CUDA_HOME:-/usr/local/cuda}/targets/sbsa-linux/lib\"; do "
           "if [ -e \"$d/$l\" ]; then p=\"$d/$l\"; break; fi; done; fi; "
           "echo \"lib=$l ${p:-missing}\"; done";
}

std::string remote_hash_command(const std::string& sha) {
    return "sha256sum " + remote_probe_path(sha) + " 2>/dev/null || true";
}

std::string remote_upload_command(const std::string& sha) {
    const std::string dst = remote_probe_path(sha);
    const std::string part = "\"$HOME/.cache/clusterplan/probe-" + sha + ".part.$$\"";
    return "umask 077 && mkdir -p " + remote_cache_dir() + " && cat > " + part + " && chmod 700 " +
           part + " && mv -f " + part + " " + dst;
}

std::string launch_environment(const RankLaunch& l) {
    require(l.comm_id.empty() || is_valid_host(l.comm_id), "invalid NCCL_COMM_ID");
    std::string env = "RANK=" + std::to_string(l.rank) +
                      " WORLD_SIZE=" + std::to_string(l.world_size) +
                      " LOCAL_RANK=0 LOCAL_WORLD_SIZE=1";
    if (!l.comm_id.empty()) env += " NCCL_COMM_ID=" + shell_quote(l.comm_id);
    for (const auto& [name, value] : l.env) {
        require(is_valid_env_name(name), "invalid environment variable name");
        env += " " + name + "=" + shell_quote(value);
    }
    return env;
}

std::string remote_launch_command(const RankLaunch& l) {
    require(is_hex(l.run_token), "run token must be hex");
    const std::string pid_file = "\"$HOME/.cache/clusterplan/run-" + l.run_token + ".pid\"";
    // Run in the background so the pid file names the probe itself (cancel kills it), then
    // wait, remove the pid file and pass the probe's exit status on.
    return "cd " + remote_cache_dir() + " && { env " + launch_environment(l) + " " +
           remote_probe_path(l.sha256_hex) + " " + probe_args(l) + " & pid=$!; echo $pid > " +
           pid_file + "; wait $pid; rc=$?; rm -f " + pid_file + "; exit $rc; }";
}

std::string remote_cancel_command(const std::string& token) {
    require(is_hex(token), "run token must be hex");
    const std::string pid_file = "\"$HOME/.cache/clusterplan/run-" + token + ".pid\"";
    return "if [ -f " + pid_file + " ]; then kill -TERM \"$(cat " + pid_file +
           ")\" 2>/dev/null; rm -f " + pid_file + "; fi";
}

std::vector<std::string> mpirun_argv(const std::vector<std::string>& hosts, const RankLaunch& l) {
    std::vector<std::string> argv = {
        "mpirun",   "-np",       std::to_string(hosts.size()), "--host", join_hosts(hosts),
        "--map-by", "ppr:1:node"};
    if (!l.comm_id.empty()) {
        require(is_valid_host(l.comm_id), "invalid NCCL_COMM_ID");
        argv.insert(argv.end(), {"-x", "NCCL_COMM_ID=" + l.comm_id});
    }
    for (const auto& kv : l.env) {
        require(is_valid_env_name(kv.first), "invalid environment variable name");
        argv.insert(argv.end(), {"-x", kv.first});
    }
    argv.insert(argv.end(),
                {"sh", "-c", "exec " + remote_probe_path(l.sha256_hex) + " " + probe_args(l)});
    return argv;
}

std::vector<std::string> srun_argv(const std::vector<std::string>& hosts, const RankLaunch& l) {
    std::string exports = "ALL";
    if (!l.comm_id.empty()) {
        require(is_valid_host(l.comm_id), "invalid NCCL_COMM_ID");
        exports += ",NCCL_COMM_ID=" + l.comm_id;
    }
    return {"srun",
            "--nodes=" + std::to_string(hosts.size()),
            "--ntasks=" + std::to_string(hosts.size()),
            "--ntasks-per-node=1",
            "--nodelist=" + join_hosts(hosts),
            "--export=" + exports,
            "sh",
            "-c",
            "exec " + remote_probe_path(l.sha256_hex) + " " + probe_args(l)};
}

bool is_probe_command(const std::string& command) {
    return probe::is_probe_command(command);
}

} // namespace cp::remote
