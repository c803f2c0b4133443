// Scaling page: throughput, scaling efficiency and cost vs devices for data-, tensor-,
// pipeline-parallel and 3D layouts side by side; time-vs-cost Pareto scatter (hover for
// details, click to open in Plan); ranked recommendations. The sweep runs on a worker thread.
#pragma once

#include "pages/page.h"
#include "scaling_data.h"

#include <atomic>
#include <memory>

class QLabel;
class QMenu;
class QProgressBar;
class QPushButton;
class QSpinBox;
class QTableView;
class QToolButton;

namespace cp::gui {

class AppContext;
class ChartView;
class RecommendationModel;

class ScalingPage : public Page {
    Q_OBJECT
public:
    explicit ScalingPage(AppContext& context, QWidget* parent = nullptr);
    bool busy() const override { return running_; }

    void runSweep();
    void cancelSweep();
    RecommendationModel* recommendations() const { return model_; }
    ChartView* paretoView() const { return pareto_; }
    std::shared_ptr<const ScalingData> data() const { return data_; }
    QStringList selectedInstances() const;
    void setSelectedInstances(const QStringList& types);

signals:
    void sweepFinished();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void reloadInstances();
    void showData();
    void openPlan(const SweepPlan& plan);
    void updateInstanceButton();

    AppContext& context_;
    QToolButton* instances_button_ = nullptr;
    QMenu* instances_menu_ = nullptr;
    QSpinBox* max_nodes_ = nullptr;
    QPushButton* run_ = nullptr;
    QPushButton* cancel_ = nullptr;
    QProgressBar* progress_ = nullptr;
    QLabel* status_ = nullptr;
    QLabel* legend_ = nullptr;
    QLabel* ranked_title_ = nullptr;
    ChartView* throughput_ = nullptr;
    ChartView* efficiency_ = nullptr;
    ChartView* cost_ = nullptr;
    ChartView* pareto_ = nullptr;
    QTableView* table_ = nullptr;
    RecommendationModel* model_ = nullptr;
    std::shared_ptr<const ScalingData> data_;
    std::vector<charts::ParetoPoint> pareto_points_;
    std::shared_ptr<std::atomic<bool>> cancel_flag_;
    sim::Scenario swept_scenario_;
    bool running_ = false;
    bool stale_ = true;
};

} // namespace cp::gui
