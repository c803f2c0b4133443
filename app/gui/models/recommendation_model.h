// Ranked recommendations of a sweep (Scaling page), best first.
#pragma once

#include "scaling_data.h"

#include <QAbstractTableModel>
#include <memory>

namespace cp::gui {

class RecommendationModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Rank,
        Instance,
        Nodes,
        Layout,
        Buy,
        TimeToTrain,
        Cost,
        Throughput,
        Mfu,
        ColumnCount
    };
    static constexpr int kMaxRows = 50;

    explicit RecommendationModel(QObject* parent = nullptr);
    // `kind` picks the throughput unit: tokens/s for transformers, samples/s for generic models.
    void setData(std::shared_ptr<const ScalingData> data,
                 sim::WorkloadKind kind = sim::WorkloadKind::transformer);
    const SweepPlan* planAt(int row) const;

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    std::shared_ptr<const ScalingData> data_;
    sim::WorkloadKind kind_ = sim::WorkloadKind::transformer;
};

} // namespace cp::gui
