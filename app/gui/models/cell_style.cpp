#include "models/cell_style.h"

#include <QFont>

namespace cp::gui {

QVariant cell_alignment(bool text_column) {
    return QVariant::fromValue(
        Qt::Alignment((text_column ? Qt::AlignLeft : Qt::AlignRight) | Qt::AlignVCenter));
}

QVariant ranked_row_font(int row) {
    if (row != 0) return {};
    QFont bold;
    bold.setBold(true);
    return bold;
}

} // namespace cp::gui
