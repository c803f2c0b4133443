#include "catalog_service.h"

#include "clusterplan/catalog/catalog.h"
#include "clusterplan/catalog/importers.h"
#include "clusterplan/service/catalog_refresh.h"
#include "clusterplan/sim/presets.h"
#include "format.h"

#include <QObject>
#include <cmath>
#include <exception>
#include <stdexcept>

namespace cp::gui {

namespace {
double opt(const std::optional<double>& v) {
    return v ? *v : sim::kUnknown;
}
QString q(const std::string& s) {
    return QString::fromStdString(s);
}

// A published estimate carries "(est.)" wherever it is shown, as in `catalog show`.
QString estimated(const catalog::AcceleratorInfo& a, const char* field, QString text) {
    return a.is_estimated(field) ? text + QObject::tr(" (est.)") : text;
}

QString tflops(const catalog::AcceleratorInfo& a, const std::optional<double>& v, const char* field,
               const char* unit = "TFLOP/s") {
    return v ? estimated(a, field, QStringLiteral("%1 %2").arg(fmt_num(*v, 1), QLatin1String(unit)))
             : kDash;
}

std::string region_or_default(const QString& region) {
    return region.isEmpty() ? std::string(catalog::kDefaultRegion) : region.toStdString();
}

InstanceRow to_row(const catalog::InstanceInfo& i, const catalog::Catalog& db) {
    InstanceRow r;
    r.type = q(i.instance_type);
    r.family = q(i.family);
    r.accelerator = q(i.accelerator);
    r.accelerator_count = i.accelerator_count;
    r.accelerator_memory_gib = opt(i.accelerator_memory_gib_each);
    r.network_gbps = opt(i.network_gbps);
    r.network_up_to = i.network_is_up_to;
    r.efa = i.efa;
    r.interconnect = q(i.intra_node_interconnect);
    r.on_demand_usd_per_hour = opt(i.on_demand_usd_per_hour);
    // The spot price plans use (a statistic of the zone's history), not the lowest observation.
    const sim::SpotPriceSummary spot = db.spot_price_summary(i.instance_type, i.region);
    r.spot_usd_per_hour = spot.known ? spot.usd_per_hour : sim::kUnknown;
    r.spot_min_usd_per_hour = spot.known ? spot.min_usd_per_hour : sim::kUnknown;
    r.spot_max_usd_per_hour = spot.known ? spot.max_usd_per_hour : sim::kUnknown;
    r.spot_basis = q(spot.basis);
    r.region = q(i.region);
    r.interruption_bucket = i.interruption_bucket.value_or(-1);
    r.price_as_of = q(i.price_as_of);
    r.price_age_days = opt(i.price_age_days);
    if (!i.accelerator.empty()) {
        if (auto a = db.accelerator(i.accelerator)) {
            r.vendor = q(a->vendor);
            r.can_train = !a->inference_only;
            r.accelerator_estimated = !a->estimated_fields.empty();
            r.estimate_source = q(a->estimate_source);
        }
    }
    return r;
}
} // namespace

CatalogService::CatalogService() {
    path_ = QString::fromStdString(catalog::default_database_path().string());
    reload();
}

CatalogService::~CatalogService() = default;

void CatalogService::reload() {
    try {
        db_ = std::make_unique<catalog::Catalog>(catalog::default_database_path());
        open_error_.clear();
    } catch (const std::exception& e) {
        db_.reset();
        open_error_ = QString::fromStdString(e.what());
    }
}

QString CatalogService::summary() const {
    if (!db_) return QObject::tr("Catalog unavailable: %1").arg(open_error_);
    return QObject::tr("Catalog %1: %2 instance types, %3 accelerators")
        .arg(path_)
        .arg(db_->instances().size())
        .arg(db_->accelerators().size());
}

std::vector<InstanceRow> CatalogService::instances(const QString& region) const {
    std::vector<InstanceRow> rows;
    if (!db_) return rows;
    catalog::InstanceFilter filter;
    filter.region = region_or_default(region);
    for (const catalog::InstanceInfo& i : db_->instances(filter))
        rows.push_back(to_row(i, *db_));
    return rows;
}

std::optional<InstanceDetail> CatalogService::detail(const QString& type,
                                                     const QString& region) const {
    if (!db_) return std::nullopt;
    const auto info = db_->instance(type.toStdString(), region_or_default(region));
    if (!info) return std::nullopt;
    InstanceDetail d;
    d.row = to_row(*info, *db_);
    d.vcpus = info->vcpus ? double(*info->vcpus) : std::nan("");
    d.memory_gib = opt(info->memory_gib);
    d.notes = q(info->notes);
    d.source = q(info->source);
    if (auto a = db_->accelerator(info->accelerator)) {
        auto& s = d.accelerator_specs;
        s.emplace_back(QObject::tr("Accelerator"),
                       q(a->name) + QStringLiteral(" · ") + q(a->vendor));
        s.emplace_back(QObject::tr("Kind"), a->inference_only
                                                ? QObject::tr("inference only (cannot train)")
                                            : a->is_gpu ? QObject::tr("GPU")
                                                        : QObject::tr("accelerator (not a GPU)"));
        s.emplace_back(QObject::tr("Memory"),
                       a->memory_gib ? estimated(*a, "memory_gib",
                                                 QStringLiteral("%1 (%2)").arg(
                                                     fmt_gib(*a->memory_gib), q(a->memory_type)))
                                     : kDash);
        s.emplace_back(QObject::tr("Memory bandwidth"),
                       a->hbm_gbytes_per_s ? estimated(*a, "hbm_gbytes_per_s",
                                                       QStringLiteral("%1 GB/s").arg(
                                                           fmt_num(*a->hbm_gbytes_per_s, 0)))
                                           : kDash);
        s.emplace_back(QObject::tr("FP32"), tflops(*a, a->fp32_tflops, "fp32_tflops"));
        s.emplace_back(QObject::tr("TF32 dense"), tflops(*a, a->tf32_tflops, "tf32_tflops"));
        s.emplace_back(QObject::tr("FP16 dense"), tflops(*a, a->fp16_tflops, "fp16_tflops"));
        s.emplace_back(QObject::tr("BF16 dense"), tflops(*a, a->bf16_tflops, "bf16_tflops"));
        s.emplace_back(QObject::tr("FP8 dense"), tflops(*a, a->fp8_tflops, "fp8_tflops"));
        s.emplace_back(QObject::tr("INT8 dense"), tflops(*a, a->int8_tops, "int8_tops", "TOP/s"));
        s.emplace_back(QObject::tr("Intra-node link"),
                       a->intra_node_link.empty() ? kDash
                       : a->link_gbytes_per_s
                           ? QStringLiteral("%1, %2 GB/s")
                                 .arg(q(a->intra_node_link), fmt_num(*a->link_gbytes_per_s, 0))
                           : q(a->intra_node_link));
        s.emplace_back(QObject::tr("Host link"), a->host_link.empty() ? kDash : q(a->host_link));
        s.emplace_back(QObject::tr("Power"),
                       a->tdp_w ? QStringLiteral("%1 W").arg(fmt_num(*a->tdp_w, 0)) : kDash);
        s.emplace_back(QObject::tr("Software"),
                       a->software_stack.empty() ? kDash : q(a->software_stack));
        s.emplace_back(QObject::tr("Source"), a->source.empty() ? kDash : q(a->source));
        if (!a->estimated_fields.empty())
            s.emplace_back(QObject::tr("Estimates"), q(a->estimate_source));
    }
    for (const catalog::PriceRow& p : db_->prices(info->instance_type, true)) {
        d.prices.push_back({q(p.region), p.zone.empty() ? QObject::tr("(region)") : q(p.zone),
                            q(p.kind), p.usd_per_hour, q(p.as_of), q(p.source)});
    }
    return d;
}

std::vector<InstanceChoice> CatalogService::instanceChoices() const {
    std::vector<InstanceChoice> out;
    if (!db_) return out;
    for (const sim::NodeSpec& n : db_->trainable_node_specs()) {
        out.push_back(
            {q(n.instance_type),
             QStringLiteral("%1 × %2").arg(n.accelerators_per_node).arg(q(n.accelerator.id)),
             n.accelerators_per_node});
    }
    return out;
}

QStringList CatalogService::regionChoices() const {
    QStringList out;
    if (db_) {
        for (const std::string& r : service::region_choices(*db_))
            out << q(r);
    }
    return out;
}

QStringList CatalogService::pricedRegions() const {
    QStringList out;
    if (db_) {
        for (const std::string& r : db_->price_regions())
            out << q(r);
    }
    return out;
}

QStringList CatalogService::acceleratorChoices() const {
    QStringList out;
    if (!db_) return out;
    for (const catalog::AcceleratorInfo& a : db_->accelerators()) {
        if (!a.inference_only) out << q(a.id);
    }
    return out;
}

std::vector<PresetChoice> CatalogService::presetChoices() const {
    std::vector<PresetChoice> out;
    try {
        for (const sim::ModelPreset& p : sim::model_presets()) {
            // Generic presets (ResNet-50) are offered too: the editor shows their size, not a
            // shape.
            out.push_back({q(p.id), q(p.title), p.workload, p.global_batch});
        }
    } catch (const std::exception&) {
        // A bad embedded preset file is a build defect that the sim tests catch; offer none.
    }
    return out;
}

QStringList CatalogService::importFormats() {
    return {QString(),
            QStringLiteral("aws-spot-history"),
            QStringLiteral("spot-advisor"),
            QStringLiteral("skypilot"),
            QStringLiteral("aws-price-list"),
            QStringLiteral("csv"),
            QStringLiteral("aws-spot-feed"),
            QStringLiteral("capacity-blocks")};
}

QString CatalogService::importFile(const QString& database_path, const QString& file,
                                   const QString& format, const std::atomic<bool>* cancel,
                                   QString* summary) {
    try {
        catalog::ImportOptions options;
        if (cancel) {
            options.on_record = [cancel](std::size_t) {
                // Throwing inside the import's transaction rolls every staged record back.
                if (cancel->load())
                    throw std::runtime_error("import cancelled; nothing was changed");
            };
        }
        if (!format.isEmpty()) {
            options.format = catalog::parse_format(format.toStdString());
            if (!options.format)
                return QObject::tr("%1: unknown import format '%2'.").arg(file, format);
        }
        // Own connection: imports run on a worker thread while the window keeps reading.
        catalog::Catalog db{std::filesystem::path(database_path.toStdString())};
        const catalog::ImportReport report =
            catalog::import_file(db, std::filesystem::path(file.toStdString()), options);
        if (summary) *summary = QString::fromStdString(report.summary());
        return {};
    } catch (const std::exception& e) {
        return QString::fromStdString(e.what());
    }
}

QString CatalogService::rebuildFromSnapshot() {
    try {
        db_.reset();
        backup_path_ = QString::fromStdString(
            catalog::Catalog::rebuild_from_snapshot(path_.toStdString()).string());
    } catch (const std::exception& e) {
        reload();
        return QString::fromStdString(e.what());
    }
    reload();
    return open_error_;
}

} // namespace cp::gui
