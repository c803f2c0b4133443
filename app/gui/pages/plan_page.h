// Plan page: scenario editor on the left, live results (figures, verdict, step-time and memory
// charts) on the right. Recomputes on every edit, debounced to one evaluation per event-loop pass.
#pragma once

#include "figure_card.h"
#include "pages/page.h"
#include "plan_eval.h"

#include <map>

class QLabel;
class QTextBrowser;
class QTimer;

namespace cp::gui {

class AppContext;
class ChartView;
class ScenarioEditor;

class PlanPage : public Page {
    Q_OBJECT
public:
    explicit PlanPage(AppContext& context, QWidget* parent = nullptr);

    ScenarioEditor* editor() const { return editor_; }
    const PlanOutcome& outcome() const { return outcome_; }
    // The figure cards (step_time, throughput, mfu, time_to_train, cost_on_demand, cost_spot,
    // memory, layout): the number, its detail, the range under it and its badges.
    const FigureCards& figures() const { return cards_; }
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
    FigureCards cards_;
    QLabel* verdict_ = nullptr;
    QTextBrowser* assumptions_ = nullptr;
    ChartView* breakdown_view_ = nullptr;
    ChartView* memory_view_ = nullptr;
    PlanOutcome outcome_;
    int update_count_ = 0;
    bool applying_ = false;
};

} // namespace cp::gui
