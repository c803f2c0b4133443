// PDF renderer: a small two-pass page layout over QPainter. Pass one places every block
// (measuring text with the PDF device's metrics) and decides page breaks; pass two paints,
// now knowing the page count for "Page X of Y". Placing ourselves, rather than printing a
// QTextDocument, is what lets tables break only between rows and repeat their header.
#include "chart_image.h"
#include "renderers.h"

#include <QAbstractTextDocumentLayout>
#include <QFontMetricsF>
#include <QIODevice>
#include <QPageLayout>
#include <QPainter>
#include <QPdfWriter>
#include <QTextDocument>
#include <algorithm>
#include <functional>
#include <memory>

namespace cp::report {
namespace {

constexpr int kDpi = 300;
double pt(double points) {
    return points * kDpi / 72.0;
}

QFont font(double point_size, bool bold = false, bool italic = false) {
    QFont f(QStringLiteral("DejaVu Sans"));
    f.setPointSizeF(point_size);
    f.setBold(bold);
    f.setItalic(italic);
    return f;
}

const QColor kInk(29, 35, 48);
const QColor kMuted(91, 100, 115);
const QColor kRule(213, 217, 224);
const QColor kAccent(0, 114, 178);
const QColor kBand(243, 245, 248);
// Caution and alert paragraphs (price age over 30 / 90 days): amber and red that keep 4.5:1
// contrast on white (WCAG 2.1 AA body text).
const QColor kCaution(154, 91, 0);
const QColor kAlert(192, 57, 43);
const QColor kEmph(234, 243, 250);

struct Placed {
    int page = 0;
    QRectF rect;
    std::function<void(QPainter&, const QRectF&)> draw;
};

class Layout {
public:
    Layout(QPaintDevice& device, QRectF body) : device_(device), body_(body), y_(body.top()) {}

    double width() const { return body_.width(); }
    double remaining() const { return body_.bottom() - y_; }
    int pages() const { return page_ + 1; }
    const std::vector<Placed>& items() const { return items_; }
    QPaintDevice& device() { return device_; }

    void new_page() {
        ++page_;
        y_ = body_.top();
    }
    // Starts a new page unless `height` still fits (or the page is still empty).
    void ensure(double height) {
        if (height > remaining() && y_ > body_.top()) new_page();
    }
    void place(double height, std::function<void(QPainter&, const QRectF&)> draw) {
        items_.push_back({page_, QRectF(body_.left(), y_, body_.width(), height), std::move(draw)});
        y_ += height;
    }
    void space(double height) {
        if (y_ > body_.top()) y_ = std::min(y_ + height, body_.bottom());
    }

