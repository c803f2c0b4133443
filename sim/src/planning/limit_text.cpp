// The sentence a plan's limit is reported with (planner.h describe_limit).
#include "clusterplan/sim/planner.h"
#include "planning/memory_margin.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

namespace cp::sim {

std::string describe_limit(const PlanResult& r) {
    switch (r.limit) {
    case Limit::none:
        return {};
    case Limit::invalid_layout:
        return "the layout does not match the model and cluster (tp·pp·dp, heads, layers, batch "
               "divisibility, or interleaving's micro-batches per stage under this framework)";
    case Limit::out_of_memory:
        if (r.memory_gib.total <= r.memory_gib.capacity && r.memory_gib.host_capacity > 0 &&
            r.memory_gib.offloaded_host > r.memory_gib.host_capacity)
            return "offloaded state does not fit in host memory: " +
                   format_gib(r.memory_gib.offloaded_host) + " needed per device, " +
                   format_gib(r.memory_gib.host_capacity) + " available";
        if (r.memory_gib.total <= r.memory_gib.capacity) // fits, but not within the headroom
            return "does not fit in the memory headroom: " + format_gib(r.memory_gib.total) +
                   " needed per device of " + format_gib(r.memory_gib.capacity) +
                   ", above constraints.max_memory_fraction";
        {
            // What does not fit: the parts, largest first, so the user sees which to shard or cut.
            const MemoryGib& m = r.memory_gib;
            std::vector<std::pair<double, const char*>> parts = {{m.weights, "weights"},
                                                                 {m.gradients, "gradients"},
                                                                 {m.optimizer, "optimizer state"},
                                                                 {m.activations, "activations"}};
            std::stable_sort(parts.begin(), parts.end(),
                             [](const auto& a, const auto& b) { return a.first > b.first; });
            std::string split;
            for (const auto& [gib, name] : parts)
                if (gib > 0)
                    split +=
                        (split.empty() ? "" : ", ") + std::string(name) + " " + format_gib(gib);
            return "does not fit in memory: " + format_gib(m.total) + " needed per device (" +
                   split + "), " + format_gib(m.capacity) + " available";
        }
    case Limit::cannot_train:
        return "the accelerator cannot train at this precision";
    case Limit::unknown_hardware:
        return "a figure the model needs (peak FLOP/s at this precision, memory or bandwidth) is "
               "unknown "
               "for this accelerator";
    }
    return "not valid";
}

} // namespace cp::sim
