// A small titled figure ("Step time" / "1.23 s") used in result panels.
#pragma once

#include <QFrame>
#include <functional>
#include <map>
#include <vector>

class QGridLayout;
class QLabel;

namespace cp::sim {
struct PredictionInterval;
}

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
    // The figure's interval [low, high] under the number as every page words it ("6.0 s – 7.4 s
    // (80 % of comparable runs)", "(… range, your job log)", "(worst error seen)"), the planner's
    // sentence as its tooltip, and the badge when `iv` is unvalidated. An invalid plan or an
    // unknown end clears the range (the badge still follows `iv` for a valid plan).
    void showInterval(const sim::PredictionInterval& iv, double low, double high,
                      const std::function<QString(double)>& unit, bool valid = true);
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

// One card of a page's figure grid: its key (how the page finds it), title and tooltip.
struct CardSpec {
    const char* key;
    QString title;
    QString tip;
};

// A page's figure cards, keyed by CardSpec::key: one lookup for the page and for tests, so no
// page repeats its own find-or-empty accessors.
class FigureCards {
public:
    FigureCards() = default;
    // The cards of `specs`, `columns` per row, added to `grid` in order.
    FigureCards(QGridLayout* grid, const std::vector<CardSpec>& specs, int columns);

    // The card under `key`; the key must be one of the page's specs.
    FigureCard* operator[](const QString& key) const;
    // What the card under `key` shows; empty / false for an unknown key.
    QString value(const QString& key) const;
    QString detail(const QString& key) const;
    QString range(const QString& key) const;
    bool unvalidated(const QString& key) const;
    bool highlighted(const QString& key) const;
    // Every card back to the dash with no range and no badge (a plan that cannot be evaluated).
    void clear();

private:
    const FigureCard* find(const QString& key) const;
    std::map<QString, FigureCard*> cards_;
};

} // namespace cp::gui
