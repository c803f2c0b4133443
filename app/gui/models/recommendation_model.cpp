#include "models/recommendation_model.h"

#include "format.h"
#include "models/cell_style.h"

#include <algorithm>

namespace cp::gui {

RecommendationModel::RecommendationModel(QObject* parent) : QAbstractTableModel(parent) {}

void RecommendationModel::setData(std::shared_ptr<const ScalingData> data, sim::WorkloadKind kind) {
    beginResetModel();
    data_ = std::move(data);
    kind_ = kind; // the reset makes views read the headers again
    endResetModel();
}

const SweepPlan* RecommendationModel::planAt(int row) const {
    if (!data_ || row < 0 || row >= rowCount()) return nullptr;
    return &data_->ranked[std::size_t(row)];
}

int RecommendationModel::rowCount(const QModelIndex& parent) const {
    if (parent.isValid() || !data_) return 0;
    return std::min(kMaxRows, int(data_->ranked.size()));
}

int RecommendationModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RecommendationModel::data(const QModelIndex& index, int role) const {
    const SweepPlan* p = index.isValid() ? planAt(index.row()) : nullptr;
    if (!p) return {};
    const auto col = static_cast<Column>(index.column());
    if (role == Qt::DisplayRole) {
        switch (col) {
        case Rank:
            return index.row() + 1;
        case Instance:
            return p->instance;
        case Nodes:
            return tr("%1 (%2 dev)").arg(p->nodes).arg(p->devices);
        case Layout:
            return QStringLiteral("%1×%2×%3, mb %4")
                .arg(p->layout.tp)
                .arg(p->layout.pp)
                .arg(p->layout.dp)
                .arg(p->layout.micro_batch);
        case Buy:
            return p->spot ? tr("spot") : tr("on-demand");
        case TimeToTrain:
            return fmt_hours(p->wall_time_h);
        case Cost:
            return fmt_usd(p->option_cost_usd);
        // sim counts one token per sample for a generic model: tokens_per_s is its samples/s.
        case Throughput:
            return fmt_count(p->tokens_per_s);
        case Mfu:
            return fmt_percent(p->mfu, 0);
        case ColumnCount:
            break;
        }
        return {};
    }
    if (role == Qt::TextAlignmentRole)
        return cell_alignment(col == Instance || col == Layout || col == Buy);
    if (role == Qt::FontRole) return ranked_row_font(index.row());
    if (role == Qt::ToolTipRole) {
        return tr("%1 · %2 · on demand %3 in %4, spot %5 in %6 · double-click to open in Plan%7")
            .arg(family_label(p->family),
                 fmt_count(p->tokens_per_s) + QLatin1Char(' ') + throughput_unit(kind_),
                 fmt_usd(p->cost_usd), fmt_hours(p->time_to_train_h), fmt_usd(p->spot_cost_usd),
                 fmt_hours(p->spot_time_h), index.row() == 0 ? tr(" · recommended") : QString());
    }
    return {};
}

QVariant RecommendationModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    static const char* const kHeaders[] = {
        QT_TR_NOOP("#"),        QT_TR_NOOP("Instance"), QT_TR_NOOP("Nodes"),
        QT_TR_NOOP("TP×PP×DP"), QT_TR_NOOP("Buy"),      QT_TR_NOOP("Time"),
        QT_TR_NOOP("Cost"),     QT_TR_NOOP("Tokens/s"), QT_TR_NOOP("MFU")};
    const bool generic = kind_ == sim::WorkloadKind::generic;
    static const char* const kTips[] = {
        QT_TR_NOOP("Rank under the scenario's objective and constraints"),
        QT_TR_NOOP("Instance type"),
        QT_TR_NOOP("Nodes (total accelerators)"),
        QT_TR_NOOP("Tensor × pipeline × data parallel degrees and micro-batch size"),
        QT_TR_NOOP("Purchase option: on-demand, or spot with expected interruptions"),
        QT_TR_NOOP("Wall time of the whole job (spot: expected, including interruptions)"),
        QT_TR_NOOP("Cost of the whole job, USD (spot: expected)"),
        QT_TR_NOOP("Cluster throughput, tokens per second"),
        QT_TR_NOOP("Model FLOPs utilisation")};
    if (section == Throughput && generic) {
        if (role == Qt::DisplayRole) return tr("Samples/s");
        if (role == Qt::ToolTipRole) return tr("Cluster throughput, samples (images) per second");
    }
    if (role == Qt::DisplayRole) return tr(kHeaders[section]);
    if (role == Qt::ToolTipRole) return tr(kTips[section]);
    return {};
}

} // namespace cp::gui
