// Serving prediction intervals: the committed residual tables are the bundled runs'
// leave-one-source-out residuals, the validated bucket's range holds most of its own runs, and an
// engine without published runs gets the widest range.
#include "clusterplan/sim/serving_interval.h"
#include "residual_buckets.h"
#include "serving_fixture.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>

using namespace cp::sim;

namespace {

const std::vector<ServingRunCheck>& checks() {
    static const std::vector<ServingRunCheck> c =
        validate_serving_runs(published_serving_runs(), cp::test::serving_fixture().resolve);
    return c;
}

} // namespace

TEST_CASE("the committed serving residual tables are the runs' leave-one-source-out residuals",
          "[validation]") {
    bool same = true;
    for (ServingFigure figure :
         {ServingFigure::throughput, ServingFigure::ttft, ServingFigure::step}) {
        const auto fresh =
            compute_serving_residual_buckets(checks(), cp::test::serving_fixture().resolve, figure);
        same = cp::test::same_buckets(fresh, serving_residual_buckets(figure)) && same;
        std::printf("\nserving residual buckets, %s (measured/predicted time, leave-one-source-"
                    "out):\n",
                    enum_name(figure));
        cp::test::print_buckets(fresh);
    }
    INFO("paste the tables above into sim/src/validation/serving_interval_table.cpp");
    CHECK(same);
}

TEST_CASE("Mixture-of-Experts runs have buckets of their own", "[validation]") {
    CHECK(serving_bucket_family(ServingEngine::vllm, false) == "vllm");
    CHECK(serving_bucket_family(ServingEngine::vllm, true) == "vllm moe");
    const auto is_moe = [](const ServingRunCheck& c) {
        return c.run->workload.kind == WorkloadKind::transformer &&
               c.run->workload.shape.moe.enabled();
    };
    std::vector<ServingRunCheck> dense;
    for (const ServingRunCheck& c : checks())
        if (!is_moe(c)) dense.push_back(c);
    REQUIRE(dense.size() < checks().size());
    for (ServingFigure figure :
         {ServingFigure::throughput, ServingFigure::ttft, ServingFigure::step}) {
        // The dense buckets are what the dense runs alone give: no MoE residual widens them.
        std::vector<ResidualBucket> dense_of_all;
        for (const ResidualBucket& b : compute_serving_residual_buckets(
                 checks(), cp::test::serving_fixture().resolve, figure))
            if (!b.family.ends_with(" moe")) dense_of_all.push_back(b);
        CHECK(cp::test::same_buckets(
            compute_serving_residual_buckets(dense, cp::test::serving_fixture().resolve, figure),
            dense_of_all));
    }
    // A plan takes its own kind's bucket: the Trainium2 MoE first tokens (optimum-neuron's Qwen3
    // MoE and the NxD Inference contrib Mixtrals) give an MoE plan a range of its own, wider than
    // the dense plan's.
    const auto dense_plan =
        serving_intervals(ServingEngine::vllm, AcceleratorGeneration::trainium2, false);
    const auto moe_plan =
        serving_intervals(ServingEngine::vllm, AcceleratorGeneration::trainium2, true);
    CHECK(dense_plan.ttft.bucket == "vllm / trainium2");
    CHECK(moe_plan.ttft.bucket == "vllm moe / trainium2");
    CHECK(dense_plan.ttft.validated);
    CHECK(moe_plan.ttft.high_factor > dense_plan.ttft.high_factor);
}
