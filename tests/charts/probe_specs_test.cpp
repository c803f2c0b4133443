// The Probes page's measured-vs-predicted chart of an imported job log: warm-up steps apart from
// the measured ones, both predictions as levels across the steps, the calibrated range as two
// dashed ends with one legend entry.
#include "probe_specs.h"
#include "tolerance.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace cp::charts;

namespace {

const ChartSeries* series_named(const ChartSpec& spec, const QString& name) {
    for (const auto& s : spec.series)
        if (s.name == name) return &s;
    return nullptr;
}

JobStepsData gpt3_log() {
    JobStepsData d;
    d.source = QStringLiteral("megatron_gpt3_1p3b_p4d.log");
    for (int i = 0; i < 40; ++i) {
        d.steps.push_back(10.0 * (i + 1));
        // Warm-up runs slow; afterwards the steps scatter around 7.38 s.
        d.measured_s.push_back(i < 4 ? 9.0 - 0.4 * i : 7.38 + 0.05 * std::sin(i));
    }
    d.warmup_steps = 4;
    d.predicted_before_s = 8.34;
    d.predicted_after_s = 7.39;
    d.range_low_s = 7.20;
    d.range_high_s = 7.61;
    return d;
}

} // namespace

TEST_CASE("The job-log chart draws measured steps against the predictions before and after",
          "[charts][specs][calibration]") {
    const JobStepsData d = gpt3_log();
    const ChartSpec spec = job_steps_spec(d);
    CHECK(spec.kind == ChartKind::xy);
    CHECK(spec.subtitle == d.source);
    CHECK(spec.y_label.contains(QStringLiteral("(s)")));
    const ChartSeries* warm = series_named(spec, QStringLiteral("Warm-up (skipped)"));
    const ChartSeries* measured = series_named(spec, QStringLiteral("Measured"));
    REQUIRE(warm);
    REQUIRE(measured);
    CHECK(warm->muted);
    CHECK(warm->points.size() == 4);
    CHECK(measured->points.size() == 36);
    CHECK(measured->points.front().x() == 50.0);

    const ChartSeries* before = series_named(spec, QStringLiteral("Uncalibrated"));
    const ChartSeries* after = series_named(spec, QStringLiteral("Calibrated"));
    REQUIRE(before);
    REQUIRE(after);
    // Levels span every step drawn, warm-up included.
    CHECK(before->points.front().x() == 10.0);
    CHECK(before->points.back().x() == 400.0);
    CHECK_REL(before->points.front().y(), 8.34, 1e-12);
    CHECK_REL(after->points.back().y(), 7.39, 1e-12);

    int range_ends = 0, in_legend = 0;
    for (const auto& s : spec.series)
        if (s.dashed) {
            ++range_ends;
            in_legend += s.in_legend ? 1 : 0;
            CHECK(s.points.front().y() >= d.range_low_s);
            CHECK(s.points.front().y() <= d.range_high_s);
        }
    CHECK(range_ends == 2);
    CHECK(in_legend == 1);
}

TEST_CASE("The job-log chart leaves out what it was not given", "[charts][specs][calibration]") {
    JobStepsData d = gpt3_log();
    d.warmup_steps = 0;
    d.predicted_before_s = std::nan("");
    d.range_low_s = 0;
    const ChartSpec spec = job_steps_spec(d);
    CHECK(series_named(spec, QStringLiteral("Warm-up (skipped)")) == nullptr);
    CHECK(series_named(spec, QStringLiteral("Uncalibrated")) == nullptr);
    CHECK(series_named(spec, QStringLiteral("Calibrated")) != nullptr);
    CHECK(spec.series.size() == 2);
    CHECK(job_steps_spec(JobStepsData{}).empty());
}

TEST_CASE("The bus bandwidth chart draws each collective's fit beside its measurements",
          "[charts][specs][calibration]") {
    BandwidthSeries measured;
    measured.label = QStringLiteral("all_reduce · 8 ranks");
    measured.bytes = {1 << 20, 1 << 24, 1 << 28};
    measured.busbw_gbytes_per_s = {60, 200, 230};
    BandwidthSeries fitted = measured;
    fitted.label = QStringLiteral("all_gather · 8 ranks");
    fitted.fitted_busbw_gbytes_per_s = {55, 205, std::nan("")};
    const ChartSpec spec = busbw_spec({measured, fitted});
    REQUIRE(spec.series.size() == 3); // the first table has no fit
    const ChartSeries* fit = series_named(spec, QStringLiteral("all_gather · 8 ranks · α–β fit"));
    REQUIRE(fit);
    CHECK(fit->dashed);
    CHECK_FALSE(fit->markers);
    CHECK(fit->points.size() == 2); // an unknown prediction is left out, not drawn as zero
    CHECK_REL(fit->points[1].y(), 205.0, 1e-12);
    // Measured and fitted lines of one collective share a colour.
    CHECK(fit->colour == series_named(spec, fitted.label)->colour);
    CHECK(spec.series[0].colour != fit->colour);
}
