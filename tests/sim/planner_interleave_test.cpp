// The interleaved pipeline schedule in the planner's search: virtual stages with a layer in
// every chunk, and valid plans that run as their framework groups micro-batches.
#include "clusterplan/sim/framework.h"
#include "clusterplan/sim/planner.h"
#include "clusterplan/sim/scenario.h"
#include "clusterplan/sim/search.h"
#include "engine/pipeline_stages.h"
#include "engine_fixtures.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdint>
#include <set>

using namespace cp::sim;

TEST_CASE("the interleaved schedule searches virtual stages with a layer in every chunk",
          "[planner]") {
    const Scenario sc = parse_scenario(
        R"({"model": {"preset": "gpt3-175b"}, "cluster": {}, "parallel": {"schedule": "interleaved", "tp": 8}})",
        "t.json");
    LayoutSpace space;
    build_layout_space(sc, 512, 8, space);
    std::set<int> vs;
    for (const Layout& l : space.bases) {
        CHECK(l.schedule == Schedule::interleaved);
        CHECK(96 / l.pp >= l.virtual_stages);
        if (l.pp == 1) CHECK(l.virtual_stages == 1);
        vs.insert(l.virtual_stages);
    }
    CHECK(vs.count(2) == 1);
    CHECK(vs.count(4) == 1);
    // Every evaluated interleaved plan that is valid runs as its framework groups micro-batches: pp
    // divides them, or a group of N >= pp leaves a last group that is whole or at least pp; some
    // Megatron-Core plans need the larger groups.
    std::uint64_t valid = 0, grouped = 0;
    const NodeSpec node = cp::test::priced_a100_node();
    evaluate_layouts(
        sc, Cluster{node, 64}, space, nullptr, [&](const Layout& l, const PlanResult& r) {
            if (r.valid() && l.virtual_stages > 1) {
                ++valid;
                Layout run = l;
                run.framework = resolve_framework(l.framework, node.accelerator, l.zero);
                const int n = interleave_group_size(run);
                const int m = l.micro_batches();
                if (run.framework == Framework::pytorch_fsdp) {
                    // PyTorch's rounds: max(1, M / pp) of them, whole, M / rounds micro-batches
                    // each (fewer than pp when M < pp).
                    const int rounds = std::max(1, m / l.pp);
                    CHECK(m % rounds == 0);
                    CHECK(n == m / rounds);
                    return;
                }
                REQUIRE(n >= l.pp);
                CHECK((m % n == 0 || m % n >= l.pp));
                if (m % l.pp != 0) {
                    CHECK(run.framework == Framework::megatron_core);
                    ++grouped;
                }
            }
        });
    CHECK(valid > 0);
    CHECK(grouped > 0);
}
