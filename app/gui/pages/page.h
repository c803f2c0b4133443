// Base of every main-window page: lets the window (and --screenshot) know when background
// work is still running.
#pragma once

#include <QWidget>

namespace cp::gui {

class Page : public QWidget {
    Q_OBJECT
public:
    using QWidget::QWidget;
    // True while a sweep, probe run or import is in flight.
    virtual bool busy() const { return false; }

signals:
    void statusMessage(const QString& message);
};

} // namespace cp::gui
