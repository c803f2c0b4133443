// The report as a format-independent document: a title and sections made of paragraphs,
// bullet lists, key/value tables, data tables and figures. All text is plain (never markup):
// each renderer escapes it for its own format, so user text such as a scenario name can
// never inject HTML or Markdown.
#pragma once

#include "chart_spec.h"

#include <QString>
#include <QStringList>
#include <initializer_list>
#include <utility>
#include <variant>
#include <vector>

namespace cp::report {

// Figures carry the chart pipeline's spec (app/charts), the one the GUI draws too.
using charts::ChartSpec;

// How urgently a paragraph asks to be read: caution (amber) and alert (red) are drawn in colour
// where the format has colour, set apart where it does not (Markdown: a block quote).
enum class Tone { plain, caution, alert };

struct Paragraph {
    QString text;
    QString lead; // optional bold lead-in ("Recommended: p4d.24xlarge × 16.")
    Tone tone = Tone::plain;
};

struct BulletList {
    QStringList items;
};

struct KeyValueTable {
    std::vector<std::pair<QString, QString>> rows;
};

enum class Align { left, right };

struct Table {
    QStringList headers;
    std::vector<Align> align;         // one per column; missing = left
    std::vector<QStringList> rows;    // already formatted cells
    std::vector<int> emphasised_rows; // row indices drawn bold (the recommendation)
    QString note;                     // small print under the table

    // The columns, each named with its alignment, in order.
    void set_columns(std::initializer_list<std::pair<QString, Align>> columns) {
        headers.clear();
        align.clear();
        for (const auto& [name, a] : columns) {
            headers << name;
            align.push_back(a);
        }
    }
};

struct Figure {
    ChartSpec chart;
    QString caption;
    QString file_stem; // stable name for files written beside a Markdown report
};

using Block = std::variant<Paragraph, BulletList, KeyValueTable, Table, Figure>;

struct Section {
    QString heading;
    std::vector<Block> blocks;
};

struct Document {
    QString title;
    QString subtitle; // date and generator line under the title
    std::vector<Section> sections;
};

} // namespace cp::report
