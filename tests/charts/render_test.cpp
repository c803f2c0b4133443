// The one renderer and exporter: log axes carry several tick labels, point labels and the
// deadline are drawn, exports are light whatever the screen's palette, and an export that
// cannot be written says so.
#include "chart_image.h"
#include "point_labels.h"
#include "qchart_render.h"
#include "scaling_specs.h"

#include <QCategoryAxis>
#include <QChart>
#include <QLineSeries>
#include <QScatterSeries>
#include <QTemporaryDir>
#include <catch2/catch.hpp>
#include <memory>

using namespace cp::charts;

namespace {
ChartSpec sample_pareto() {
    std::vector<ParetoPoint> points;
    for (int i = 0; i < 30; ++i)
        points.push_back({70.0 + 40 * i, 1.0e4 + 3e3 * (i % 7), false, {}, i, 0, {}});
    points.push_back({70, 9.9e4, true, {}, 30, 0, QStringLiteral("64× p4d.24xlarge")});
    points.push_back({1100, 1.1e4, true, {}, 31, 1, QStringLiteral("4× p4d.24xlarge")});
    return pareto_spec(points, ParetoLimits{720.0, std::nan("")});
}
} // namespace

TEST_CASE("A log axis over a decade and a half shows several tick labels", "[charts][render]") {
    const std::unique_ptr<QChart> chart(make_chart(sample_pareto(), print_look()));
    const auto axes = chart->axes(Qt::Horizontal);
    REQUIRE(axes.size() == 1);
    auto* x = qobject_cast<QCategoryAxis*>(axes.front());
    REQUIRE(x);
    CHECK(x->categoriesLabels().size() >= 3);
    CHECK(x->titleText().contains(QStringLiteral("hours")));
}

TEST_CASE("Ranked points are labelled and the deadline is a line in the legend",
          "[charts][render]") {
    const std::unique_ptr<QChart> chart(make_chart(sample_pareto(), print_look()));
    bool labels = false;
    for (QGraphicsItem* item : chart->childItems())
        labels = labels || dynamic_cast<PointLabels*>(item) != nullptr;
    CHECK(labels);
    bool deadline = false;
    bool clickable = false;
    for (QAbstractSeries* s : chart->series()) {
        deadline = deadline || (qobject_cast<QLineSeries*>(s) &&
                                s->name().contains(QStringLiteral("deadline")));
        if (auto* scatter = qobject_cast<QScatterSeries*>(s); scatter && scatter->count() > 0) {
            clickable = scatter->property("indices").toList().size() == scatter->count();
        }
    }
    CHECK(deadline);
    CHECK(clickable); // every marker maps back to the caller's point
}

TEST_CASE("Exports are drawn light whatever the screen look, and the chart keeps its own",
          "[charts][render]") {
    const ChartLook dark{print_look().font, print_look().title_font, QColor(0x1e, 0x1e, 0x1e),
                         QColor(0xe6, 0xe6, 0xe6)};
    const std::unique_ptr<QChart> chart(make_chart(sample_pareto(), dark));
    QTemporaryDir dir;
    const QString png = dir.filePath(QStringLiteral("pareto.png"));
    REQUIRE(save_chart(chart.get(), png, QSize(600, 400)).isEmpty());
    const QImage image(png);
    CHECK(image.width() == 1200);
    CHECK(image.pixelColor(3, 3) == QColor(Qt::white));
    CHECK(chart->backgroundBrush().color() == QColor(0x1e, 0x1e, 0x1e));
    const QString svg = dir.filePath(QStringLiteral("pareto.svg"));
    REQUIRE(save_chart(chart.get(), svg, QSize(600, 400)).isEmpty());
    QFile f(svg);
    REQUIRE(f.open(QIODevice::ReadOnly));
    CHECK(f.readAll().contains("Time to train vs cost"));
    CHECK(save_chart(chart.get(), dir.filePath(QStringLiteral("x.bmp")))
              .contains(QStringLiteral("unsupported")));
    CHECK(save_chart(chart.get(), dir.filePath(QStringLiteral("missing/x.png")))
              .contains(QStringLiteral("cannot")));
}

TEST_CASE("Spec images for the report come from the same renderer", "[charts][render]") {
    const QImage image = render_chart_image(sample_pareto(), kChartSize, 1.0);
    CHECK(image.size() == kChartSize);
    CHECK(render_chart_png(sample_pareto()).startsWith("\x89PNG"));
    CHECK(render_chart_svg(sample_pareto()).contains("<svg"));
}
