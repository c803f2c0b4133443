#include "engine/pipeline_stages.h"

#include <algorithm>
#include <numeric>

namespace cp::sim {

StageSplit stage_split(int layers, const Layout& layout) {
    const int p = std::max(1, layout.pp);
    StageSplit s;
    if (layout.stage_layers_first > 0) {
        s.first = layout.stage_layers_first;
        s.last = layout.stage_layers_last;
        s.middle = layout.stage_layers_middle;
        s.middle_fewest = layout.stage_layers_middle_fewest;
        return s;
    }
    if (p == 1) return {layers, layers, 0, 0};
    const int base = layers / p, extra = layers % p;
    if (extra == 0) return {base, base, p > 2 ? base : 0, p > 2 ? base : 0};
    if (p > 2 && (layers + 2) % p == 0) {
        const int per = (layers + 2) / p; // embedding and loss counted as a layer each
        return {per - 1, per - 1, per, per};
    }
    // The extra layers go to the middle stages first: with fewer extras than middle stages
    // some of them keep the base count.
    if (p > 2 && extra <= p - 2) return {base, base, base + 1, extra < p - 2 ? base : base + 1};
    return {base + 1, base + (extra >= p ? 1 : 0), p > 2 ? base + 1 : 0, p > 2 ? base + 1 : 0};
}

std::string set_stage_layers(const std::vector<int>& stages, int layers, Layout& layout) {
    if (static_cast<int>(stages.size()) != layout.pp)
        return "lists " + std::to_string(stages.size()) + " stages, but pp is " +
               std::to_string(layout.pp);
    for (int n : stages)
        if (n < 1) return "every stage needs at least one layer";
    const long long sum = std::accumulate(stages.begin(), stages.end(), 0LL);
    if (sum != layers)
        return "holds " + std::to_string(sum) + " layers, but the model has " +
               std::to_string(layers);
    layout.stage_layers_first = stages.front();
    layout.stage_layers_last = stages.back();
    layout.stage_layers_middle =
        stages.size() > 2 ? *std::max_element(stages.begin() + 1, stages.end() - 1) : 0;
    layout.stage_layers_middle_fewest =
        stages.size() > 2 ? *std::min_element(stages.begin() + 1, stages.end() - 1) : 0;
    return {};
}

std::string stage_layers_problem(const std::vector<int>& stage_layers, int pp, int layers) {
    Layout split;
    split.pp = pp;
    return set_stage_layers(stage_layers, layers, split);
}

int interleave_group_size(const Layout& layout) {
    const int m = layout.micro_batches(), p = layout.pp;
    if (p >= 1 && m >= 1 && layout.framework != Framework::automatic &&
        framework_profile(layout.framework).interleave_rounds) {
        const int rounds = std::max(1, m / p);
        return m % rounds == 0 ? m / rounds : 0;
    }
    if (p < 1 || m < p) return 0;
    if (m % p == 0) return p;
    if (layout.framework == Framework::automatic ||
        !framework_profile(layout.framework).interleave_microbatch_groups)
        return 0;
    for (int n = p + 1; n <= m; ++n)
        if (m % n == 0 || m % n >= p) return n;
    return 0;
}

} // namespace cp::sim
