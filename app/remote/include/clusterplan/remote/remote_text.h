// Text that comes back from remote hosts (login banners, probe progress, error output) before it
// reaches a terminal or a stored message: terminal control sequences stripped, and failures of
// multi-rank runs traced to the rank that reported them.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cp::remote {

// Removes ANSI/VT escape sequences (CSI, OSC, single-character escapes) and every other C0
// control character except tab and newline; a lone '\r' ends nothing and is dropped. UTF-8
// text is kept as is.
std::string strip_terminal_escapes(std::string_view text);

// The first error a probe rank reported on stderr ("clusterplan-probe[3]: error: nccl: ..."):
// {rank, message}; rank -1 and "" when none.
std::pair<int, std::string> first_rank_error(std::string_view stderr_text);

// Environment passed to every probe process: the NCCL/libfabric variables set here (NCCL_*,
// FI_*, OFI_NCCL_*: NCCL_SOCKET_IFNAME, FI_PROVIDER, NCCL_NET_PLUGIN, ...) plus `extra`
// (--env NAME=VALUE). Variables the launch sets itself (ranks, NCCL_COMM_ID) are refused.
using EnvVars = std::vector<std::pair<std::string, std::string>>;
EnvVars probe_environment(const EnvVars& extra, char** environment);
bool is_valid_env_name(std::string_view name);
// "NAME=VALUE" from --env; throws std::invalid_argument with one sentence.
std::pair<std::string, std::string> parse_env_assignment(const std::string& text);

} // namespace cp::remote
