// Markdown renderer (GitHub-flavoured): figures become PNG files linked relatively.
#include "chart_image.h"
#include "renderers.h"

#include <QRegularExpression>
#include <algorithm>

namespace cp::report {
namespace {

// Escapes text so Markdown shows it literally: characters that start inline markup get a
// backslash, a leading block marker ("# ", "- ", "1. ") is neutralised, and HTML-significant
// characters become entities (Markdown passes raw HTML through, so a scenario named
// "<script>" must not).
QString esc(const QString& text, bool at_line_start = true) {
    static const QString kSpecial = QStringLiteral("\\`*_[]|~");
    QString out;
    out.reserve(text.size() + 8);
    for (const QChar ch : text) {
        if (ch == u'<') {
            out += QStringLiteral("&lt;");
        } else if (ch == u'>') {
            out += QStringLiteral("&gt;");
        } else if (ch == u'&') {
            out += QStringLiteral("&amp;");
        } else if (ch == u'\n' || ch == u'\r') {
            out += u' ';
        } else {
            if (kSpecial.contains(ch)) out += u'\\';
            out += ch;
        }
    }
    // An ordered-list marker needs a space after it: "19.6 days" is no list and stays as is.
    static const QRegularExpression kBlockStart(
        QStringLiteral("^(\\s*)([#>+=-]|\\d+[.)](?=\\s|$))"));
    if (!at_line_start) return out; // a table cell never starts a block
    const auto match = kBlockStart.match(out);
    if (match.hasMatch()) {
        const qsizetype at = match.capturedEnd(2) - 1; // escape the marker's last character
        out.insert(at, u'\\');
    }
    return out;
}

QString md_block(const Paragraph& p, MarkdownOutput&, const QString&) {
    QString out = p.tone == Tone::plain ? QString() : QStringLiteral("> ");
    if (!p.lead.isEmpty()) out += QStringLiteral("**") + esc(p.lead) + QStringLiteral("** ");
    return out + esc(p.text) + QStringLiteral("\n\n");
}

QString md_block(const BulletList& list, MarkdownOutput&, const QString&) {
    QString out;
    for (const auto& item : list.items)
        out += QStringLiteral("- ") + esc(item) + u'\n';
    return out + u'\n';
}

QString table_row(const QStringList& cells, bool bold) {
    QString out = QStringLiteral("|");
    for (const auto& cell : cells) {
        const QString text = esc(cell, false);
        out +=
            u' ' +
            (bold && !text.isEmpty() ? QStringLiteral("**") + text + QStringLiteral("**") : text) +
            QStringLiteral(" |");
    }
    return out + u'\n';
}

QString md_block(const KeyValueTable& kv, MarkdownOutput&, const QString&) {
    QString out = QStringLiteral("| Item | Value |\n|---|---|\n");
    for (const auto& [key, value] : kv.rows)
        out += table_row({key, value}, false);
    return out + u'\n';
}

QString md_block(const Table& table, MarkdownOutput&, const QString&) {
    QString out = table_row(table.headers, false) + u'|';
    for (int c = 0; c < table.headers.size(); ++c) {
        const bool right = c < static_cast<int>(table.align.size()) &&
                           table.align[static_cast<size_t>(c)] == Align::right;
        out += right ? QStringLiteral("---:|") : QStringLiteral("---|");
    }
    out += u'\n';
    for (size_t r = 0; r < table.rows.size(); ++r) {
        const bool emph = std::find(table.emphasised_rows.begin(), table.emphasised_rows.end(),
                                    static_cast<int>(r)) != table.emphasised_rows.end();
        out += table_row(table.rows[r], emph);
    }
    out += u'\n';
    if (!table.note.isEmpty())
        out += QStringLiteral("*") + esc(table.note) + QStringLiteral("*\n\n");
    return out;
}

// File names must be safe on every file system and need no escaping inside a link.
QString safe_stem(const QString& stem, int index) {
    QString out = stem;
    out.replace(QRegularExpression(QStringLiteral("[^A-Za-z0-9_-]")), QStringLiteral("_"));
    if (out.isEmpty()) out = QStringLiteral("figure");
    return QStringLiteral("%1-%2").arg(index, 2, 10, QLatin1Char('0')).arg(out);
}

QString md_block(const Figure& figure, MarkdownOutput& output, const QString& image_dir) {
    if (figure.chart.empty())
        return QStringLiteral("*") + esc(figure.caption) +
               QStringLiteral(" (no data to chart)*\n\n");
    const int index = static_cast<int>(output.images.size()) + 1;
    const QString path =
        image_dir + u'/' + safe_stem(figure.file_stem, index) + QStringLiteral(".png");
    output.images.emplace_back(path, render_chart_png(figure.chart));
    return QStringLiteral("![") + esc(figure.chart.title) + QStringLiteral("](") + path +
           QStringLiteral(")\n\n*") + esc(figure.caption) + QStringLiteral("*\n\n");
}

} // namespace

MarkdownOutput render_markdown(const Document& doc, const QString& image_dir) {
    MarkdownOutput output;
    QString text = QStringLiteral("# ") + esc(doc.title) + QStringLiteral("\n\n*") +
                   esc(doc.subtitle) + QStringLiteral("*\n\n");
    for (const auto& section : doc.sections) {
        text += QStringLiteral("## ") + esc(section.heading) + QStringLiteral("\n\n");
        for (const auto& block : section.blocks) {
            text +=
                std::visit([&](const auto& b) { return md_block(b, output, image_dir); }, block);
        }
    }
    output.text = text;
    return output;
}

} // namespace cp::report
