// A chart view that owns its chart, swaps charts on update and exports via its context menu.
#pragma once

#include <QChartView>

namespace cp::gui {

class ChartView : public QChartView {
    Q_OBJECT
public:
    explicit ChartView(QWidget* parent = nullptr);
    // Takes ownership of `chart` and deletes the previous one.
    void replaceChart(QChart* chart);
    // Text drawn over the chart while it has no data ("No measurements yet ..."); "" = none.
    void setEmptyText(const QString& text);
    const QString& emptyText() const { return empty_text_; }

protected:
    void drawForeground(QPainter* painter, const QRectF& rect) override;
    // A light/dark palette switch re-colours the chart on screen (cp::charts::restyle).
    void changeEvent(QEvent* event) override;

    void contextMenuEvent(QContextMenuEvent* event) override;

private:
    QString empty_text_;
};

} // namespace cp::gui
