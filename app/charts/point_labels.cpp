#include "point_labels.h"

#include <QChart>
#include <QFontMetricsF>
#include <QPainter>
#include <QXYSeries>

namespace cp::charts {

PointLabels::PointLabels(QChart* chart, const QFont& font, const QColor& colour)
    : QGraphicsItem(chart), chart_(chart), font_(font), colour_(colour) {
    setZValue(100); // above the series
    // The plot area moves with every resize and layout pass: repaint over the whole chart.
    QObject::connect(chart, &QChart::plotAreaChanged, chart, [this] {
        prepareGeometryChange();
        update();
    });
}

void PointLabels::add(QXYSeries* series, const QStringList& texts) {
    entries_.push_back(Entry{series, texts});
    update();
}

void PointLabels::setColour(const QColor& colour) {
    colour_ = colour;
    update();
}

QRectF PointLabels::boundingRect() const {
    return chart_->rect();
}

void PointLabels::paint(QPainter* painter, const QStyleOptionGraphicsItem*, QWidget*) {
    const QRectF plot = chart_->plotArea();
    const QFontMetricsF metrics(font_);
    std::vector<QRectF> taken;
    painter->save();
    painter->setFont(font_);
    painter->setPen(colour_);
    for (const Entry& e : entries_) {
        const QList<QPointF> points = e.series->points();
        for (qsizetype i = 0; i < points.size() && i < e.texts.size(); ++i) {
            if (e.texts[i].isEmpty()) continue;
            const QPointF at = chart_->mapToPosition(points[i], e.series);
            const QRectF box = metrics.boundingRect(e.texts[i]);
            // Up and to the right of the marker; to the left where the plot ends.
            QRectF r(at + QPointF(7, -7 - box.height()), box.size());
            if (r.right() > plot.right()) r.moveRight(at.x() - 7);
            if (r.top() < plot.top()) r.moveTop(at.y() + 7);
            if (!plot.contains(r)) continue;
            // A label that would cover another is left out: the tooltip or table still names it.
            bool overlaps = false;
            for (const QRectF& t : taken)
                overlaps = overlaps || t.intersects(r.adjusted(-2, -1, 2, 1));
            if (overlaps) continue;
            taken.push_back(r);
            painter->drawText(r, Qt::AlignLeft | Qt::AlignVCenter, e.texts[i]);
        }
    }
    painter->restore();
}

} // namespace cp::charts
