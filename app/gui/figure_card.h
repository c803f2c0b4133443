// A small titled figure ("Step time" / "1.23 s") used in result panels.
#pragma once

#include <QFrame>

class QLabel;

namespace cp::gui {

class FigureCard : public QFrame {
    Q_OBJECT
public:
    FigureCard(const QString& title, const QString& tooltip, QWidget* parent = nullptr);
    void setValue(const QString& value, const QString& detail = QString());
    QString value() const;

private:
    QLabel* value_ = nullptr;
    QLabel* detail_ = nullptr;
};

} // namespace cp::gui
