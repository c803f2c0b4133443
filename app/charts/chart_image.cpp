#include "chart_image.h"

#include "qchart_render.h"

#include <QBuffer>
#include <QChart>
#include <QFileInfo>
#include <QGraphicsLayout>
#include <QGraphicsScene>
#include <QObject>
#include <QPainter>
#include <QSaveFile>
#include <QSvgGenerator>
#include <QTextDocumentFragment>
#include <memory>

namespace cp::charts {

void paint_chart(QChart* chart, QPainter& painter, QSize size) {
    // Qt Charts lay out only inside a scene: a chart not shown in a view gets one for now.
    std::unique_ptr<QGraphicsScene> own_scene;
    if (!chart->scene()) {
        own_scene = std::make_unique<QGraphicsScene>();
        own_scene->addItem(chart);
    }
    const QSizeF old_size = chart->size();
    chart->resize(size);
    if (chart->layout() != nullptr) chart->layout()->activate();
    painter.setRenderHint(QPainter::Antialiasing);
    chart->scene()->render(&painter, QRectF(QPointF(0, 0), QSizeF(size)), chart->geometry());
    chart->resize(old_size);
    if (own_scene) own_scene->removeItem(chart);
}

QImage chart_image(QChart* chart, QSize size, double scale) {
    QImage image(
        QSize(static_cast<int>(size.width() * scale), static_cast<int>(size.height() * scale)),
        QImage::Format_ARGB32_Premultiplied);
    image.setDevicePixelRatio(scale);
    image.fill(Qt::white);
    QPainter painter(&image);
    paint_chart(chart, painter, size);
    painter.end();
    return image;
}

QByteArray chart_png(QChart* chart, QSize size, double scale) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    chart_image(chart, size, scale).save(&buffer, "PNG");
    return bytes;
}

QByteArray chart_svg(QChart* chart, QSize size) {
    QByteArray bytes;
    QBuffer buffer(&bytes);
    buffer.open(QIODevice::WriteOnly);
    QSvgGenerator generator;
    generator.setOutputDevice(&buffer);
    generator.setSize(size);
    generator.setViewBox(QRect(QPoint(0, 0), size));
    generator.setTitle(QTextDocumentFragment::fromHtml(chart->title()).toPlainText());
    QPainter painter(&generator);
    paint_chart(chart, painter, size);
    painter.end();
    return bytes;
}

QImage render_chart_image(const ChartSpec& spec, QSize size, double scale) {
    const std::unique_ptr<QChart> chart(make_chart(spec, print_look()));
    return chart_image(chart.get(), size, scale);
}

QByteArray render_chart_png(const ChartSpec& spec, QSize size, double scale) {
    const std::unique_ptr<QChart> chart(make_chart(spec, print_look()));
    return chart_png(chart.get(), size, scale);
}

QByteArray render_chart_svg(const ChartSpec& spec, QSize size) {
    const std::unique_ptr<QChart> chart(make_chart(spec, print_look()));
    return chart_svg(chart.get(), size);
}

QString save_chart(QChart* chart, const QString& path, QSize size) {
    const QString suffix = QFileInfo(path).suffix().toLower();
    if (suffix != QLatin1String("png") && suffix != QLatin1String("svg")) {
        return QObject::tr("%1: unsupported format '%2' (use .png or .svg).").arg(path, suffix);
    }
    // Exported files go into documents: drawn light whatever the screen's palette, then the
    // chart gets its own colours back.
    const ChartLook before{QFont(), QFont(), chart->backgroundBrush().color(),
                           chart->titleBrush().color()};
    restyle(chart, print_look());
    const QByteArray bytes =
        suffix == QLatin1String("svg") ? chart_svg(chart, size) : chart_png(chart, size);
    restyle(chart, before);
    // Written beside the target and renamed over it: a failed export leaves no half file.
    QSaveFile file(path);
    if (bytes.isEmpty() || !file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() ||
        !file.commit()) {
        return QObject::tr("%1: cannot be written.").arg(path);
    }
    return {};
}

} // namespace cp::charts
