#include "models/probe_result_model.h"

#include "format.h"
#include "models/cell_style.h"

namespace cp::gui {

ProbeResultModel::ProbeResultModel(QObject* parent) : QAbstractTableModel(parent) {}

void ProbeResultModel::setTables(std::vector<sim::CollectiveTable> tables) {
    beginResetModel();
    tables_ = std::move(tables);
    rows_.clear();
    for (int t = 0; t < int(tables_.size()); ++t) {
        for (int s = 0; s < int(tables_[std::size_t(t)].samples.size()); ++s)
            rows_.emplace_back(t, s);
    }
    endResetModel();
}

int ProbeResultModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}
int ProbeResultModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString ProbeResultModel::bytesText(double bytes) {
    static const char* const units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
    int u = 0;
    while (bytes >= 1024 && u < 4) {
        bytes /= 1024;
        ++u;
    }
    return QStringLiteral("%1 %2").arg(bytes, 0, 'g', 4).arg(QLatin1String(units[u]));
}

QVariant ProbeResultModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(rows_.size())) return {};
    const auto [t, s] = rows_[std::size_t(index.row())];
    const sim::CollectiveTable& table = tables_[std::size_t(t)];
    const sim::CollectiveSample& x = table.samples[std::size_t(s)];
    const auto col = static_cast<Column>(index.column());
    if (role == Qt::DisplayRole) {
        switch (col) {
        case Collective:
            return QString::fromStdString(table.collective);
        case Ranks:
            return table.ranks;
        case Size:
            return bytesText(x.bytes);
        case Time:
            return fmt_num(x.time_us, 1);
        case AlgBw:
            return fmt_num(x.algbw_gbytes_per_s, 2);
        case BusBw:
            return fmt_num(x.busbw_gbytes_per_s, 2);
        case Source:
            return QString::fromStdString(table.source_format);
        case ColumnCount:
            break;
        }
        return {};
    }
    if (role == Qt::TextAlignmentRole) return cell_alignment(col == Collective || col == Source);
    return {};
}

QVariant ProbeResultModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    static const char* const kHeaders[] = {QT_TR_NOOP("Collective"),   QT_TR_NOOP("Ranks"),
                                           QT_TR_NOOP("Size"),         QT_TR_NOOP("Time (µs)"),
                                           QT_TR_NOOP("algbw (GB/s)"), QT_TR_NOOP("busbw (GB/s)"),
                                           QT_TR_NOOP("Source")};
    static const char* const kTips[] = {
        QT_TR_NOOP("Collective operation"),
        QT_TR_NOOP("Ranks (GPUs) taking part"),
        QT_TR_NOOP("Message size handed to the collective"),
        QT_TR_NOOP("Time per operation, microseconds"),
        QT_TR_NOOP("Algorithm bandwidth = size / time, GB/s (1e9 bytes/s)"),
        QT_TR_NOOP(
            "Bus bandwidth = algbw × the collective's factor (nccl-tests PERFORMANCE.md), GB/s"),
        QT_TR_NOOP("Where the numbers come from")};
    if (role == Qt::DisplayRole) return tr(kHeaders[section]);
    if (role == Qt::ToolTipRole) return tr(kTips[section]);
    return {};
}

} // namespace cp::gui
