// The one cell style of the result tables: words left-aligned, figures right-aligned so their
// digits line up, and in a ranking the first (recommended) row in bold.
#pragma once

#include <QVariant>

namespace cp::gui {

// Qt::TextAlignmentRole value of a cell.
QVariant cell_alignment(bool text_column);
// Qt::FontRole value of a row of a ranking: bold for the first, none (the view's font) otherwise.
QVariant ranked_row_font(int row);

} // namespace cp::gui
