#include "figure_card.h"

#include "clusterplan/sim/plan_interval.h"
#include "clusterplan/sim/prediction_interval.h"
#include "format.h"

#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

namespace cp::gui {

FigureCard::FigureCard(const QString& title, const QString& tooltip, QWidget* parent)
    : QFrame(parent) {
    setFrameShape(QFrame::StyledPanel);
    setObjectName(QStringLiteral("figureCard"));
    setToolTip(tooltip);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(10, 6, 10, 6);
    layout->setSpacing(1);
    title_text_ = title;
    auto* title_label = new QLabel(title);
    title_ = title_label;
    QPalette muted = title_label->palette();
    muted.setColor(QPalette::WindowText, muted.color(QPalette::PlaceholderText));
    title_label->setPalette(muted);
    // A long title wraps beside the badge instead of widening the card row past the window.
    title_label->setWordWrap(true);
    value_ = new QLabel(QStringLiteral("\u2014"));
    QFont big = value_->font();
    big.setPointSizeF(big.pointSizeF() * 1.35);
    big.setBold(true);
    value_->setFont(big);
    value_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    detail_ = new QLabel;
    detail_->setPalette(muted);
    detail_->setWordWrap(true); // long details wrap inside the card instead of widening the grid
    range_ = new QLabel;
    range_->setObjectName(QStringLiteral("figureRange"));
    range_->setWordWrap(true);
    range_->hide();
    badge_ = new QLabel(tr("unvalidated"));
    badge_->setObjectName(QStringLiteral("unvalidatedBadge"));
    // Amber on white reads in light and dark palettes; the badge must not pass for a number.
    badge_->setStyleSheet(QStringLiteral("QLabel#unvalidatedBadge { background: #f28e2b; color: "
                                         "white; border-radius: 3px; padding: 0px 4px; }"));
    badge_->setToolTip(QString::fromUtf8(sim::kUnvalidatedLine.data(),
                                         static_cast<int>(sim::kUnvalidatedLine.size())));
    badge_->hide();
    auto* head = new QHBoxLayout;
    head->setContentsMargins(0, 0, 0, 0);
    head->addWidget(title_label);
    head->addStretch(1);
    head->addWidget(badge_, 0, Qt::AlignTop);
    layout->addLayout(head);
    layout->addWidget(value_);
    layout->addWidget(range_);
    layout->addWidget(detail_);
}

void FigureCard::setValue(const QString& value, const QString& detail) {
    value_->setText(value);
    detail_->setText(detail);
}

void FigureCard::setRange(const QString& range, const QString& tooltip) {
    range_->setText(range);
    range_->setToolTip(tooltip);
    range_->setVisible(!range.isEmpty());
}

QString FigureCard::range() const {
    return range_->text();
}

void FigureCard::setUnvalidated(bool on) {
    unvalidated_ = on;
    badge_->setVisible(on);
}

void FigureCard::showInterval(const sim::PredictionInterval& iv, double low, double high,
                              const std::function<QString(double)>& unit, bool valid) {
    setUnvalidated(valid && !iv.validated);
    if (!valid || !sim::is_known(low) || !sim::is_known(high)) {
        setRange({});
        return;
    }
    const QString span = tr("%1 – %2").arg(unit(low), unit(high));
    const QString phrase = QString::fromStdString(
        sim::range_phrase(iv, unit(low).toStdString(), unit(high).toStdString()));
    const int share = qRound(iv.confidence * 100);
    setRange(iv.basis == sim::IntervalBasis::job_log
                 ? tr("%1 (%2 % range, your job log)").arg(span).arg(share)
             : iv.validated ? tr("%1 (%2 % of comparable runs)").arg(span).arg(share)
                            : tr("%1 (worst error seen)").arg(span),
             phrase);
}

QString FigureCard::value() const {
    return value_->text();
}

QString FigureCard::detail() const {
    return detail_->text();
}

void FigureCard::setHighlighted(bool on) {
    if (on == highlighted_) return;
    highlighted_ = on;
    // palette(highlight) keeps the frame readable in light and dark palettes alike.
    setStyleSheet(
        on ? QStringLiteral(
                 "QFrame#figureCard { border: 2px solid palette(highlight); border-radius: 3px; }")
           : QString());
    title_->setText(on ? tr("%1 · chosen").arg(title_text_) : title_text_);
}

FigureCards::FigureCards(QGridLayout* grid, const std::vector<CardSpec>& specs, int columns) {
    int i = 0;
    for (const CardSpec& s : specs) {
        auto* card = new FigureCard(s.title, s.tip);
        cards_[QString::fromLatin1(s.key)] = card;
        grid->addWidget(card, i / columns, i % columns);
        ++i;
    }
}

FigureCard* FigureCards::operator[](const QString& key) const {
    const auto it = cards_.find(key);
    Q_ASSERT(it != cards_.end());
    return it->second;
}

const FigureCard* FigureCards::find(const QString& key) const {
    const auto it = cards_.find(key);
    return it == cards_.end() ? nullptr : it->second;
}

QString FigureCards::value(const QString& key) const {
    const FigureCard* c = find(key);
    return c ? c->value() : QString();
}

QString FigureCards::detail(const QString& key) const {
    const FigureCard* c = find(key);
    return c ? c->detail() : QString();
}

QString FigureCards::range(const QString& key) const {
    const FigureCard* c = find(key);
    return c ? c->range() : QString();
}

bool FigureCards::unvalidated(const QString& key) const {
    const FigureCard* c = find(key);
    return c && c->unvalidated();
}

bool FigureCards::highlighted(const QString& key) const {
    const FigureCard* c = find(key);
    return c && c->highlighted();
}

void FigureCards::clear() {
    for (auto& [key, card] : cards_) {
        card->setValue(kDash);
        card->setRange({});
        card->setUnvalidated(false);
    }
}

} // namespace cp::gui
