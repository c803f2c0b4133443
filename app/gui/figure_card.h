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
    // The range under the number ("80 %: 6.0–7.4 s"); empty hides it. `tooltip` says what it is.
    void setRange(const QString& range, const QString& tooltip = QString());
    QString range() const;
    // A badge beside the title saying that no measured run supports the figure.
    void setUnvalidated(bool on);
    bool unvalidated() const { return unvalidated_; }
    // Marks the figure the scenario's choices make the headline (e.g. the chosen purchase option).
    void setHighlighted(bool on);
    bool highlighted() const { return highlighted_; }

private:
    QLabel* value_ = nullptr;
    QLabel* detail_ = nullptr;
    QLabel* range_ = nullptr;
    QLabel* badge_ = nullptr;
    QLabel* title_ = nullptr;
    QString title_text_;
    bool highlighted_ = false;
    bool unvalidated_ = false;
};

} // namespace cp::gui
