// Text beside chosen points of xy series ("#1", "4× p4d.24xlarge"), drawn as a child item of
// the chart so it follows resizes and is part of every export. Qt Charts 6.4 can label points
// only with one format for a whole series, not with text per point.
#pragma once

#include <QColor>
#include <QFont>
#include <QGraphicsItem>
#include <QStringList>
#include <vector>

class QChart;
class QXYSeries;

namespace cp::charts {

class PointLabels : public QGraphicsItem {
public:
    PointLabels(QChart* chart, const QFont& font, const QColor& colour);

    // Labels for `series`' points in order ("" = none). Labels added first are placed first;
    // a later one that would overlap them is left out.
    void add(QXYSeries* series, const QStringList& texts);
    void setColour(const QColor& colour);

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    struct Entry {
        QXYSeries* series;
        QStringList texts;
    };
    QChart* chart_;
    QFont font_;
    QColor colour_;
    std::vector<Entry> entries_;
};

} // namespace cp::charts
