#include "chart_view.h"

#include "charts/chart_export.h"
#include "qchart_render.h"

#include <QContextMenuEvent>
#include <QEvent>
#include <QMenu>
#include <QPainter>

namespace cp::gui {

ChartView::ChartView(QWidget* parent) : QChartView(parent) {
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(320, 220);
    setToolTip(tr("Right-click to export this chart as PNG or SVG."));
}

void ChartView::replaceChart(QChart* chart) {
    QChart* old = this->chart();
    setChart(chart);
    ::cp::charts::restyle(chart, ::cp::charts::screen_look());
    // QChartView creates a default chart it owns; charts we set are ours to delete.
    if (old && old != chart) old->deleteLater();
}

void ChartView::setEmptyText(const QString& text) {
    empty_text_ = text;
    viewport()->update();
}

void ChartView::drawForeground(QPainter* painter, const QRectF& rect) {
    QChartView::drawForeground(painter, rect);
    if (empty_text_.isEmpty()) return;
    painter->save();
    painter->resetTransform();
    // Inside the plot area, so the message never covers the axis labels and titles.
    QRect area = viewport()->rect().adjusted(40, 40, -40, -40);
    if (QChart* c = chart(); c && c->plotArea().isValid()) {
        area = mapFromScene(c->mapToScene(c->plotArea())).boundingRect().adjusted(14, 14, -14, -14);
    }
    QFont f = font();
    f.setPointSizeF(f.pointSizeF() * 1.1);
    painter->setFont(f);
    // An opaque panel behind the message keeps it clear of the axis labels and grid under it.
    const QRect text_rect =
        painter->fontMetrics().boundingRect(area, Qt::AlignCenter | Qt::TextWordWrap, empty_text_);
    const QRect panel = text_rect.adjusted(-10, -8, 10, 8);
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setBrush(palette().color(QPalette::Base));
    painter->setPen(QPen(palette().color(QPalette::Mid), 1));
    painter->drawRoundedRect(panel, 4, 4);
    painter->setPen(palette().color(QPalette::PlaceholderText));
    painter->drawText(area, Qt::AlignCenter | Qt::TextWordWrap, empty_text_);
    painter->restore();
}

void ChartView::changeEvent(QEvent* event) {
    QChartView::changeEvent(event);
    if (event->type() == QEvent::PaletteChange || event->type() == QEvent::ApplicationPaletteChange)
        ::cp::charts::restyle(chart(), ::cp::charts::screen_look());
}

void ChartView::contextMenuEvent(QContextMenuEvent* event) {
    QMenu menu(this);
    QAction* export_action = menu.addAction(tr("Export chart as PNG or SVG…"));
    if (menu.exec(event->globalPos()) == export_action) {
        charts::export_chart_interactive(chart(), this);
    }
}

} // namespace cp::gui
