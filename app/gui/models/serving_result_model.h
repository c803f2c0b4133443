// Ranked serving deployments (Serve page), best first: only those that run; the page lists the
// instance types that cannot serve the model separately, each with its reason.
#pragma once

#include "clusterplan/sim/serving_plan.h"

#include <QAbstractTableModel>
#include <vector>

namespace cp::gui {

class ServingResultModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Rank,
        Instance,
        Count,
        Replicas,
        Engine,
        Weights,
        Tp,
        Pp,
        Batch,
        Ttft,
        Tpot,
        Throughput,
        UsdPerHour,
        UsdPerMillion,
        KvBound,
        Slo,
        ColumnCount
    };

    explicit ServingResultModel(QObject* parent = nullptr);
    // Keeps the plans that run, in the order given. `spot`: the ranking's purchase option.
    void setPlans(const std::vector<sim::ServingPlan>& plans, bool spot);
    const sim::ServingPlan* planAt(int row) const;
    // Decoder LLM (tokens) or encoder/CNN (samples, one batch latency): picks the headers.
    bool generation() const { return generation_; }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    QVariant display(const sim::ServingPlan& p, Column col, int row) const;

    std::vector<sim::ServingPlan> plans_;
    bool generation_ = true;
    bool spot_ = false;
};

} // namespace cp::gui
