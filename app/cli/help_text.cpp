#include "help_text.h"

#include <map>

namespace cp::cli {

std::string command_help(const std::string& command) {
    static const std::string kExit =
        "Exit codes: 0 ok, 1 usage error, 2 bad input or data, 3 no feasible plan (the output\n"
        "still shows the plan or the search; stderr says how close the nearest plan came).\n";
    static const std::map<std::string, std::string> kHelp = {
        {"simulate",
         "usage: clusterplan simulate SCENARIO.json [--json]\n"
         "One plan with its full breakdown on the scenario's instance and node count. Parallel\n"
         "fields the scenario leaves out are searched: the fastest layout that keeps memory "
         "within\n"
         "constraints.memory_headroom (default 90 % of each device).\n"},
        {"sweep",
         "usage: clusterplan sweep SCENARIO.json [--json] [--threads N] [--top N]\n"
         "Every valid layout, instance and node count; the fastest layout per cluster, ranked.\n"},
        {"recommend",
         "usage: clusterplan recommend SCENARIO.json [--top N] [--threads N] [--json]\n"
         "Ranked choices under the scenario's constraints (deadline, budget, instances, spot),\n"
         "why each wins and what limits it, and the time-cost Pareto front. A serving\n"
         "scenario is ranked as `serve` ranks it.\n"},
        {"serve",
         "usage: clusterplan serve SCENARIO.json [--json] [--top N]\n"
         "Inference serving of the scenario's `serving` section: one deployment on\n"
         "cluster.instance, or every candidate (constraints.instances, else the catalog) ranked\n"
         "by cost among those meeting the latency limits, on the prices cluster.pricing names\n"
         "(--top N rows, default 10; each type that cannot serve is listed with its reason).\n"
         "Per deployment: TTFT, TPOT, throughput, replicas, memory, $/h and $ per 1M output\n"
         "tokens (per 1M samples for encoders and CNNs), with the range published runs give.\n"},
        {"report",
         "usage: clusterplan report SCENARIO.json --out FILE.pdf|.html|.md|.csv|.json [--top N] "
         "[--threads N]\n"
         "A recommendation report with charts; the format follows the extension. --out must not\n"
         "be a symbolic link; the file is replaced atomically.\n"},
    };
    const auto it = kHelp.find(command);
    return it == kHelp.end() ? std::string() : it->second + kExit;
}

} // namespace cp::cli
