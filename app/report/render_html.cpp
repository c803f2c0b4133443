// HTML renderer: one self-contained file. All document text goes through esc().
#include "chart_image.h"
#include "clusterplan_report_embedded.h"
#include "renderers.h"

#include <QStringBuilder>
#include <type_traits>

namespace cp::report {
namespace {

QString esc(const QString& text) {
    return text.toHtmlEscaped();
}

QString align_class(const Table& table, int column) {
    if (column < static_cast<int>(table.align.size()) &&
        table.align[static_cast<size_t>(column)] == Align::right) {
        return QStringLiteral(" class=\"num\"");
    }
    return {};
}

QString html_block(const Paragraph& p) {
    QString out = p.tone == Tone::alert     ? QStringLiteral("<p class=\"alert\">")
                  : p.tone == Tone::caution ? QStringLiteral("<p class=\"caution\">")
                                            : QStringLiteral("<p>");
    if (!p.lead.isEmpty())
        out += QStringLiteral("<strong>") % esc(p.lead) % QStringLiteral("</strong> ");
    return out % esc(p.text) % QStringLiteral("</p>\n");
}

QString html_block(const BulletList& list) {
    QString out = QStringLiteral("<ul>\n");
    for (const auto& item : list.items)
        out += QStringLiteral("<li>") % esc(item) % QStringLiteral("</li>\n");
    return out + QStringLiteral("</ul>\n");
}

QString html_block(const KeyValueTable& kv) {
    QString out = QStringLiteral("<table class=\"kv\">\n");
    for (const auto& [key, value] : kv.rows) {
        out += QStringLiteral("<tr><th>") % esc(key) % QStringLiteral("</th><td>") % esc(value) %
               QStringLiteral("</td></tr>\n");
    }
    return out + QStringLiteral("</table>\n");
}

QString html_block(const Table& table) {
    QString out = QStringLiteral("<table>\n<thead><tr>");
    for (int c = 0; c < table.headers.size(); ++c) {
        out += QStringLiteral("<th") % align_class(table, c) % QStringLiteral(">") %
               esc(table.headers[c]) % QStringLiteral("</th>");
    }
    out += QStringLiteral("</tr></thead>\n<tbody>\n");
    for (size_t r = 0; r < table.rows.size(); ++r) {
        const bool emph = std::find(table.emphasised_rows.begin(), table.emphasised_rows.end(),
                                    static_cast<int>(r)) != table.emphasised_rows.end();
        out += emph ? QStringLiteral("<tr class=\"emph\">") : QStringLiteral("<tr>");
        const QStringList& row = table.rows[r];
        for (int c = 0; c < row.size(); ++c) {
            out += QStringLiteral("<td") % align_class(table, c) % QStringLiteral(">") %
                   esc(row[c]) % QStringLiteral("</td>");
        }
        out += QStringLiteral("</tr>\n");
    }
    out += QStringLiteral("</tbody>\n</table>\n");
    if (!table.note.isEmpty())
        out += QStringLiteral("<p class=\"note\">") % esc(table.note) % QStringLiteral("</p>\n");
    return out;
}

QString html_block(const Figure& figure) {
    if (figure.chart.empty()) {
        return QStringLiteral("<p class=\"note\">") % esc(figure.caption) %
               QStringLiteral(" (no data to chart)</p>\n");
    }
    const QByteArray svg = render_chart_svg(figure.chart);
    return QStringLiteral("<figure><img alt=\"") % esc(figure.chart.title) %
           QStringLiteral("\" src=\"data:image/svg+xml;base64,") %
           QString::fromLatin1(svg.toBase64()) % QStringLiteral("\"><figcaption>") %
           esc(figure.caption) % QStringLiteral("</figcaption></figure>\n");
}

} // namespace

QString render_html(const Document& doc) {
    QString out =
        QStringLiteral("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n") %
        QStringLiteral(
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n") %
        QStringLiteral("<title>") % esc(doc.title) % QStringLiteral("</title>\n<style>\n") %
        QString::fromUtf8(embedded::report_css.data(),
                          static_cast<qsizetype>(embedded::report_css.size())) %
        QStringLiteral("</style>\n</head>\n<body>\n<header><h1>") % esc(doc.title) %
        QStringLiteral("</h1><p class=\"subtitle\">") % esc(doc.subtitle) %
        QStringLiteral("</p></header>\n");
    for (const auto& section : doc.sections) {
        out += QStringLiteral("<section>\n<h2>") % esc(section.heading) % QStringLiteral("</h2>\n");
        for (const auto& block : section.blocks) {
            out += std::visit([](const auto& b) { return html_block(b); }, block);
        }
        out += QStringLiteral("</section>\n");
    }
    out += QStringLiteral("<footer>") % esc(doc.subtitle) %
           QStringLiteral("</footer>\n</body>\n</html>\n");
    return out;
}

} // namespace cp::report
