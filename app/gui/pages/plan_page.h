// Plan page: scenario editor on the left, live results (figures, verdict, step-time and memory
// charts) on the right. Recomputes on every edit, debounced to one evaluation per event-loop pass.
#pragma once

#include "pages/page.h"
#include "plan_eval.h"

#include <map>

class QLabel;
class QTextBrowser;
class QTimer;

namespace cp::gui {

class AppContext;
class ChartView;
class FigureCard;
class ScenarioEditor;

class PlanPage : public Page {
    Q_OBJECT
public:
    explicit PlanPage(AppContext& context, QWidget* parent = nullptr);

    ScenarioEditor* editor() const { return editor_; }
    const PlanOutcome& outcome() const { return outcome_; }
    // The figure shown under `key` (step_time, throughput, mfu, time_to_train, cost_on_demand,
    // cost_spot, memory, layout) — for tests.
    QString figure(const QString& key) const;
    QString figureDetail(const QString& key) const;
    // The range under a figure ("6.0 s – 7.4 s (80 % of comparable runs)") and whether its card
    // carries the unvalidated badge.
    QString figureRange(const QString& key) const;
    bool figureUnvalidated(const QString& key) const;
    bool figureHighlighted(const QString& key) const;
    QString verdictText() const;
    int updateCount() const { return update_count_; }

    // Runs a pending recompute now (tests and the latency benchmark).
    void flushPendingUpdate();
    // Makes a small edit as a user would (benchmark helper): nudges the node count.
    void simulateEdit(int step);

private:
    void reloadChoices();
    void onEdited();
    void recompute();
    void showOutcome();
    void showRanges();

    AppContext& context_;
    ScenarioEditor* editor_ = nullptr;
    QTimer* debounce_ = nullptr;
    std::map<QString, FigureCard*> cards_;
    QLabel* verdict_ = nullptr;
    QTextBrowser* assumptions_ = nullptr;
    ChartView* breakdown_view_ = nullptr;
    ChartView* memory_view_ = nullptr;
    PlanOutcome outcome_;
    int update_count_ = 0;
    bool applying_ = false;
};

} // namespace cp::gui
