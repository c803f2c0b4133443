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
