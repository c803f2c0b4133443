#include "models/instance_table_model.h"

#include "format.h"
#include "models/cell_style.h"

#include <cmath>
#include <limits>

namespace cp::gui {

namespace {
// Unknown numbers sort after every known one in ascending order.
QVariant sort_value(double v) {
    return std::isnan(v) ? QVariant(std::numeric_limits<double>::max()) : QVariant(v);
}

// Size order within a family: xlarge < 2xlarge < 12xlarge < metal. Digit runs compare as
// numbers (zero-padded); a bare "xlarge" counts as 1xlarge and "metal" as the largest.
QString natural_key(QString text) {
    const qsizetype dot = text.indexOf(QLatin1Char('.'));
    if (dot >= 0) {
        const QString size = text.mid(dot + 1);
        if (size.startsWith(QLatin1String("xlarge")))
            text.insert(dot + 1, QLatin1Char('1'));
        else if (size.startsWith(QLatin1String("metal")))
            text.insert(dot + 1, QStringLiteral("99999999"));
    }
    QString out;
    QString digits;
    auto flush = [&] {
        if (!digits.isEmpty()) out += digits.rightJustified(8, QLatin1Char('0'));
        digits.clear();
    };
    for (const QChar c : text) {
        if (c.isDigit()) {
            digits += c;
        } else {
            flush();
            out += c;
        }
    }
    flush();
    return out;
}
} // namespace

InstanceTableModel::InstanceTableModel(QObject* parent) : QAbstractTableModel(parent) {}

void InstanceTableModel::setRows(std::vector<InstanceRow> rows) {
    beginResetModel();
    rows_ = std::move(rows);
    endResetModel();
}

const InstanceRow* InstanceTableModel::rowAt(int row) const {
    return row >= 0 && row < int(rows_.size()) ? &rows_[std::size_t(row)] : nullptr;
}

int InstanceTableModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(rows_.size());
}

int InstanceTableModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QString InstanceTableModel::interruptionText(int bucket) {
    static const char* const kBuckets[] = {"<5 %", "5–10 %", "10–15 %", "15–20 %", ">20 %"};
    return bucket >= 0 && bucket < 5 ? QString::fromUtf8(kBuckets[bucket]) : kDash;
}

QVariant InstanceTableModel::data(const QModelIndex& index, int role) const {
    if (!index.isValid() || index.row() >= int(rows_.size())) return {};
    const InstanceRow& r = rows_[std::size_t(index.row())];
    const auto col = static_cast<Column>(index.column());
    if (role == Qt::DisplayRole) {
        switch (col) {
        case Type:
            return r.type;
        case Family:
            return r.family;
        case Accelerator:
            // "*": some figure of the accelerator is a published estimate (tooltip says which).
            if (r.accelerator.isEmpty()) return kDash;
            return r.accelerator_estimated ? r.accelerator + QStringLiteral(" *") : r.accelerator;
        case Count:
            return r.accelerator_count;
        case AccelMemory:
            return fmt_num(r.accelerator_memory_gib, 0);
        case Network:
            if (std::isnan(r.network_gbps)) return kDash;
            return (r.network_up_to ? tr("up to ") : QString()) + fmt_num(r.network_gbps, 0);
        case Efa:
            return fmt_yes_no(r.efa);
        case OnDemand:
            return std::isnan(r.on_demand_usd_per_hour) ? kDash
                                                        : fmt_num(r.on_demand_usd_per_hour, 3);
        case Spot:
            return std::isnan(r.spot_usd_per_hour) ? kDash : fmt_num(r.spot_usd_per_hour, 3);
        case Interruption:
            return interruptionText(r.interruption_bucket);
        case PriceAge:
            return std::isnan(r.price_age_days) ? kDash
                                                : tr("%1 d").arg(fmt_num(r.price_age_days, 0));
        case ColumnCount:
            break;
        }
        return {};
    }
    if (role == SortRole) {
        switch (col) {
        case Count:
            return r.accelerator_count;
        case AccelMemory:
            return sort_value(r.accelerator_memory_gib);
        case Network:
            return sort_value(r.network_gbps);
        case OnDemand:
            return sort_value(r.on_demand_usd_per_hour);
        case Spot:
            return sort_value(r.spot_usd_per_hour);
        case Interruption:
            return r.interruption_bucket < 0 ? 99 : r.interruption_bucket;
        case PriceAge:
            return sort_value(r.price_age_days);
        case Type:
            return natural_key(r.type);
        // Within a family, instances stay in size order rather than catalog order.
        case Family:
            return r.family + QChar(1) + natural_key(r.type);
        default:
            return data(index, Qt::DisplayRole);
        }
    }
    if (role == Qt::TextAlignmentRole)
        return cell_alignment(!(col == Count || col == AccelMemory || col == Network ||
                                col == OnDemand || col == Spot || col == PriceAge));
    if (role == Qt::ToolTipRole) {
        if (!r.can_train)
            return tr("%1 is an inference accelerator: plan serving on it (clusterplan serve); "
                      "training is not offered.")
                .arg(r.accelerator);
        if (col == PriceAge)
            return tr("On-demand price as of %1")
                .arg(r.price_as_of.isEmpty() ? kDash : r.price_as_of);
        if (col == Accelerator && r.accelerator_estimated)
            return tr("* Published estimates, not datasheet values: %1").arg(r.estimate_source);
        if (col == Spot && !r.spot_basis.isEmpty()) return r.spot_basis;
        return {};
    }
    return {};
}

QVariant InstanceTableModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal) return {};
    static const char* const kHeaders[] = {
        QT_TR_NOOP("Instance"), QT_TR_NOOP("Family"), QT_TR_NOOP("Accelerator"),
        QT_TR_NOOP("#"),        QT_TR_NOOP("GiB"),    QT_TR_NOOP("Gbps"),
        QT_TR_NOOP("EFA"),      QT_TR_NOOP("OD $/h"), QT_TR_NOOP("Spot $/h"),
        QT_TR_NOOP("Reclaim"),  QT_TR_NOOP("Age")};
    static const char* const kTips[] = {
        QT_TR_NOOP("EC2 instance type"),
        QT_TR_NOOP("Instance family"),
        QT_TR_NOOP("Accelerator model (GPU, Trainium, Inferentia or Gaudi)"),
        QT_TR_NOOP("Accelerators per instance"),
        QT_TR_NOOP("Memory per accelerator, GiB"),
        QT_TR_NOOP("Instance network bandwidth, Gbit/s (\"up to\" = burst, not sustained)"),
        QT_TR_NOOP("Elastic Fabric Adapter for low-latency collectives"),
        QT_TR_NOOP("On-demand price per instance-hour, USD, in the region picked above"),
        QT_TR_NOOP("Spot price per instance-hour, USD: the median of the last 30 days in the "
                   "typical zone of the region (the range over zones is in the tooltip)"),
        QT_TR_NOOP("Spot Advisor frequency of interruption: share of capacity reclaimed per month"),
        QT_TR_NOOP("Days since the on-demand price was recorded")};
    if (section < 0 || section >= ColumnCount) return {};
    if (role == Qt::DisplayRole) return tr(kHeaders[section]);
    if (role == Qt::ToolTipRole) return tr(kTips[section]);
    return {};
}

} // namespace cp::gui
