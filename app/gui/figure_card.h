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
    QString detail() const;
    // Marks the figure the scenario's choices make the headline (e.g. the chosen purchase option).
    void setHighlighted(bool on);
    bool highlighted() const { return highlighted_; }

private:
    QLabel* value_ = nullptr;
    QLabel* detail_ = nullptr;
    QLabel* title_ = nullptr;
    QString title_text_;
    bool highlighted_ = false;
};

} // namespace cp::gui