    double text_height(const QString& text, const QFont& f, double w) const {
        const QFontMetricsF metrics(f, &device_);
        return metrics.boundingRect(QRectF(0, 0, w, 1e7), Qt::TextWordWrap, text).height();
    }
    double text_width(const QString& text, const QFont& f) const {
        return QFontMetricsF(f, &device_).horizontalAdvance(text);
    }

private:
    QPaintDevice& device_;
    QRectF body_;
    double y_;
    int page_ = 0;
    std::vector<Placed> items_;
};

// Wrapped text with an optional bold lead-in; QTextDocument does the mixed-font wrapping.
std::shared_ptr<QTextDocument> rich_text(Layout& layout, const QString& lead, const QString& text,
                                         const QFont& f, double w, Tone tone = Tone::plain) {
    auto doc = std::make_shared<QTextDocument>();
    doc->documentLayout()->setPaintDevice(&layout.device());
    doc->setDefaultFont(f);
    doc->setDocumentMargin(0);
    QString html = lead.isEmpty()
                       ? QString()
                       : QStringLiteral("<b>") + lead.toHtmlEscaped() + QStringLiteral("</b> ");
    html += text.toHtmlEscaped();
    if (tone != Tone::plain)
        html = QStringLiteral("<span style=\"color:%1\">%2</span>")
                   .arg((tone == Tone::alert ? kAlert : kCaution).name(), html);
    doc->setHtml(html);
    doc->setTextWidth(w);
    return doc;
}

void place_rich(Layout& layout, const QString& lead, const QString& text, const QFont& f,
                double indent, const QString& bullet = {}, Tone tone = Tone::plain) {
    auto doc = rich_text(layout, lead, text, f, layout.width() - indent, tone);
    const double h = doc->size().height();
    layout.ensure(h);
    layout.place(h + pt(5), [doc, indent, bullet, f](QPainter& p, const QRectF& r) {
        if (!bullet.isEmpty()) {
            p.setFont(f);
            p.setPen(kInk);
            p.drawText(QPointF(r.left() + indent - pt(10),
                               r.top() + QFontMetricsF(f, p.device()).ascent()),
                       bullet);
        }
        p.save();
        p.translate(r.left() + indent, r.top());
        doc->drawContents(&p);
        p.restore();
    });
}

void place_block(Layout& layout, const Paragraph& para) {
    place_rich(layout, para.lead, para.text, font(9.5), 0, {}, para.tone);
}

void place_block(Layout& layout, const BulletList& list) {
    for (const auto& item : list.items)
        place_rich(layout, {}, item, font(9), pt(14), QStringLiteral("•"));
    layout.space(pt(3));
}

void place_block(Layout& layout, const KeyValueTable& kv) {
    const QFont key_font = font(9, true);
    const QFont value_font = font(9);
    const double key_w = layout.width() * 0.32;
    const double value_w = layout.width() - key_w - pt(8);
    for (const auto& [key, value] : kv.rows) {
        const double h = std::max(layout.text_height(key, key_font, key_w),
                                  layout.text_height(value, value_font, value_w)) +
                         pt(5);
        layout.ensure(h);
        layout.place(h, [=](QPainter& p, const QRectF& r) {
            p.setPen(kInk);
            p.setFont(key_font);
            p.drawText(QRectF(r.left(), r.top() + pt(2), key_w, r.height()), Qt::TextWordWrap, key);
            p.setFont(value_font);
            p.drawText(QRectF(r.left() + key_w + pt(8), r.top() + pt(2), value_w, r.height()),
                       Qt::TextWordWrap, value);
            p.setPen(QPen(kRule, pt(0.5)));
            p.drawLine(r.bottomLeft(), r.bottomRight());
        });
    }
    layout.space(pt(8));
}

bool right_aligned(const Table& table, int column) {
    return column < static_cast<int>(table.align.size()) &&
           table.align[static_cast<size_t>(column)] == Align::right;
}

double widest_word(Layout& layout, const QString& text, const QFont& f) {
    double w = 0;
    for (const auto& word : text.split(u' ', Qt::SkipEmptyParts))
        w = std::max(w, layout.text_width(word, f));
    return w;
}

// Column widths. Each column has a minimum (its longest word; numbers and headers' words
// never wrap) and a natural width (longest cell on one line). Columns get their minimum
// and share the rest in proportion to how much wrapping they would otherwise need.
// Empty when even the minimums do not fit at this font size.
std::vector<double> column_widths(Layout& layout, const Table& table, const QFont& f,
                                  const QFont& header_font, double padding) {
    const int columns = static_cast<int>(table.headers.size());
    std::vector<double> min_w(static_cast<size_t>(columns), 0.0);
    std::vector<double> natural(static_cast<size_t>(columns), 0.0);
    for (int c = 0; c < columns; ++c) {
        double lo = widest_word(layout, table.headers[c], header_font);
        double hi = layout.text_width(table.headers[c], header_font);
        for (size_t r = 0; r < table.rows.size(); ++r) {
            const QStringList& row = table.rows[r];
            if (c >= row.size()) continue;
            // Emphasised rows are drawn bold, which is wider.
            const bool bold = std::find(table.emphasised_rows.begin(), table.emphasised_rows.end(),
                                        static_cast<int>(r)) != table.emphasised_rows.end();
            const QFont& cell = bold ? header_font : f;
            const double full = layout.text_width(row[c], cell);
            lo = std::max(lo, right_aligned(table, c) ? full : widest_word(layout, row[c], cell));
            hi = std::max(hi, full);
        }
        min_w[static_cast<size_t>(c)] = lo + 2 * padding + 1;
        natural[static_cast<size_t>(c)] = std::max(lo, hi) + 2 * padding + 1;
    }
    const double available = layout.width();
    double min_total = 0;
    double natural_total = 0;
    for (int c = 0; c < columns; ++c) {
        min_total += min_w[static_cast<size_t>(c)];
        natural_total += natural[static_cast<size_t>(c)];
    }
    if (min_total > available) return {};
    std::vector<double> widths = min_w;
    if (natural_total <= available) {
        // Everything fits on one line: spread the spare width evenly.
        for (int c = 0; c < columns; ++c) {
            widths[static_cast<size_t>(c)] =
                natural[static_cast<size_t>(c)] + (available - natural_total) / columns;
        }
        return widths;
    }
    const double spare = available - min_total;
    const double wanted = natural_total - min_total;
    for (int c = 0; c < columns; ++c) {
        widths[static_cast<size_t>(c)] +=
            spare * (natural[static_cast<size_t>(c)] - min_w[static_cast<size_t>(c)]) / wanted;
    }
    return widths;
}

void place_block(Layout& layout, const Table& table) {
    // The largest font at which no word has to be broken.
    double size = 8;
    const double pad = pt(3);
    std::vector<double> widths;
    for (; size > 5.5; size -= 0.5) {
        widths = column_widths(layout, table, font(size), font(size, true), pad);
        if (!widths.empty()) break;
    }
    if (widths.empty()) {
        widths.assign(static_cast<size_t>(table.headers.size()),
                      layout.width() / std::max<qsizetype>(1, table.headers.size()));
    }
    const QFont cell_font = font(size);
    const QFont bold_font = font(size, true);
    const QFont header_font = font(size, true);
    auto row_height = [&](const QStringList& cells, const QFont& f) {
        double h = 0;
        for (int c = 0; c < cells.size() && c < static_cast<int>(widths.size()); ++c) {
            h = std::max(h,
                         layout.text_height(cells[c], f, widths[static_cast<size_t>(c)] - 2 * pad));
        }
        return h + 2 * pad;
    };
    auto draw_row = [widths, pad, table](const QStringList& cells, const QFont& f,
                                         const QColor& fill, bool rule) {
        return [=](QPainter& p, const QRectF& r) {
            if (fill.isValid()) p.fillRect(r, fill);
            p.setFont(f);
            p.setPen(kInk);
            double x = r.left();
            for (int c = 0; c < cells.size() && c < static_cast<int>(widths.size()); ++c) {
                const double w = widths[static_cast<size_t>(c)];
                const bool right = right_aligned(table, c);
                p.drawText(QRectF(x + pad, r.top() + pad, w - 2 * pad, r.height() - 2 * pad),
                           Qt::TextWordWrap | (right ? Qt::AlignRight : Qt::AlignLeft), cells[c]);
                x += w;
            }
            if (rule) {
                p.setPen(QPen(kRule, pt(0.5)));
                p.drawLine(r.bottomLeft(), r.bottomRight());
            }
        };
    };
    const double header_h = row_height(table.headers, header_font);
    auto place_header = [&] {
        layout.place(header_h, draw_row(table.headers, header_font, kBand, true));
    };
    // Keep the header with at least the first row.
    layout.ensure(header_h + (table.rows.empty() ? 0 : row_height(table.rows.front(), cell_font)));
    place_header();
    for (size_t r = 0; r < table.rows.size(); ++r) {
        const bool emph = std::find(table.emphasised_rows.begin(), table.emphasised_rows.end(),
                                    static_cast<int>(r)) != table.emphasised_rows.end();
        const QFont& f = emph ? bold_font : cell_font;
        const double h = row_height(table.rows[r], f);
        if (h > layout.remaining()) {
            layout.new_page();
            place_header(); // a row is never split; the header is repeated instead
        }
        layout.place(h, draw_row(table.rows[r], f, emph ? kEmph : QColor(), true));
    }
    if (!table.note.isEmpty()) {
        layout.space(pt(2));
        place_rich(layout, {}, table.note, font(7.5, false, true), 0);
    }
    layout.space(pt(8));
}

void place_block(Layout& layout, const Figure& figure) {
    const QFont caption_font = font(8, false, true);
    if (figure.chart.empty()) {
        place_rich(layout, {}, figure.caption + QStringLiteral(" (no data to chart)"), caption_font,
                   0);
        return;
    }
    const double w = layout.width();
    const double h = w * charts::kChartSize.height() / charts::kChartSize.width();
    const double caption_h = layout.text_height(figure.caption, caption_font, w) + pt(4);
    layout.ensure(h + caption_h); // a figure stays with its caption
    const QImage image = render_chart_image(figure.chart, charts::kChartSize, 3.0);
    layout.place(h, [image](QPainter& p, const QRectF& r) {
        p.drawImage(r, image);
        p.setPen(QPen(kRule, pt(0.5)));
        p.drawRect(r);
    });
    const QString caption = figure.caption;
    layout.place(caption_h, [caption, caption_font](QPainter& p, const QRectF& r) {
        p.setFont(caption_font);
        p.setPen(kMuted);
        p.drawText(r.adjusted(0, pt(3), 0, 0), Qt::TextWordWrap, caption);
    });
    layout.space(pt(10));
}

// How much of a section's first block must fit under its heading: a whole figure (it is
// never split), otherwise a few lines.
double keep_with_heading(const Layout& layout, const std::vector<Block>& blocks) {
    if (!blocks.empty()) {
        if (const auto* figure = std::get_if<Figure>(&blocks.front());
            figure != nullptr && !figure->chart.empty()) {
            return layout.width() * charts::kChartSize.height() / charts::kChartSize.width() +
                   pt(30);
        }
    }
    return pt(90);
}

void place_heading(Layout& layout, const QString& heading, double keep) {
    const QFont f = font(13, true);
    const double h = layout.text_height(heading, f, layout.width()) + pt(8);
    // Keep a heading with the start of its section.
    layout.ensure(h + keep);
    layout.space(pt(6));
    layout.place(h, [heading, f](QPainter& p, const QRectF& r) {
        p.setFont(f);
        p.setPen(kAccent);
        p.drawText(r, Qt::TextWordWrap, heading);
        p.setPen(QPen(kRule, pt(0.7)));
        p.drawLine(r.bottomLeft() - QPointF(0, pt(3)), r.bottomRight() - QPointF(0, pt(3)));
    });
}

void place_title(Layout& layout, const Document& doc) {
    const QFont title_font = font(20, true);
    const QFont sub_font = font(9.5);
    const double title_h = layout.text_height(doc.title, title_font, layout.width());
    const double sub_h = layout.text_height(doc.subtitle, sub_font, layout.width());
    layout.place(title_h + sub_h + pt(16), [doc, title_font, sub_font, title_h](QPainter& p,
                                                                                const QRectF& r) {
        p.setFont(title_font);
        p.setPen(kInk);
        p.drawText(QRectF(r.left(), r.top(), r.width(), title_h), Qt::TextWordWrap, doc.title);
        p.setFont(sub_font);
        p.setPen(kMuted);
        p.drawText(QRectF(r.left(), r.top() + title_h + pt(2), r.width(), r.height()),
                   Qt::TextWordWrap, doc.subtitle);
        p.setPen(QPen(kAccent, pt(2)));
        p.drawLine(QPointF(r.left(), r.bottom() - pt(4)), QPointF(r.right(), r.bottom() - pt(4)));
    });
}

void paint_page_frame(QPainter& p, const QRectF& page, const QRectF& body, const Document& doc,
                      int page_no, int pages) {
    p.setFont(font(7));
    p.setPen(kMuted);
    const QFontMetricsF metrics(font(7), p.device());
    const QString title = metrics.elidedText(doc.title, Qt::ElideRight, body.width() * 0.7);
    if (page_no > 1) {
        p.drawText(QRectF(body.left(), page.top() + pt(22), body.width(), pt(12)), Qt::AlignLeft,
                   title);
        p.drawText(QRectF(body.left(), page.top() + pt(22), body.width(), pt(12)), Qt::AlignRight,
                   QStringLiteral("ClusterPlan"));
    }
    const QRectF footer(body.left(), body.bottom() + pt(14), body.width(), pt(12));
    p.setPen(QPen(kRule, pt(0.5)));
    p.drawLine(footer.topLeft() - QPointF(0, pt(4)), footer.topRight() - QPointF(0, pt(4)));
    p.setPen(kMuted);
    p.drawText(footer, Qt::AlignLeft, doc.subtitle);
    p.drawText(footer, Qt::AlignRight, QStringLiteral("Page %1 of %2").arg(page_no).arg(pages));
}

} // namespace

bool render_pdf(const Document& doc, QIODevice& out, QString* error) {
    QPdfWriter writer(&out);
    writer.setResolution(kDpi);
    writer.setPageLayout(QPageLayout(QPageSize(QPageSize::A4), QPageLayout::Portrait,
                                     QMarginsF(0, 0, 0, 0), QPageLayout::Millimeter));
    writer.setTitle(doc.title);
    writer.setCreator(QStringLiteral("ClusterPlan"));
    const QRectF page(QPointF(0, 0), QSizeF(writer.width(), writer.height()));
    // 18 mm side margins, room for the running header and the footer.
    const double mm = kDpi / 25.4;
    const QRectF body = page.adjusted(18 * mm, 20 * mm, -18 * mm, -20 * mm);

    Layout layout(writer, body);
    place_title(layout, doc);
    for (const auto& section : doc.sections) {
        place_heading(layout, section.heading, keep_with_heading(layout, section.blocks));
        for (const auto& block : section.blocks)
            std::visit([&](const auto& b) { place_block(layout, b); }, block);
    }

    QPainter painter;
    if (!painter.begin(&writer)) {
        if (error) *error = QStringLiteral("the PDF writer did not start");
        return false;
    }
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setRenderHint(QPainter::SmoothPixmapTransform);
    const int pages = layout.pages();
    int current = 0;
    paint_page_frame(painter, page, body, doc, 1, pages);
    for (const auto& item : layout.items()) {
        while (current < item.page) {
            writer.newPage();
            ++current;
            paint_page_frame(painter, page, body, doc, current + 1, pages);
        }
        item.draw(painter, item.rect);
    }
    if (!painter.end()) {
        if (error) *error = QStringLiteral("the PDF writer failed: %1").arg(out.errorString());
        return false;
    }
    return true;
}

} // namespace cp::report
