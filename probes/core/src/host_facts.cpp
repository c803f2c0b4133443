#include "clusterplan/probe/host_facts.h"

#include <cctype>
#include <fstream>

namespace cp::probe {
namespace {

std::string first_line_bounded(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::string line;
    char c;
    // DMI strings are at most 255 bytes (SMBIOS); anything longer is not a DMI field.
    while (line.size() < 256 && in.get(c) && c != '\n')
        line += c;
    while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back())))
        line.pop_back();
    return line;
}

bool contains_ci(std::string_view text, std::string_view word) {
    if (word.size() > text.size()) return false;
    for (std::size_t i = 0; i + word.size() <= text.size(); ++i) {
        bool eq = true;
        for (std::size_t j = 0; j < word.size() && eq; ++j)
            eq = std::tolower(static_cast<unsigned char>(text[i + j])) ==
                 std::tolower(static_cast<unsigned char>(word[j]));
        if (eq) return true;
    }
    return false;
}

// "p4d.24xlarge": family letters/digits, a dot, a size; what EC2 puts in DMI product_name.
bool looks_like_instance_type(const std::string& s) {
    const auto dot = s.find('.');
    if (dot == std::string::npos || dot == 0 || dot + 1 >= s.size() || s.size() > 64) return false;
    for (char c : s)
        if (!(std::islower(static_cast<unsigned char>(c)) ||
              std::isdigit(static_cast<unsigned char>(c)) || c == '.' || c == '-'))
            return false;
    return true;
}

std::string rest_of_line(std::string_view log, std::size_t from) {
    std::size_t end = log.find('\n', from);
    if (end == std::string_view::npos) end = log.size();
    std::string s(log.substr(from, end - from));
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front())))
        s.erase(0, 1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back())))
        s.pop_back();
    return s;
}

} // namespace

DmiIdentity read_dmi(const std::string& dir) {
    return {first_line_bounded(dir + "/sys_vendor"), first_line_bounded(dir + "/product_name")};
}

std::string dmi_instance_type(const DmiIdentity& dmi) {
    if (!contains_ci(dmi.sys_vendor, "amazon")) return "";
    return looks_like_instance_type(dmi.product_name) ? dmi.product_name : "";
}

std::optional<std::string> check_instance(const DmiIdentity& dmi, const std::string& wanted,
                                          std::string* note) {
    if (wanted.empty()) return std::nullopt;
    const std::string actual = dmi_instance_type(dmi);
    if (actual.empty()) {
        if (note)
            *note = "this host's DMI identity (" +
                    (dmi.product_name.empty() ? std::string("none") : dmi.product_name) +
                    ") does not name an EC2 instance type, so --instance " + wanted +
                    " cannot be checked";
        return std::nullopt;
    }
    if (actual == wanted) return std::nullopt;
    return "--instance " + wanted + " but this host is a " + actual +
           " (/sys/class/dmi/id/product_name); measurements of one instance type must not "
           "calibrate another";
}

NcclTransport parse_nccl_transport(std::string_view log) {
    NcclTransport t;
    for (std::size_t pos = log.find("Using network "); pos != std::string_view::npos;
         pos = log.find("Using network ", pos + 1))
        t.network = rest_of_line(log, pos + 14);
    static constexpr std::string_view kProvider[] = {"Selected Provider is ",
                                                     "Selected provider is "};
    for (auto key : kProvider) {
        const std::size_t pos = log.find(key);
        if (pos == std::string_view::npos) continue;
        std::string p = rest_of_line(log, pos + key.size());
        p = p.substr(0, p.find_first_of(", "));
        t.provider = p;
    }
    const bool ofi = contains_ci(t.network, "libfabric") || contains_ci(t.network, "ofi") ||
                     !t.provider.empty() || log.find("NET/OFI") != std::string_view::npos;
    if (ofi) {
        if (t.provider == "efa")
            t.kind = "efa";
        else if (t.provider == "tcp" || t.provider == "sockets")
            t.kind = "socket";
        else
            t.kind = t.provider.empty() ? "ofi" : t.provider;
    } else if (t.network == "IB" || log.find("NET/IB : Using") != std::string_view::npos)
        t.kind = "ib";
    else if (t.network == "Socket" || log.find("NET/Socket : Using") != std::string_view::npos)
        t.kind = "socket";
    if (t.network.empty() && !t.kind.empty())
        t.network = t.kind == "ib" ? "IB" : t.kind == "socket" ? "Socket" : "";
    return t;
}

std::string expand_nccl_debug_file(const std::string& pattern, const std::string& hostname,
                                   long pid) {
    std::string out;
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] == '%' && i + 1 < pattern.size() &&
            (pattern[i + 1] == 'h' || pattern[i + 1] == 'p')) {
            out += pattern[i + 1] == 'h' ? hostname : std::to_string(pid);
            ++i;
        } else {
            out += pattern[i];
        }
    }
    return out;
}

NcclLogSetup plan_nccl_log(const EnvLookup& env, const std::string& hostname, long pid,
                           const std::string& dir) {
    NcclLogSetup s;
    if (const char* user_file = env("NCCL_DEBUG_FILE"); user_file && *user_file) {
        s.path = expand_nccl_debug_file(user_file, hostname, pid);
        return s;
    }
    const char* level = env("NCCL_DEBUG");
    const std::string lv = level ? level : "";
    if (lv != "TRACE") s.set.emplace_back("NCCL_DEBUG", "INFO");
    if (!env("NCCL_DEBUG_SUBSYS")) s.set.emplace_back("NCCL_DEBUG_SUBSYS", "INIT,NET");
    const std::string pattern = dir + "/clusterplan-probe-nccl.%h.%p.log";
    s.set.emplace_back("NCCL_DEBUG_FILE", pattern);
    s.path = expand_nccl_debug_file(pattern, hostname, pid);
    s.owned = true;
    return s;
}

std::string parse_nvidia_driver_version(std::string_view proc_version_line) {
    const std::size_t module = proc_version_line.find("Kernel Module");
    if (module == std::string_view::npos) return "";
    std::string_view rest = proc_version_line.substr(module);
    while (!rest.empty()) {
        const std::size_t start = rest.find_first_not_of(" \t");
        if (start == std::string_view::npos) break;
        rest.remove_prefix(start);
        const std::string_view token = rest.substr(0, rest.find_first_of(" \t"));
        const bool dotted_number =
            token.find('.') != std::string_view::npos &&
            token.find_first_not_of("0123456789.") == std::string_view::npos &&
            token.front() != '.';
        if (dotted_number) return std::string(token);
        rest.remove_prefix(token.size());
    }
    return "";
}

} // namespace cp::probe
