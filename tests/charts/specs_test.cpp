// The shared chart specs: what the GUI and the report both draw. A Pareto chart names its
// ranked plans and front points and draws the deadline; an efficiency chart above 100 % says
// why; memory bars add up to each plan's total.
#include "plan_specs.h"
#include "scaling_specs.h"
#include "tolerance.h"

#include <algorithm>
#include <catch2/catch.hpp>

using namespace cp::charts;

namespace {
const ChartSeries* series_named(const ChartSpec& spec, const QString& name) {
    for (const auto& s : spec.series) {
        if (s.name == name) return &s;
    }
    return nullptr;
}
} // namespace

TEST_CASE("The Pareto chart labels ranked and front points and draws the deadline",
          "[charts][specs]") {
    std::vector<ParetoPoint> points;
    for (int i = 0; i < 40; ++i)
        points.push_back({10.0 + 7 * i, 5e4 + 900.0 * (i % 9), false, {}, i, 0, {}});
    points.push_back({20, 9e4, true, {}, 40, 0, QStringLiteral("32× p4d.24xlarge")});
    points.push_back({200, 4e4, true, {}, 41, 1, QStringLiteral("4× p4d.24xlarge")});
    points.push_back({80, 6e4, false, {}, 42, 2, {}});
    const ChartSpec spec = pareto_spec(points, ParetoLimits{150.0, std::nan("")});
    CHECK(spec.log_x); // 10 to 283 hours
    const ChartSeries* best = series_named(spec, QStringLiteral("#1"));
    REQUIRE(best);
    REQUIRE(best->points.size() == 1);
    CHECK(best->point_labels == QStringList({"#1"}));
    CHECK(best->point_ids == std::vector<int>({41}));
    const ChartSeries* runners = series_named(spec, QStringLiteral("ranked"));
    REQUIRE(runners);
    CHECK(runners->point_labels == QStringList({"#2"}));
    const ChartSeries* front = nullptr;
    const ChartSeries* line = nullptr;
    for (const auto& s : spec.series) {
        if (s.name == QStringLiteral("Pareto front")) (s.line ? line : front) = &s;
    }
    REQUIRE(front);
    CHECK(front->point_labels == QStringList({"32× p4d.24xlarge"}));
    // The front's line joins every front point, the recommended one too, in time order.
    REQUIRE(line);
    CHECK_FALSE(line->in_legend);
    CHECK(line->points.size() == 2);
    CHECK(line->points.front().x() < line->points.back().x());
    REQUIRE(spec.reference_lines.size() == 1);
    CHECK(spec.reference_lines.front().vertical);
    CHECK(spec.reference_lines.front().value == 150.0);
    CHECK(spec.reference_lines.front().name.contains(QStringLiteral("deadline")));
}

TEST_CASE("An efficiency chart above 100 % says why and marks linear scaling", "[charts][specs]") {
    ScalingSeries s{QStringLiteral("Data parallel"), {{8, 1e5, 1.0, 1e5}, {16, 2.1e5, 1.05, 1e5}}};
    const ChartSpec above = scaling_spec({s}, ScalingMetric::efficiency);
    CHECK(above.subtitle.contains(QStringLiteral("above 100 %")));
    REQUIRE(above.reference_lines.size() == 1);
    CHECK_FALSE(above.reference_lines.front().vertical);
    CHECK(above.reference_lines.front().value == 100.0);
    s.points[1].scaling_efficiency = 0.95;
    const ChartSpec below = scaling_spec({s}, ScalingMetric::efficiency);
    CHECK(below.subtitle.isEmpty());
    CHECK(below.reference_lines.empty());
}

TEST_CASE(
    "Memory bars add up to each plan's total, step parts that are zero everywhere are left out",
    "[charts][specs]") {
    PlanBars a;
    a.label = QStringLiteral("A");
    a.step_time_s = 1.5;
    a.breakdown_s.compute_s = 1.0;
    a.breakdown_s.pp_bubble_s = 0.5;
    a.memory_gib = {2, 2, 12, 30, 47.5, 80};
    PlanBars b = a;
    b.memory_gib = {1, 1, 6, 20, 28, 40};
    const ChartSpec memory = memory_spec({a, b});
    for (size_t i = 0; i < 2; ++i) {
        double sum = 0;
        for (const auto& s : memory.series)
            sum += s.points[i].y();
        CHECK_REL(sum, i == 0 ? 47.5 : 28.0, 1e-12);
    }
    CHECK(memory.reference_values == std::vector<double>({80, 40}));
    const ChartSpec step = step_breakdown_spec({a});
    CHECK(step.y_label.contains(QStringLiteral("(ms)")));
    CHECK(step.series.size() == 2); // compute and PP bubble
    CHECK_REL(step.series.front().points.front().y(), 1000.0, 1e-12);
}
