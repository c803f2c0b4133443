// Optimizer state per parameter as the step model counts it.
#include "clusterplan/sim/step_model.h"
#include "engine_fixtures.h"
#include "tolerance.h"

#include <catch2/catch.hpp>

using namespace cp;

TEST_CASE("full BF16 (Neuron XLA_USE_BF16) keeps 4 B of Adam state and no fp32 master",
          "[engine]") {
    const sim::Workload w = test::gpt(96, 12288, 96);
    sim::Layout l;
    l.tp = 8;
    l.dp = 8;
    l.global_batch = 64;
    l.recompute = sim::Recompute::full;
    const sim::PlanResult mixed =
        sim::evaluate(w, test::a100_cluster(8, 1600), l, sim::Precision::bf16);
    l.optimizer = sim::Optimizer::adamw_bf16;
    const sim::PlanResult full =
        sim::evaluate(w, test::a100_cluster(8, 1600), l, sim::Precision::bf16);
    // BF16 moments (2 x 2 B) against fp32 moments and master (12 B); weights and gradients stay.
    CHECK_REL(full.memory_gib.optimizer * 3.0, mixed.memory_gib.optimizer, 1e-9);
    CHECK_REL(full.memory_gib.weights, mixed.memory_gib.weights, 1e-12);
    CHECK_REL(full.memory_gib.gradients, mixed.memory_gib.gradients, 1e-12);
    // The update reads and writes fewer bytes.
    CHECK(full.breakdown_s.optimizer_s < mixed.breakdown_s.optimizer_s);
}
