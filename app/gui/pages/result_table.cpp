#include "pages/result_table.h"

#include <QHeaderView>
#include <QTableView>

namespace cp::gui {

QTableView* make_result_table(QAbstractItemModel* model,
                              QAbstractItemView::SelectionMode selection) {
    auto* table = new QTableView;
    table->setModel(model);
    table->setSelectionBehavior(QAbstractItemView::SelectRows);
    table->setSelectionMode(selection);
    table->verticalHeader()->setVisible(false);
    // One text line plus the cell's frame and padding.
    table->verticalHeader()->setDefaultSectionSize(table->fontMetrics().height() + 6);
    table->setAlternatingRowColors(true);
    return table;
}

} // namespace cp::gui
