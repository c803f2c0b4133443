#include "charts/chart_style.h"

#include <QAbstractAxis>
#include <QAbstractBarSeries>
#include <QApplication>
#include <QBarSet>
#include <QChart>
#include <QFont>
#include <QLegend>
#include <QPalette>

namespace cp::gui::charts {

void apply_style(QChart* chart, const QString& title) {
    // Follow the system palette so dark mode stays readable.
    const bool dark = QApplication::palette().color(QPalette::Window).lightness() < 128;
    chart->setTheme(dark ? QChart::ChartThemeDark : QChart::ChartThemeLight);
    chart->setBackgroundBrush(QApplication::palette().color(QPalette::Base));
    chart->setTitleBrush(QApplication::palette().color(QPalette::Text));
    QFont title_font = QApplication::font();
    title_font.setBold(true);
    title_font.setPointSizeF(title_font.pointSizeF() * 1.1);
    chart->setTitleFont(title_font);
    chart->setTitle(title);
    chart->legend()->setAlignment(Qt::AlignBottom);
    chart->legend()->setLabelColor(QApplication::palette().color(QPalette::Text));
    chart->setMargins(QMargins(4, 4, 4, 4));
    chart->setAnimationOptions(QChart::NoAnimation); // live updates must not lag behind edits
}

namespace {
QColor mix(const QColor& a, const QColor& b, float t) {
    return QColor::fromRgbF(a.redF() + (b.redF() - a.redF()) * t,
                            a.greenF() + (b.greenF() - a.greenF()) * t,
                            a.blueF() + (b.blueF() - a.blueF()) * t);
}
} // namespace

void restyle(QChart* chart) {
    if (!chart) return;
    const QPalette pal = QApplication::palette();
    const QColor base = pal.color(QPalette::Base), text = pal.color(QPalette::Text);
    chart->setBackgroundBrush(base);
    chart->setTitleBrush(text);
    chart->legend()->setLabelColor(text);
    for (QAbstractAxis* axis : chart->axes()) {
        axis->setLabelsBrush(text);
        axis->setTitleBrush(text);
        axis->setLinePenColor(mix(base, text, 0.55f));
        axis->setGridLineColor(mix(base, text, 0.15f));
        axis->setMinorGridLineColor(mix(base, text, 0.08f));
    }
    for (QAbstractSeries* series : chart->series()) {
        auto* bars = qobject_cast<QAbstractBarSeries*>(series);
        if (!bars || !bars->isLabelsVisible()) continue;
        for (QBarSet* set : bars->barSets())
            set->setLabelColor(text);
    }
}

} // namespace cp::gui::charts
