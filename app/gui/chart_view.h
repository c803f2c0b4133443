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

protected:
    void contextMenuEvent(QContextMenuEvent* event) override;
};

} // namespace cp::gui
