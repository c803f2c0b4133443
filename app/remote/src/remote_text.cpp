#include "clusterplan/remote/remote_text.h"

#include <cctype>
#include <set>
#include <stdexcept>

namespace cp::remote {

std::string strip_terminal_escapes(std::string_view s) {
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c == 0x1b) {
            if (i + 1 >= s.size()) break;
            const char kind = s[i + 1];
            if (kind == '[') {
                // CSI: parameters and intermediates, then one final byte in 0x40..0x7e.
                std::size_t j = i + 2;
                while (j < s.size() && !(s[j] >= 0x40 && s[j] <= 0x7e))
                    ++j;
                i = j;
            } else if (kind == ']' || kind == 'P' || kind == '_' || kind == '^') {
                // OSC/DCS/APC/PM: up to BEL or ESC backslash (string terminator).
                std::size_t j = i + 2;
                while (j < s.size() && s[j] != '\a' &&
                       !(s[j] == 0x1b && j + 1 < s.size() && s[j + 1] == '\\'))
                    ++j;
                i = j < s.size() && s[j] == 0x1b ? j + 1 : j;
            } else {
                ++i; // two-character escape (ESC c, ESC 7, ...)
            }
            continue;
        }
        if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7f) continue;
        out += static_cast<char>(c);
    }
    return out;
}

std::pair<int, std::string> first_rank_error(std::string_view text) {
    static constexpr std::string_view kPrefix = "clusterplan-probe[";
    std::size_t pos = 0;
    while ((pos = text.find(kPrefix, pos)) != std::string_view::npos) {
        std::size_t p = pos + kPrefix.size();
        int rank = 0;
        bool digits = false;
        while (p < text.size() && std::isdigit(static_cast<unsigned char>(text[p])) &&
               rank < 100000000) {
            rank = rank * 10 + (text[p] - '0');
            digits = true;
            ++p;
        }
        static constexpr std::string_view kError = "]: error: ";
        if (digits && text.compare(p, kError.size(), kError) == 0) {
            const std::size_t start = p + kError.size();
            std::size_t end = text.find('\n', start);
            if (end == std::string_view::npos) end = text.size();
            return {rank, strip_terminal_escapes(text.substr(start, end - start))};
        }
        pos = p;
    }
    return {-1, ""};
}

bool is_valid_env_name(std::string_view name) {
    if (name.empty() || name.size() > 128 || std::isdigit(static_cast<unsigned char>(name.front())))
        return false;
    for (char c : name)
        if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
    return true;
}

namespace {

bool launch_owned(const std::string& name) {
    static const std::set<std::string> kOwned = {"RANK", "WORLD_SIZE", "LOCAL_RANK",
                                                 "LOCAL_WORLD_SIZE", "NCCL_COMM_ID"};
    return kOwned.count(name) != 0;
}

bool forwarded_prefix(const std::string& name) {
    for (const char* p : {"NCCL_", "FI_", "OFI_NCCL_"})
        if (name.rfind(p, 0) == 0) return true;
    return false;
}

bool valid_value(std::string_view v) {
    if (v.size() > 4096) return false;
    for (char c : v)
        if (static_cast<unsigned char>(c) < 0x20) return false;
    return true;
}

} // namespace

std::pair<std::string, std::string> parse_env_assignment(const std::string& text) {
    const auto eq = text.find('=');
    const std::string name = text.substr(0, eq);
    if (eq == std::string::npos || !is_valid_env_name(name))
        throw std::invalid_argument(
            "--env needs NAME=VALUE with a variable name of letters, digits and '_', not '" +
            text.substr(0, 64) + "'");
    if (launch_owned(name))
        throw std::invalid_argument("--env " + name + " is set by the launch itself");
    const std::string value = text.substr(eq + 1);
    if (!valid_value(value))
        throw std::invalid_argument("--env " + name +
                                    ": the value has control characters or is too long");
    return {name, value};
}

EnvVars probe_environment(const EnvVars& extra, char** environment) {
    EnvVars out;
    std::set<std::string> seen;
    for (const auto& kv : extra)
        seen.insert(kv.first);
    for (char** e = environment; e && *e; ++e) {
        const std::string entry = *e;
        const auto eq = entry.find('=');
        if (eq == std::string::npos) continue;
        const std::string name = entry.substr(0, eq), value = entry.substr(eq + 1);
        if (!forwarded_prefix(name) || launch_owned(name) || seen.count(name) ||
            !is_valid_env_name(name) || !valid_value(value))
            continue;
        out.emplace_back(name, value);
        seen.insert(name);
    }
    out.insert(out.end(), extra.begin(), extra.end());
    return out;
}

} // namespace cp::remote
