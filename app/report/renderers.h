// Format renderers of a report Document. Every renderer treats all document text as plain
// text and escapes it for its format. Charts are drawn with chart_image.h, so a
// QApplication must exist (offscreen is enough).
#pragma once

#include "report_document.h"

#include <QByteArray>
#include <QIODevice>
#include <QString>
#include <utility>
#include <vector>

namespace cp::report {

// One self-contained HTML5 file: stylesheet inline, charts as data-URI SVG images (an SVG
// loaded through <img> can never run script).
QString render_html(const Document& doc);

struct MarkdownOutput {
    QString text;
    // Files to write next to the Markdown file: relative path (as linked) and PNG bytes.
    std::vector<std::pair<QString, QByteArray>> images;
};

// GitHub-flavoured Markdown; figures link PNGs under `image_dir` (a relative directory name).
MarkdownOutput render_markdown(const Document& doc, const QString& image_dir);

// A4, paginated PDF with page numbers; tables never split inside a row and repeat their
// header on a new page; figures are kept with their caption. Writes to `out` (open for
// writing); false + *error on failure.
bool render_pdf(const Document& doc, QIODevice& out, QString* error);

} // namespace cp::report
