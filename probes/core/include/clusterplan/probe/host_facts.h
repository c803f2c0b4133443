// Facts about the host the probe reads without CUDA: the machine's DMI identity (on EC2 Nitro
// instances the product name is the instance type) and the network NCCL really used, from
// NCCL's own initialisation log.
#pragma once

#include "clusterplan/probe/launch_env.h"

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace cp::probe {

struct DmiIdentity {
    std::string sys_vendor;   // "Amazon EC2"
    std::string product_name; // "p4d.24xlarge"
};
// Reads sys_vendor and product_name under `dir` (bounded reads; missing files give "").
DmiIdentity read_dmi(const std::string& dir = "/sys/class/dmi/id");

// The EC2 instance type DMI names, or "" when the host is not an EC2 instance that says.
std::string dmi_instance_type(const DmiIdentity& dmi);

// Checks --instance against the host: an error sentence when DMI names another instance type,
// nullopt when it matches or when the host does not say (`note` then explains, if not null).
std::optional<std::string> check_instance(const DmiIdentity& dmi, const std::string& wanted,
                                          std::string* note = nullptr);

// The driver version in /proc/driver/nvidia/version's first line: the first dotted number after
// "Kernel Module" ("... x86_64 Kernel Module  580.65.06 ..." and the open module's "... Open
// Kernel Module for x86_64  580.159.04 ..."); "" when the line names none.
std::string parse_nvidia_driver_version(std::string_view proc_version_line);

struct NcclTransport {
    std::string kind;     // "efa", "ib", "socket", or "" when the log does not say
    std::string network;  // NCCL's name for the network plugin: "AWS Libfabric", "IB", "Socket"
    std::string provider; // libfabric provider when the OFI plugin says ("efa", "tcp", ...)
};
// Parses NCCL_DEBUG=INFO output ("NCCL INFO Using network AWS Libfabric", "NET/OFI Selected
// provider is efa", "NET/IB : Using [0]mlx5_0:1/IB", "NET/Socket : Using [0]eth0:...").
NcclTransport parse_nccl_transport(std::string_view log);

// How the probe sees NCCL's init log: NCCL_DEBUG=INFO (subsystems INIT,NET) into a file of its
// own, unless the user named NCCL_DEBUG_FILE (then that file is read and nothing is changed).
struct NcclLogSetup {
    std::vector<std::pair<std::string, std::string>> set; // variables to export before NCCL starts
    std::string path;                                     // the file NCCL will write ("" = none)
    bool owned = false;                                   // ours to delete afterwards
};
NcclLogSetup plan_nccl_log(const EnvLookup& env, const std::string& hostname, long pid,
                           const std::string& dir);
// NCCL's %h (host name) and %p (process id) in NCCL_DEBUG_FILE.
std::string expand_nccl_debug_file(const std::string& pattern, const std::string& hostname,
                                   long pid);

} // namespace cp::probe
