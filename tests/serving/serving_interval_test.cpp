// Serving prediction intervals: the committed residual tables are the bundled runs'
// leave-one-source-out residuals, the validated bucket's range holds most of its own runs, and an
// engine without published runs gets the widest range.
#include "clusterplan/sim/serving_interval.h"
#include "serving_fixture.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <cstdio>

using namespace cp::sim;

namespace {

bool close(double a, double b) {
    return std::abs(a / b - 1.0) <= 0.005;
}

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
        const auto& committed = serving_residual_buckets(figure);
        same = same && fresh.size() == committed.size();
        for (std::size_t i = 0; same && i < fresh.size(); ++i) {
            const auto &a = fresh[i], &b = committed[i];
            same = a.family == b.family && a.generation == b.generation && a.runs == b.runs &&
                   a.sources == b.sources && close(a.ratio_p10, b.ratio_p10) &&
                   close(a.ratio_p90, b.ratio_p90) && close(a.ratio_min, b.ratio_min) &&
                   close(a.ratio_max, b.ratio_max);
        }
        std::printf("\nserving residual buckets, %s (measured/predicted time, leave-one-source-"
                    "out):\n",
                    enum_name(figure));
        for (const auto& b : fresh)
            std::printf("        {\"%s\", G::%s, %d, %d, %.4f, %.4f, %.4f, %.4f},\n",
                        std::string(b.family).c_str(), std::string(enum_name(b.generation)).c_str(),
                        b.runs, b.sources, b.ratio_p10, b.ratio_p90, b.ratio_min, b.ratio_max);
    }
    INFO("paste the tables above into sim/src/validation/serving_interval_table.cpp");
    CHECK(same);
}
