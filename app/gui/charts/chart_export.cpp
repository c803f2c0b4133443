#include "charts/chart_export.h"

#include <QChart>
#include <QFileDialog>
#include <QFileInfo>
#include <QGraphicsScene>
#include <QImage>
#include <QMessageBox>
#include <QPainter>
#include <QSvgGenerator>
#include <QTextDocumentFragment>

namespace cp::gui::charts {

namespace {
// Renders a chart that may or may not be shown in a view, at the requested size.
void paint_chart(QChart* chart, QPainter& painter, QSize size) {
    const QSizeF old_size = chart->size();
    QGraphicsScene* own_scene = nullptr;
    if (!chart->scene()) {
        own_scene = new QGraphicsScene;
        own_scene->addItem(chart);
    }
    chart->resize(size);
    QGraphicsScene* scene = chart->scene();
    scene->render(&painter, QRectF(QPointF(0, 0), size), chart->geometry());
    chart->resize(old_size);
    if (own_scene) {
        own_scene->removeItem(chart);
        delete own_scene;
    }
}
} // namespace

QString save_chart(QChart* chart, const QString& path, QSize size) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix == QLatin1String("svg")) {
        QSvgGenerator svg;
        svg.setFileName(path);
        svg.setSize(size);
        svg.setViewBox(QRect(QPoint(0, 0), size));
        svg.setTitle(QTextDocumentFragment::fromHtml(chart->title()).toPlainText());
        QPainter painter;
        if (!painter.begin(&svg)) return QObject::tr("%1: cannot be written.").arg(path);
        paint_chart(chart, painter, size);
        painter.end();
        return {};
    }
    if (suffix != QLatin1String("png")) {
        return QObject::tr("%1: unsupported format '%2' (use .png or .svg).").arg(path, suffix);
    }
    // Twice the logical size keeps text crisp on high-DPI screens and in documents.
    const qreal scale = 2.0;
    QImage image(size * scale, QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        painter.setRenderHint(QPainter::Antialiasing);
        paint_chart(chart, painter, size);
    }
    if (!image.save(path)) return QObject::tr("%1: cannot be written.").arg(path);
    return {};
}

void export_chart_interactive(QChart* chart, QWidget* parent) {
    QString selected;
    // Titles may carry a rich-text second line (data source): name the file after the first.
    const QString title = QTextDocumentFragment::fromHtml(chart->title())
                              .toPlainText()
                              .section(QChar::LineSeparator, 0, 0)
                              .section(QLatin1Char('\n'), 0, 0)
                              .trimmed();
    const QString path = QFileDialog::getSaveFileName(
        parent, QObject::tr("Export chart"), title.isEmpty() ? "chart.png" : title + ".png",
        QObject::tr("PNG image (*.png);;SVG vector image (*.svg)"), &selected);
    if (path.isEmpty()) return;
    QString target = path;
    if (QFileInfo(target).suffix().isEmpty()) target += selected.contains("svg") ? ".svg" : ".png";
    const QString error = save_chart(chart, target);
    if (!error.isEmpty()) QMessageBox::warning(parent, QObject::tr("Export chart"), error);
}

} // namespace cp::gui::charts
