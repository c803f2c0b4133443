// Serve page: plans inference serving. A question editor on the left (model, engine,
// precision, traffic, latency limits, instances); on the right the latency-throughput curves of
// the ranked choices with the SLO line, their cost per million tokens and memory per device, and
// the ranked table. The study runs on a worker thread through the service layer.
#pragma once

#include "clusterplan/service/serving_study.h"
#include "figure_card.h"
#include "pages/page.h"

#include <map>
#include <memory>

class QComboBox;
class QLabel;
class QPushButton;
class QTableView;

namespace cp::gui {

class AppContext;
class ChartView;
class ServingForm;
class ServingResultModel;

class ServePage : public Page {
    Q_OBJECT
public:
    explicit ServePage(AppContext& context, QWidget* parent = nullptr);
    bool busy() const override { return running_; }

    ServingForm* form() const { return form_; }
    ServingResultModel* results() const { return model_; }
    ChartView* curveView() const { return curve_; }
    ChartView* costView() const { return cost_; }
    // The last finished study (null before the first); its error sentence otherwise.
    std::shared_ptr<const service::ServingStudy> study() const { return study_; }
    QString errorText() const { return error_; }
    // The selected deployment's figure cards ("throughput", "ttft", "step", "cost"): the number,
    // the range under it, and whether the unvalidated badge shows.
    const FigureCards& figures() const { return cards_; }

    void runStudy();

signals:
    void studyFinished();

protected:
    void showEvent(QShowEvent* event) override;

private:
    void showStudy();
    void showCurve();
    void showFigures(const sim::ServingPlan* plan);

    AppContext& context_;
    ServingForm* form_ = nullptr;
    QPushButton* run_ = nullptr;
    QLabel* status_ = nullptr;
    QComboBox* latency_ = nullptr;
    ChartView* curve_ = nullptr;
    ChartView* cost_ = nullptr;
    ChartView* memory_ = nullptr;
    QLabel* refused_ = nullptr;
    QTableView* table_ = nullptr;
    ServingResultModel* model_ = nullptr;
    FigureCards cards_;
    std::shared_ptr<const service::ServingStudy> study_;
    QString error_;
    bool running_ = false;
    bool stale_ = true;
};

} // namespace cp::gui
