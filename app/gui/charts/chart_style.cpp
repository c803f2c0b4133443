#include "charts/chart_style.h"

#include <QApplication>
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
    chart->setAnimationOptions(QChart::NoAnimation);  // live updates must not lag behind edits
}

} // namespace cp::gui::charts
