// The one look of the pages' result tables (catalog, ranked plans, serving deployments, probe
// results): whole rows selected, no row numbers, compact rows, alternating colours.
#pragma once

#include <QAbstractItemView>

class QAbstractItemModel;
class QTableView;

namespace cp::gui {

QTableView*
make_result_table(QAbstractItemModel* model,
                  QAbstractItemView::SelectionMode selection = QAbstractItemView::SingleSelection);

} // namespace cp::gui
