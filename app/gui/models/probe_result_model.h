// Measured collective samples (from probes or imported nccl-tests logs), one row per message
// size per table, for the Probes page.
#pragma once

#include "clusterplan/sim/calibration_samples.h"

#include <QAbstractTableModel>
#include <vector>

namespace cp::gui {

class ProbeResultModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column { Collective, Ranks, Size, Time, AlgBw, BusBw, Source, ColumnCount };
    explicit ProbeResultModel(QObject* parent = nullptr);
    void setTables(std::vector<sim::CollectiveTable> tables);
    const std::vector<sim::CollectiveTable>& tables() const { return tables_; }

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static QString bytesText(double bytes);

private:
    std::vector<sim::CollectiveTable> tables_;
    std::vector<std::pair<int, int>> rows_; // (table, sample)
};

} // namespace cp::gui
