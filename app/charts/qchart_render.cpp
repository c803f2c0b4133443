#include "qchart_render.h"

#include "chart_ticks.h"
#include "point_labels.h"

#include <QAbstractBarSeries>
#include <QApplication>
#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QCategoryAxis>
#include <QChart>
#include <QHorizontalBarSeries>
#include <QHorizontalStackedBarSeries>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QPalette>
#include <QScatterSeries>
#include <QStackedBarSeries>
#include <QValueAxis>
#include <QVariant>
#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>
#include <vector>

namespace cp::charts {
namespace {

// Reference lines (deadline, budget, device capacity): red, dashed, in every look.
const QColor kReferenceColour(0xc0, 0x39, 0x2b);
const QColor kMutedColour(0xb4, 0xb4, 0xb4);

struct Range {
    double min = std::numeric_limits<double>::infinity();
    double max = -std::numeric_limits<double>::infinity();
    void add(double v, bool log) {
        if (!std::isfinite(v) || (log && v <= 0)) return;
        min = std::min(min, v);
        max = std::max(max, v);
    }
    bool valid() const { return min <= max; }
};

// Data value -> position on the axis (log axes are drawn linear over log10 of the value).
double plotted(double v, bool log) {
    return log ? std::log10(v) : v;
}
bool drawable(double v, bool log) {
    return std::isfinite(v) && (!log || v > 0);
}

QFont scaled(const QFont& base, double factor, bool bold = false) {
    QFont f = base;
    f.setPointSizeF(base.pointSizeF() * factor);
    f.setBold(bold);
    return f;
}

QColor mix(const QColor& a, const QColor& b, float t) {
    return QColor::fromRgbF(a.redF() + (b.redF() - a.redF()) * t,
                            a.greenF() + (b.greenF() - a.greenF()) * t,
                            a.blueF() + (b.blueF() - a.blueF()) * t);
}

void dress_axis(QAbstractAxis* axis, const QString& title, const ChartLook& look) {
    axis->setTitleText(title);
    axis->setTitleFont(scaled(look.font, 1.1, true));
    axis->setLabelsFont(look.font);
}

// An xy axis: ticks from chart_ticks (1-2-5 on log scales) on a category axis, whose labels
// sit on their values; Qt's log axis would label only exact powers of ten.
QCategoryAxis* value_axis(const QString& title, bool log, TickStyle style, Range range,
                          const ChartLook& look) {
    if (!range.valid()) range = log ? Range{1, 10} : Range{0, 1};
    const AxisTicks ticks =
        log ? log_ticks(range.min, range.max, style) : linear_ticks(range.min, range.max);
    auto* axis = new QCategoryAxis;
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    axis->setRange(plotted(ticks.min, log), plotted(ticks.max, log));
    for (const Tick& t : ticks.ticks)
        axis->append(t.label, plotted(t.value, log));
    dress_axis(axis, title, look);
    return axis;
}

QPen line_pen(const QColor& colour, double width, bool dashed) {
    QPen pen(colour);
    pen.setWidthF(width);
    if (dashed) {
        // Long gaps and flat caps: a line underneath must show through at this width.
        pen.setStyle(Qt::DashLine);
        pen.setCapStyle(Qt::FlatCap);
        pen.setDashPattern({4, 3});
    }
    return pen;
}

void hide_from_legend(QChart& chart, QAbstractSeries* series) {
    for (QLegendMarker* m : chart.legend()->markers(series))
        m->setVisible(false);
}

void attach(QChart& chart, QAbstractSeries* series, QAbstractAxis* x, QAbstractAxis* y) {
    chart.addSeries(series);
    series->attachAxis(x);
    series->attachAxis(y);
}

void add_xy(QChart& chart, const ChartSpec& spec, const ChartLook& look) {
    Range xr;
    Range yr;
    for (const auto& s : spec.series) {
        for (const auto& p : s.points) {
            if (!drawable(p.x(), spec.log_x) || !drawable(p.y(), spec.log_y)) continue;
            xr.add(p.x(), spec.log_x);
            yr.add(p.y(), spec.log_y);
        }
    }
    // A deadline or budget is part of the picture: the axis reaches it.
    for (const auto& r : spec.reference_lines)
        (r.vertical ? xr : yr).add(r.value, r.vertical ? spec.log_x : spec.log_y);
    QCategoryAxis* x_axis = value_axis(spec.x_label, spec.log_x, spec.x_ticks, xr, look);
    QCategoryAxis* y_axis = value_axis(spec.y_label, spec.log_y, spec.y_ticks, yr, look);
    chart.addAxis(x_axis, Qt::AlignBottom);
    chart.addAxis(y_axis, Qt::AlignLeft);
    std::vector<std::pair<QXYSeries*, QStringList>> labelled;
    int colour = 0;
    for (const auto& s : spec.series) {
        const QColor base = s.muted              ? kMutedColour
                            : s.colour.isValid() ? s.colour
                                                 : series_colour(colour++);
        QXYSeries* series = nullptr;
        if (s.line) {
            auto* line = new QLineSeries;
            line->setPen(line_pen(base, s.emphasised ? 3.0 : 2.0, s.dashed));
            line->setPointsVisible(s.markers);
            series = line;
        } else {
            auto* scatter = new QScatterSeries;
            scatter->setColor(base);
            scatter->setBorderColor(s.emphasised ? QColor(0x20, 0x20, 0x20) : base.darker(125));
            scatter->setMarkerShape(s.emphasised ? QScatterSeries::MarkerShapeRectangle
                                                 : QScatterSeries::MarkerShapeCircle);
            scatter->setMarkerSize(s.emphasised ? 13.0 : s.muted ? 6.0 : 9.0);
            series = scatter;
        }
        series->setName(s.name);
        QList<QVariant> ids;
        QStringList texts;
        for (size_t i = 0; i < s.points.size(); ++i) {
            const QPointF& p = s.points[i];
            if (!drawable(p.x(), spec.log_x) || !drawable(p.y(), spec.log_y)) continue;
            series->append(plotted(p.x(), spec.log_x), plotted(p.y(), spec.log_y));
            if (i < s.point_ids.size()) ids << s.point_ids[i];
            texts << (i < static_cast<size_t>(s.point_labels.size())
                          ? s.point_labels[static_cast<qsizetype>(i)]
                          : QString());
        }
        if (!ids.isEmpty()) series->setProperty("indices", ids);
        attach(chart, series, x_axis, y_axis);
        if (!s.in_legend) hide_from_legend(chart, series);
        if (!s.point_labels.isEmpty()) labelled.emplace_back(series, texts);
    }
    // Later series are drawn on top and matter more (the ranked plans over the cloud): their
    // labels are placed first.
    auto* labels = new PointLabels(&chart, look.font, look.text);
    for (auto it = labelled.rbegin(); it != labelled.rend(); ++it)
        labels->add(it->first, it->second);
    for (const auto& r : spec.reference_lines) {
        const bool log = r.vertical ? spec.log_x : spec.log_y;
        if (!drawable(r.value, log)) continue;
        auto* line = new QLineSeries;
        line->setName(r.name);
        line->setPen(line_pen(kReferenceColour, 1.5, true));
        const double v = plotted(r.value, log);
        const QCategoryAxis* across = r.vertical ? y_axis : x_axis;
        for (double t : {across->min(), across->max()})
            line->append(r.vertical ? QPointF(v, t) : QPointF(t, v));
        attach(chart, line, x_axis, y_axis);
    }
}

QAbstractBarSeries* bar_series(const ChartSpec& spec) {
    if (spec.kind == ChartKind::stacked_bar) {
        if (spec.horizontal) return new QHorizontalStackedBarSeries;
        return new QStackedBarSeries;
    }
    if (spec.horizontal) return new QHorizontalBarSeries;
    return new QBarSeries;
}

void add_bars(QChart& chart, const ChartSpec& spec, const ChartLook& look) {
    QAbstractBarSeries* bars = bar_series(spec);
    const bool stacked = spec.kind == ChartKind::stacked_bar;
    Range vr;
    vr.add(0, false);
    const size_t n = static_cast<size_t>(spec.categories.size());
    // Qt draws horizontal bars bottom-up: reversed, the first category reads first, on top.
    auto category = [&](size_t shown) { return spec.horizontal ? n - 1 - shown : shown; };
    std::vector<double> sums(n, 0.0);
    int colour = 0;
    for (const auto& s : spec.series) {
        auto* set = new QBarSet(s.name);
        for (size_t shown = 0; shown < n; ++shown) {
            const size_t c = category(shown);
            const double v =
                c < s.points.size() && std::isfinite(s.points[c].y()) ? s.points[c].y() : 0.0;
            *set << v;
            sums[shown] = stacked ? sums[shown] + v : std::max(sums[shown], v);
        }
        const QColor base = s.colour.isValid() ? s.colour : series_colour(colour++);
        set->setColor(base);
        set->setBorderColor(base.darker(115));
        set->setLabelColor(look.text);
        bars->append(set);
    }
    for (double v : sums)
        vr.add(v, false);
    for (double v : spec.reference_values) {
        if (std::isfinite(v) && v > 0) vr.add(v, false);
    }
    // Headroom for values written above the bars.
    if (spec.value_labels && vr.valid()) vr.add(vr.max * 1.2, false);
    if (spec.value_labels) {
        bars->setLabelsVisible(true);
        bars->setLabelsFormat(QStringLiteral("@value"));
        // Significant digits enough for the largest bar's whole part: "1340", not "1.34e+03".
        bars->setLabelsPrecision(vr.valid() && vr.max >= 1000
                                     ? static_cast<int>(std::floor(std::log10(vr.max / 1.2))) + 1
                                     : 3);
        bars->setLabelsPosition(QAbstractBarSeries::LabelsOutsideEnd);
        // Upright labels over neighbouring bars run into each other; vertical ones cannot.
        bars->setLabelsAngle(-90);
    }
    bars->setBarWidth(spec.kind == ChartKind::grouped_bar ? 0.8 : 0.55);
    chart.addSeries(bars);
    auto* categories = new QBarCategoryAxis;
    for (size_t shown = 0; shown < n; ++shown)
        categories->append(spec.categories[static_cast<qsizetype>(category(shown))]);
    // Without categories the axis collapses and its title would float in a corner.
    dress_axis(categories, spec.categories.isEmpty() ? QString() : spec.x_label, look);
    const AxisTicks ticks = linear_ticks(vr.valid() ? vr.min : 0, vr.valid() ? vr.max : 1);
    auto* values = new QValueAxis;
    values->setRange(ticks.min, ticks.max);
    values->setTickType(QValueAxis::TicksDynamic);
    values->setTickAnchor(0);
    values->setTickInterval(ticks.step);
    values->setLabelFormat(QStringLiteral("%.%1f").arg(std::min(step_decimals(ticks.step), 3)));
    dress_axis(values, spec.y_label, look);
    chart.addAxis(categories, spec.horizontal ? Qt::AlignLeft : Qt::AlignBottom);
    chart.addAxis(values, spec.horizontal ? Qt::AlignBottom : Qt::AlignLeft);
    bars->attachAxis(categories);
    bars->attachAxis(values);
    // One short dashed mark across each bar (category i spans i - 0.5 .. i + 0.5); one legend
    // entry for all of them.
    bool named = false;
    for (size_t i = 0; i < spec.reference_values.size() && !spec.horizontal; ++i) {
        const double v = spec.reference_values[i];
        if (!(std::isfinite(v) && v > 0)) continue;
        auto* mark = new QLineSeries;
        mark->setName(spec.reference_label);
        mark->setPen(line_pen(kReferenceColour, 2.5, true));
        mark->append(static_cast<double>(i) - 0.45, v);
        mark->append(static_cast<double>(i) + 0.45, v);
        attach(chart, mark, categories, values);
        if (named) hide_from_legend(chart, mark);
        named = true;
    }
}

QString title_html(const ChartSpec& spec) {
    if (spec.subtitle.isEmpty()) return spec.title.toHtmlEscaped();
    return QStringLiteral("<div align='center'>%1<br><span style='font-size:small; "
                          "font-weight:normal'>%2</span></div>")
        .arg(spec.title.toHtmlEscaped(),
             spec.subtitle.toHtmlEscaped().replace(QLatin1Char('\n'), QStringLiteral("<br>")));
}

} // namespace

ChartSeries marker_series(const QString& name, int palette_index, bool emphasised) {
    ChartSeries s;
    s.name = name;
    s.colour = series_colour(palette_index);
    s.emphasised = emphasised;
    return s;
}

QColor series_colour(int index) {
    // Okabe & Ito (2008), "Color Universal Design": distinguishable with every common form of
    // colour blindness; yellow is left out (unreadable on white).
    static const QColor kPalette[] = {
        QColor(0, 114, 178),  QColor(230, 159, 0), QColor(0, 158, 115), QColor(204, 121, 167),
        QColor(86, 180, 233), QColor(213, 94, 0),  QColor(0, 0, 0)};
    constexpr int n = static_cast<int>(std::size(kPalette));
    return kPalette[((index % n) + n) % n];
}

ChartLook print_look() {
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setPointSizeF(8);
    return {font, scaled(font, 11.0 / 8.0, true), Qt::white, Qt::black};
}

ChartLook screen_look() {
    const QPalette pal = QApplication::palette();
    return {QApplication::font(), scaled(QApplication::font(), 1.1, true),
            pal.color(QPalette::Base), pal.color(QPalette::Text)};
}

QChart* make_chart(const ChartSpec& spec, const ChartLook& look) {
    auto* chart = new QChart;
    chart->setTheme(QChart::ChartThemeLight);        // before any series: setTheme recolours them
    chart->setAnimationOptions(QChart::NoAnimation); // live updates must not lag behind edits
    chart->setDropShadowEnabled(false);
    chart->setBackgroundRoundness(0);
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setTitle(title_html(spec));
    chart->setTitleFont(look.title_font);
    chart->legend()->setFont(look.font);
    chart->legend()->setVisible(spec.legend != LegendPlace::none);
    // A narrow chart elides long labels ("#1 g5.xl…"); the tooltip keeps the whole name.
    chart->legend()->setShowToolTips(true);
    chart->legend()->setAlignment(spec.legend == LegendPlace::right ? Qt::AlignRight
                                                                    : Qt::AlignBottom);
    if (spec.kind == ChartKind::xy) {
        add_xy(*chart, spec, look);
    } else {
        add_bars(*chart, spec, look);
    }
    restyle(chart, look);
    return chart;
}

void restyle(QChart* chart, const ChartLook& look) {
    if (!chart) return;
    chart->setBackgroundBrush(look.background);
    chart->setTitleBrush(look.text);
    chart->legend()->setLabelColor(look.text);
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsBrush(look.text);
        axis->setTitleBrush(look.text);
        axis->setLinePenColor(mix(look.background, look.text, 0.55f));
        axis->setGridLineColor(mix(look.background, look.text, 0.15f));
        axis->setMinorGridLineColor(mix(look.background, look.text, 0.08f));
    }
    for (QAbstractSeries* series : chart->series()) {
        auto* bars = qobject_cast<QAbstractBarSeries*>(series);
        if (!bars || !bars->isLabelsVisible()) continue;
        for (QBarSet* set : bars->barSets())
            set->setLabelColor(look.text);
    }
    for (QGraphicsItem* item : chart->childItems()) {
        if (auto* labels = dynamic_cast<PointLabels*>(item)) labels->setColour(look.text);
    }
}

} // namespace cp::charts
