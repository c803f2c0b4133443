// Validation of host names and the argv/remote command lines used to reach probe hosts. No
// string from the user is ever interpreted by a local shell; the remote command string (ssh
// hands one string to the remote login shell) is assembled only from fixed text, validated
// host names, hex digests and integers, each single-quoted.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace cp::remote {

enum class Launcher { ssh, mpirun, srun };

// Accepts `host`, `user@host`, ssh-config aliases, IPv4 and bare IPv6 addresses: letters,
// digits, '.', '-', '_', ':' (and one '@' after a valid user name), not starting with '-',
// at most 253 characters. Everything else (spaces, quotes, ;, $, `, |, &, /, ...) is rejected.
bool is_valid_host(const std::string& host);
// The host without a `user@` prefix (what other hosts use to reach it).
std::string host_address(const std::string& host);
// Single-quotes `s` for a POSIX shell ('a'\''b').
std::string shell_quote(const std::string& s);

struct SshOptions {
    std::string ssh_program = "ssh"; // looked up on PATH
    int connect_timeout_s = 10;
};

// ssh argv: BatchMode (never prompt), ConnectTimeout, the user's own config and agent.
std::vector<std::string> ssh_argv(const SshOptions& options, const std::string& host,
                                  const std::string& remote_command);

// Remote command lines (fixed text plus validated values).
std::string remote_cache_dir(); // "$HOME/.cache/clusterplan"
std::string remote_probe_path(const std::string& sha256_hex);
// Architecture, glibc, GPUs/driver and the shared libraries the probe loads (libcublasLt,
// libnccl), run with `env` exported first (e.g. an LD_LIBRARY_PATH passed with --env).
std::string remote_check_command(const std::vector<std::pair<std::string, std::string>>& env = {});
std::string remote_hash_command(const std::string& sha256_hex);
std::string remote_upload_command(const std::string& sha256_hex);

struct RankLaunch {
    std::string sha256_hex;
    std::string probe_command = "all"; // a clusterplan-probe subcommand (validated)
    int gpus = 0;                      // 0 = all visible
    int rank = 0;
    int world_size = 1;
    std::string comm_id;   // "host0:port" for multi-host, else empty
    std::string run_token; // hex, names the pid file used by cancel
    std::string instance;  // --instance for the probe to check against the host's DMI
    // NCCL/libfabric environment for every probe process (remote_text.h probe_environment()).
    std::vector<std::pair<std::string, std::string>> env;
};
// "RANK=0 WORLD_SIZE=2 LOCAL_RANK=0 LOCAL_WORLD_SIZE=1 NCCL_COMM_ID='h:p' NAME='v' ...": what
// the ssh launch exports (one process per host, so each alone on its host).
std::string launch_environment(const RankLaunch& launch);
std::string remote_launch_command(const RankLaunch& launch);
std::string remote_cancel_command(const std::string& run_token);

// mpirun / srun argv that start one probe process per host from here; the probe reads its
// rank from OMPI_COMM_WORLD_* or SLURM_* and bootstraps NCCL from NCCL_COMM_ID. `launch.env`
// must also be in the launcher's own environment: mpirun forwards each name with -x NAME and
// srun with --export=ALL (values never pass through a command line they could break).
std::vector<std::string> mpirun_argv(const std::vector<std::string>& hosts,
                                     const RankLaunch& launch);
std::vector<std::string> srun_argv(const std::vector<std::string>& hosts, const RankLaunch& launch);

bool is_probe_command(const std::string& command);

} // namespace cp::remote
