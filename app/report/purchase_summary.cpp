// Page 1's purchase blocks: how old the prices behind the recommendation are (amber after 30
// days, red after 90), and the recommended cluster bought each way side by side.
#include "clusterplan/sim/purchase_compare.h"
#include "plan_fields.h"
#include "report_format.h"
#include "report_sections.h"

#include <cmath>

namespace cp::report {
namespace {

QString qs(const std::string& s) {
    return QString::fromStdString(s);
}

QString per_node_hour(double usd) {
    return std::isfinite(usd) ? fmt::usd_price(usd) + QStringLiteral("/h") : fmt::kUnknown;
}

} // namespace

Paragraph price_age_paragraph(const ReportData& data) {
    const PriceAge& age = data.price_age;
    if (!std::isfinite(age.days))
        return Paragraph{QStringLiteral("no catalog price was used (custom hardware priced by "
                                        "the scenario, or no plan)."),
                         QStringLiteral("Price age:")};
    const long days = std::lround(age.days);
    QString text = QStringLiteral("the oldest price behind these costs is %1 days old (%2 %3 "
                                  "price as of %4).")
                       .arg(days)
                       .arg(qs(age.instance_type),
                            age.kind == "on_demand" ? QStringLiteral("on-demand") : qs(age.kind),
                            qs(age.as_of));
    Tone tone = Tone::plain;
    if (age.days > kPriceAgeAlertDays) {
        tone = Tone::alert;
        text += QStringLiteral(" Over %1 days: rates may have changed since; run `clusterplan "
                               "catalog refresh` before committing budget.")
                    .arg(kPriceAgeAlertDays);
    } else if (age.days > kPriceAgeCautionDays) {
        tone = Tone::caution;
        text += QStringLiteral(" Over %1 days: spot prices move hourly; refresh the catalog for a "
                               "current spot figure.")
                    .arg(kPriceAgeCautionDays);
    }
    return Paragraph{text, QStringLiteral("Price age:"), tone};
}

Table purchase_options_table(const sim::PlanReport& plan) {
    Table t;
    t.set_columns({{QStringLiteral("Purchase option"), Align::left},
                   {QStringLiteral("Price per node"), Align::right},
                   {QStringLiteral("Time to train"), Align::right},
                   {QStringLiteral("Cost"), Align::right},
                   {QStringLiteral("How it is bought"), Align::left}});
    const sim::JobEconomics& job = plan.job;
    const sim::NodeSpec& node = plan.node;
    const std::vector<sim::PurchaseQuote> quotes = sim::purchase_quotes(job);
    const sim::PurchaseKind ranked = plan.spot ? sim::PurchaseKind::spot : plan.purchase;
    auto quote = [&](sim::PurchaseKind kind) -> const sim::PurchaseQuote* {
        for (const auto& q : quotes)
            if (q.kind == kind) return &q;
        return nullptr;
    };
    auto row = [&](sim::PurchaseKind kind, double rate, const QString& how,
                   const QString& missing) {
        const sim::PurchaseQuote* q = quote(kind);
        QString name = QString::fromUtf8(sim::purchase_label(kind));
        name[0] = name[0].toUpper();
        if (kind == ranked) t.emphasised_rows.push_back(static_cast<int>(t.rows.size()));
        t.rows.push_back({name, per_node_hour(rate), q ? fmt::hours(q->wall_time_h) : fmt::kUnknown,
                          q ? fmt::usd(q->cost_usd) : fmt::kUnknown, q ? how : missing});
    };
    row(sim::PurchaseKind::on_demand, plan.usd_per_node_hour,
        QStringLiteral("pay per hour, no commitment"),
        QStringLiteral("no on-demand price in the catalog"));
    const QString spot_range = std::isfinite(node.usd_per_node_hour_spot_min) &&
                                       std::isfinite(node.usd_per_node_hour_spot_max)
                                   ? QStringLiteral("; zones range %1-%2")
                                         .arg(per_node_hour(node.usd_per_node_hour_spot_min),
                                              per_node_hour(node.usd_per_node_hour_spot_max))
                                   : QString();
    row(sim::PurchaseKind::spot, plan.usd_per_node_hour_spot,
        QStringLiteral("expected, with interruptions and restarts%1%2")
            .arg(spot_range, node.spot_advisor_known
                                 ? QString()
                                 : QStringLiteral("; no Spot Advisor data: >20% reclaim assumed")),
        QStringLiteral("no spot price in the catalog"));
    const sim::CapacityBlockCost& cb = job.committed.capacity_block;
    row(sim::PurchaseKind::capacity_block, node.committed.capacity_block_usd_per_hour,
        QStringLiteral("%1 instances reserved for %2, paid up front")
            .arg(cb.reserved_nodes)
            .arg(fmt::hours(cb.block_hours)),
        cb.why_not.empty() ? QStringLiteral("no Capacity Block price for this type and region")
                           : qs(cb.why_not));
    const auto reserved = [&](sim::PurchaseKind kind, double rate, const sim::ReservedCost& r) {
        if (!std::isfinite(rate)) return; // most types have none: not worth an empty row each
        row(kind, rate,
            QStringLiteral("the job's share of a %1 commitment").arg(fmt::usd(r.commitment_usd)),
            QStringLiteral("not priced"));
    };
    reserved(sim::PurchaseKind::reserved_1y, node.committed.reserved_1y_usd_per_hour,
             job.committed.reserved_1y);
    reserved(sim::PurchaseKind::reserved_3y, node.committed.reserved_3y_usd_per_hour,
             job.committed.reserved_3y);
    t.note = QStringLiteral("The recommended cluster (%1 × %2) bought each way, one training run; "
                            "the bold row is the "
                            "option it is ranked on. Spot is priced at %3.")
                 .arg(plan.nodes)
                 .arg(qs(plan.instance), node.spot_price_basis.empty()
                                             ? QStringLiteral("the catalog's spot price")
                                             : qs(node.spot_price_basis));
    if (plan.hpo.trials > 1)
        t.note += QStringLiteral(" A tuning job of %1 trials costs about %1 times as much.")
                      .arg(plan.hpo.trials);
    return t;
}

} // namespace cp::report
