#include "models/serving_result_model.h"

#include "clusterplan/sim/serving_wording.h"
#include "format.h"
#include "models/cell_style.h"

namespace cp::gui {

ServingResultModel::ServingResultModel(QObject* parent) : QAbstractTableModel(parent) {}

void ServingResultModel::setPlans(const std::vector<sim::ServingPlan>& plans, bool spot) {
    beginResetModel();
    plans_.clear();
    for (const sim::ServingPlan& p : plans)
        if (p.valid) plans_.push_back(p);
    generation_ = plans.empty() || plans.front().generation;
    spot_ = spot;
    endResetModel();
}

const sim::ServingPlan* ServingResultModel::planAt(int row) const {
    if (row < 0 || row >= rowCount()) return nullptr;
    return &plans_[std::size_t(row)];
}

int ServingResultModel::rowCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : int(plans_.size());
}

int ServingResultModel::columnCount(const QModelIndex& parent) const {
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant ServingResultModel::display(const sim::ServingPlan& p, Column col, int row) const {
    const double usd_per_hour = p.ranked_usd_per_hour(spot_);
    const double usd_per_million =
        spot_ ? p.spot.usd_per_million_output_tokens : p.usd_per_million_output_tokens;
    switch (col) {
    case Rank:
        return row + 1;
    case Instance:
        return QString::fromStdString(p.instance);
    case Count:
        return p.nodes;
    case Replicas:
        return p.replicas;
    case Engine:
        return QString::fromLatin1(sim::enum_name(p.engine));
    case Weights:
        return p.generation
                   ? QStringLiteral("%1 / %2").arg(QLatin1String(sim::enum_name(p.weights)),
                                                   QLatin1String(sim::enum_name(p.kv_cache)))
                   : QString::fromLatin1(sim::enum_name(p.weights));
    case Tp:
        return p.tp;
    case Pp:
        return p.pp;
    case Batch:
        return p.batch;
    case Ttft:
        return fmt_duration_s((p.generation ? p.ttft_ms : p.latency_ms) / 1e3);
    case Tpot:
        return p.generation ? fmt_duration_s(p.tpot_ms / 1e3) : kDash;
    case Throughput:
        // The deployment's capacity: every replica at its saturated rate.
        return fmt_count((p.generation ? p.output_tokens_per_s : p.samples_per_s) * p.replicas);
    case UsdPerHour:
        return fmt_usd_per_hour(usd_per_hour);
    case UsdPerMillion:
        return fmt_usd(usd_per_million);
    case KvBound:
        return p.limits.kv_bound ? tr("KV-bound") : QString();
    case Slo:
        if (!sim::is_known(p.slo.ttft_ms) && !sim::is_known(p.slo.tpot_ms)) return kDash;
        return p.meets_slo ? tr("met") : tr("missed");
    case ColumnCount:
        break;
    }
    return {};
}

QVariant ServingResultModel::data(const QModelIndex& index, int role) const {
    const sim::ServingPlan* p = index.isValid() ? planAt(index.row()) : nullptr;
    if (!p || index.column() >= ColumnCount) return {};
    const auto col = static_cast<Column>(index.column());
    if (role == Qt::DisplayRole) return display(*p, col, index.row());
    if (role == Qt::TextAlignmentRole)
        return cell_alignment(col == Instance || col == Engine || col == Weights ||
                              col == KvBound || col == Slo);
    if (role == Qt::FontRole) return ranked_row_font(index.row());
    if (role == Qt::ToolTipRole) {
        QString tip =
            tr("%1 (%2): %3 replica(s) of %4 %5 on %6 instance(s); running batch %7, "
               "utilisation %8")
                .arg(QString::fromStdString(p->instance), QString::fromStdString(p->accelerator))
                .arg(p->replicas)
                .arg(p->devices_per_replica)
                .arg(p->neuron ? tr("NeuronCore(s)") : tr("device(s)"))
                .arg(p->nodes)
                .arg(fmt_num(p->running_batch, 1), fmt_percent(p->utilization, 0));
        if (const std::string range = sim::serving_load_range_text(*p); !range.empty())
            tip += tr("\nOver the capacity's range: %1").arg(QString::fromStdString(range));
        if (p->limits.kv_bound)
            tip += tr("\nThe KV cache caps the batch: %1 of KV cache per device.")
                       .arg(fmt_gib(p->memory.kv_cache));
        if (!p->validation.empty())
            tip += QLatin1Char('\n') + QString::fromStdString(p->validation);
        return tip;
    }
    return {};
}

QVariant ServingResultModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) return {};
    static const char* const kHeaders[] = {
        QT_TR_NOOP("#"),        QT_TR_NOOP("Instance"), QT_TR_NOOP("Count"),
        QT_TR_NOOP("Replicas"), QT_TR_NOOP("Engine"),   QT_TR_NOOP("Weights / KV"),
        QT_TR_NOOP("TP"),       QT_TR_NOOP("PP"),       QT_TR_NOOP("Batch"),
        QT_TR_NOOP("TTFT"),     QT_TR_NOOP("TPOT"),     QT_TR_NOOP("Tokens/s"),
        QT_TR_NOOP("$/h"),      QT_TR_NOOP("$/1M tok"), QT_TR_NOOP("KV"),
        QT_TR_NOOP("SLO")};
    static const char* const kTips[] = {
        QT_TR_NOOP("Rank: meets the SLO, then cheapest per million tokens"),
        QT_TR_NOOP("Instance type"),
        QT_TR_NOOP("Instances the request rate needs"),
        QT_TR_NOOP("Copies of the model serving the traffic (several may share an instance)"),
        QT_TR_NOOP("Serving engine"),
        QT_TR_NOOP("Storage type of the weights / of the KV cache"),
        QT_TR_NOOP("Tensor-parallel devices per replica (NeuronCores on Inferentia/Trainium)"),
        QT_TR_NOOP("Pipeline stages per replica"),
        QT_TR_NOOP("Largest batch of concurrent sequences memory and the engine allow"),
        QT_TR_NOOP("First token at the request rate (queueing + prefill), at the SLO quantile"),
        QT_TR_NOOP("Time per output token at the request rate"),
        QT_TR_NOOP("Capacity of the deployment, output tokens per second"),
        QT_TR_NOOP("Cost per hour of all instances (the ranking's purchase option)"),
        QT_TR_NOOP("USD per million output tokens at the request rate"),
        QT_TR_NOOP("KV-bound: the KV cache's capacity caps the batch"),
        QT_TR_NOOP("Whether the latency limits are met")};
    if (!generation_ && (role == Qt::DisplayRole || role == Qt::ToolTipRole)) {
        if (section == Ttft)
            return role == Qt::DisplayRole ? tr("Latency") : tr("Latency of one batch");
        if (section == Throughput)
            return role == Qt::DisplayRole ? tr("Samples/s")
                                           : tr("Capacity of the deployment, samples per second");
        if (section == UsdPerMillion)
            return role == Qt::DisplayRole ? tr("$/1M samples") : tr("USD per million samples");
    }
    if (role == Qt::DisplayRole) return tr(kHeaders[section]);
    if (role == Qt::ToolTipRole) return tr(kTips[section]);
    return {};
}

} // namespace cp::gui
