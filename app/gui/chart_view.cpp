#include "chart_view.h"

#include "charts/chart_export.h"

#include <QContextMenuEvent>
#include <QMenu>

namespace cp::gui {

ChartView::ChartView(QWidget* parent) : QChartView(parent) {
    setRenderHint(QPainter::Antialiasing);
    setMinimumSize(320, 220);
    setToolTip(tr("Right-click to export this chart as PNG or SVG."));
}

void ChartView::replaceChart(QChart* chart) {
    QChart* old = this->chart();
    setChart(chart);
    // QChartView creates a default chart it owns; charts we set are ours to delete.
    if (old && old != chart) old->deleteLater();
}

void ChartView::contextMenuEvent(QContextMenuEvent* event) {
    QMenu menu(this);
    QAction* export_action = menu.addAction(tr("Export chart as PNG or SVG…"));
    if (menu.exec(event->globalPos()) == export_action) {
        charts::export_chart_interactive(chart(), this);
    }
}

} // namespace cp::gui
