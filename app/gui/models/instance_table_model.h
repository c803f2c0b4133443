// Table model of catalog instances for the Catalog page. Display text uses "—" for unknown
// values; Qt::UserRole carries the raw value so sorting is numeric and unknowns sort last.
#pragma once

#include "catalog_service.h"

#include <QAbstractTableModel>
#include <vector>

namespace cp::gui {

class InstanceTableModel : public QAbstractTableModel {
    Q_OBJECT
public:
    enum Column {
        Type,
        Family,
        Accelerator,
        Count,
        AccelMemory,
        Network,
        Efa,
        OnDemand,
        Spot,
        Interruption,
        PriceAge,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole;

    explicit InstanceTableModel(QObject* parent = nullptr);
    void setRows(std::vector<InstanceRow> rows);
    const InstanceRow* rowAt(int row) const;

    int rowCount(const QModelIndex& parent = QModelIndex()) const override;
    int columnCount(const QModelIndex& parent = QModelIndex()) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static QString interruptionText(int bucket);

private:
    std::vector<InstanceRow> rows_;
};

} // namespace cp::gui
