#include "clusterplan/sim/calibration_samples.h"

#include "clusterplan/probe/report.h"
#include "clusterplan/probe/schedule.h"
#include "clusterplan/sim/calibration_import.h"

#include <algorithm>
#include <cctype>

namespace cp::sim {

std::string canonical_collective(const std::string& name) {
    std::string base = name;
    if (auto slash = base.find_last_of('/'); slash != std::string::npos)
        base = base.substr(slash + 1);
    std::string key;
    for (char c : base) {
        if (std::isalnum(static_cast<unsigned char>(c)))
            key += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    if (key.size() > 4 && key.compare(key.size() - 4, 4, "perf") == 0) key.resize(key.size() - 4);
    static const std::pair<const char*, const char*> kNames[] = {
        {"allreduce", "all_reduce"},
        {"allgather", "all_gather"},
        {"reducescatter", "reduce_scatter"},
        {"broadcast", "broadcast"},
        {"reduce", "reduce"},
        {"sendrecv", "sendrecv"},
        {"alltoall", "alltoall"},
    };
    for (const auto& [k, canonical] : kNames) {
        if (key == k) return canonical;
    }
    return "";
}

double busbw_factor(const std::string& collective, int ranks) {
    return probe::busbw_factor(collective, ranks); // one table, shared with the probe itself
}

CollectiveFormat detect_collective_format(std::string_view text) {
    // A saved copy of the probe's stdout: its document between marker lines.
    if (text.find(probe::kDocumentBegin) != std::string_view::npos)
        return CollectiveFormat::probe_json;
    std::size_t i = 0;
    while (i < text.size() && std::isspace(static_cast<unsigned char>(text[i])))
        ++i;
    if (i < text.size() && text[i] == '{') {
        if (text.find("clusterplan.probe/") != std::string_view::npos)
            return CollectiveFormat::probe_json;
        if (text.find("\"results\"") != std::string_view::npos)
            return CollectiveFormat::nccl_tests_json;
        return CollectiveFormat::unknown;
    }
    if (text.substr(i, 8) == "size(B),") return CollectiveFormat::csv;
    // nccl-tests text: a commented header naming size and count columns.
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        if (!line.empty() && line[0] == '#' && line.find("size") != std::string_view::npos &&
            line.find("count") != std::string_view::npos)
            return CollectiveFormat::nccl_tests_text;
        pos = end + 1;
    }
    return CollectiveFormat::unknown;
}

} // namespace cp::sim
