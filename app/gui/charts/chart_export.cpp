#include "charts/chart_export.h"

#include <QChart>
#include <QFileDialog>
#include <QFileInfo>
#include <QMessageBox>
#include <QTextDocumentFragment>

namespace cp::gui::charts {

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
