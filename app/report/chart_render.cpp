#include "chart_render.h"

#include <QBarCategoryAxis>
#include <QBarSet>
#include <QBuffer>
#include <QChart>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPainter>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QSvgGenerator>
#include <QValueAxis>
#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

namespace cp::report {
namespace {

// Colour-blind-safe palette (Okabe & Ito, 2008), in the order series are added.
const QColor kPalette[] = {QColor(0, 114, 178),   QColor(230, 159, 0),  QColor(0, 158, 115),
                           QColor(204, 121, 167), QColor(86, 180, 233), QColor(213, 94, 0),
                           QColor(240, 228, 66),  QColor(0, 0, 0)};
constexpr int kPaletteSize = static_cast<int>(sizeof(kPalette) / sizeof(kPalette[0]));

QFont chart_font(int point_size, bool bold = false) {
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSize(point_size);
    font.setBold(bold);
    return font;
}

struct Range {
    double min = std::numeric_limits<double>::infinity();
    double max = -std::numeric_limits<double>::infinity();
    void add(double v) {
        if (!std::isfinite(v)) return;
        min = std::min(min, v);
        max = std::max(max, v);
    }
    bool valid() const { return min <= max; }
};

// A value axis with a little headroom; a log axis when asked and every value is positive.
QAbstractAxis* make_axis(const QString& title, bool log, Range range) {
    if (!range.valid()) range = Range{0, 1};
    QAbstractAxis* axis = nullptr;
    if (log && range.min > 0) {
        auto* log_axis = new QLogValueAxis;
        log_axis->setBase(10);
        log_axis->setLabelFormat(QStringLiteral("%g"));
        log_axis->setMinorTickCount(8);
        log_axis->setRange(range.min / 1.5, range.max * 1.5);
        axis = log_axis;
    } else {
        auto* value_axis = new QValueAxis;
        const double span = range.max - range.min;
        const double pad = span > 0 ? span * 0.06 : std::max(std::abs(range.max) * 0.1, 1.0);
        const double low = range.min >= 0 && range.min - pad < 0 ? 0 : range.min - pad;
        value_axis->setRange(low, range.max + pad);
        // Up to five digits: rescaled values stay under 10,000, so no "3e+03" tick labels.
        value_axis->setLabelFormat(QStringLiteral("%.5g"));
        value_axis->applyNiceNumbers();
        axis = value_axis;
    }
    axis->setTitleText(title);
    axis->setTitleFont(chart_font(9));
    axis->setLabelsFont(chart_font(8));
    return axis;
}

void add_xy(QChart& chart, const ChartSpec& spec) {
    Range x_range;
    Range y_range;
    for (const auto& s : spec.series) {
        for (const auto& p : s.points) {
            x_range.add(p.x());
            y_range.add(p.y());
        }
    }
    QAbstractAxis* x_axis = make_axis(spec.x_label, spec.log_x, x_range);
    QAbstractAxis* y_axis = make_axis(spec.y_label, spec.log_y, y_range);
    chart.addAxis(x_axis, Qt::AlignBottom);
    chart.addAxis(y_axis, Qt::AlignLeft);
    int colour = 0;
    for (const auto& s : spec.series) {
        if (s.points.empty()) continue;
        const QColor base = s.muted ? QColor(190, 190, 190) : kPalette[colour++ % kPaletteSize];
        auto add = [&](QXYSeries* series) {
            for (const auto& p : s.points)
                series->append(p);
            chart.addSeries(series);
            series->attachAxis(x_axis);
            series->attachAxis(y_axis);
        };
        if (s.line) {
            auto* line = new QLineSeries;
            line->setName(s.name);
            QPen pen(base);
            pen.setWidthF(s.emphasised ? 3.0 : 2.0);
            if (s.dashed) pen.setStyle(Qt::DashLine);
            line->setPen(pen);
            line->setPointsVisible(s.markers);
            add(line);
        } else {
            auto* scatter = new QScatterSeries;
            scatter->setName(s.name);
            scatter->setColor(base);
            scatter->setBorderColor(s.emphasised ? QColor(0, 0, 0) : base);
            scatter->setMarkerShape(s.emphasised ? QScatterSeries::MarkerShapeRectangle
                                                 : QScatterSeries::MarkerShapeCircle);
            scatter->setMarkerSize(s.emphasised ? 14.0 : (s.muted ? 5.0 : 8.0));
            add(scatter);
        }
    }
}

void add_stacked_bars(QChart& chart, const ChartSpec& spec) {
    auto* bars = new QStackedBarSeries;
    int colour = 0;
    for (const auto& s : spec.series) {
        auto* set = new QBarSet(s.name);
        for (const auto& p : s.points)
            *set << p.y();
        set->setColor(kPalette[colour++ % kPaletteSize]);
        set->setBorderColor(Qt::white);
        bars->append(set);
    }
    bars->setBarWidth(0.6);
    chart.addSeries(bars);
    auto* x_axis = new QBarCategoryAxis;
    x_axis->append(spec.categories);
    x_axis->setLabelsFont(chart_font(8));
    x_axis->setTitleText(spec.x_label);
    x_axis->setTitleFont(chart_font(9));
    chart.addAxis(x_axis, Qt::AlignBottom);
    bars->attachAxis(x_axis);

    Range y_range;
    y_range.add(0);
    for (int c = 0; c < spec.categories.size(); ++c) {
        double sum = 0;
        for (const auto& s : spec.series) {
            if (c < static_cast<int>(s.points.size()) &&
                std::isfinite(s.points[static_cast<size_t>(c)].y())) {
                sum += s.points[static_cast<size_t>(c)].y();
            }
        }
        y_range.add(sum);
    }
    for (double v : spec.reference_values) {
        if (std::isfinite(v) && v > 0) y_range.add(v);
    }
    QAbstractAxis* y_axis = make_axis(spec.y_label, false, y_range);
    chart.addAxis(y_axis, Qt::AlignLeft);
    bars->attachAxis(y_axis);
    // One dashed mark across each bar (category i sits at x = i); one legend entry for all.
    bool in_legend = false;
    for (size_t i = 0; i < spec.reference_values.size(); ++i) {
        const double v = spec.reference_values[i];
        if (!(std::isfinite(v) && v > 0)) continue;
        auto* line = new QLineSeries;
        line->setName(spec.reference_label);
        QPen pen(QColor(200, 0, 0));
        pen.setWidthF(2.0);
        pen.setStyle(Qt::DashLine);
        line->setPen(pen);
        line->append(static_cast<double>(i) - 0.45, v);
        line->append(static_cast<double>(i) + 0.45, v);
        chart.addSeries(line);
        line->attachAxis(x_axis);
        line->attachAxis(y_axis);
        if (in_legend) {
            for (QLegendMarker* marker : chart.legend()->markers(line))
                marker->setVisible(false);
        }
        in_legend = true;
    }
}

std::unique_ptr<QChart> make_chart(const ChartSpec& spec, QSize size) {
    auto chart = std::make_unique<QChart>();
    chart->setTheme(QChart::ChartThemeLight);
    chart->setAnimationOptions(QChart::NoAnimation);
    chart->setDropShadowEnabled(false);
    chart->setBackgroundRoundness(0);
    chart->setBackgroundBrush(Qt::white);
    chart->setTitle(spec.title);
    chart->setTitleFont(chart_font(11, true));
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->legend()->setFont(chart_font(8));
    chart->legend()->setAlignment(Qt::AlignBottom);
    if (spec.kind == ChartKind::stacked_bar) {
        add_stacked_bars(*chart, spec);
    } else {
        add_xy(*chart, spec);
    }
    chart->setGeometry(QRectF(QPointF(0, 0), QSizeF(size)));
    return chart;
}

// Renders through a scene: Qt Charts lay out only inside one, no widget or window is needed.
void paint_chart(const ChartSpec& spec, QSize size, QPainter& painter) {
    QGraphicsScene scene;
    auto chart = make_chart(spec, size);
    scene.addItem(chart.get());
    scene.setSceneRect(QRectF(QPointF(0, 0), QSizeF(size)));
    if (chart->layout() != nullptr) chart->layout()->activate();
    painter.setRenderHint(QPainter::Antialiasing);
    scene.render(&painter, QRectF(QPointF(0, 0), QSizeF(size)), scene.sceneRect());
    scene.removeItem(chart.get());
}

} // namespace

QImage render_chart_image(const ChartSpec& spec, QSize size, double scale) {
    QImage image(
        QSize(static_cast<int>(size.width() * scale), static_cast<int>(size.height() * scale)),
        QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(Qt::white);
    QPainter painter(&image);
    paint_chart(spec, size, painter);
    painter.end();
    return image;
}

QByteArray render_chart_png(const ChartSpec& spec, QSize size, double scale) {
    const QImage image = render_chart_image(spec, size, scale);
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    image.save(&buffer, "PNG");
    return bytes;
}

QByteArray render_chart_svg(const ChartSpec& spec, QSize size) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(spec.title);
    QPainter painter(&generator);
    paint_chart(spec, size, painter);
    painter.end();
    return bytes;
}

} // namespace cp::report
