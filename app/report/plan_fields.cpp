#include "plan_fields.h"

#include "report_format.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <utility>
#include <vector>

namespace cp::report {
namespace {
int integer(const nlohmann::ordered_json& plan, std::string_view path) {
    const double v = fmt::number(plan, path);
    return std::isfinite(v) ? static_cast<int>(std::lround(v)) : 0;
}
} // namespace

QString plan_instance(const nlohmann::ordered_json& plan) {
    for (const char* path : {"instance", "cluster.instance", "instance_type"}) {
        const QString value = fmt::text(plan, path);
        if (!value.isEmpty()) return value;
    }
    return QStringLiteral("custom");
}

int plan_nodes(const nlohmann::ordered_json& plan) {
    const int nodes = integer(plan, "nodes");
    return nodes > 0 ? nodes : integer(plan, "cluster.nodes");
}

int plan_devices(const nlohmann::ordered_json& plan) {
    for (const char* path : {"devices", "cluster.devices"}) {
        if (const int v = integer(plan, path); v > 0) return v;
    }
    return integer(plan, "layout.tp") * integer(plan, "layout.pp") * integer(plan, "layout.dp");
}

QString plan_accelerator(const nlohmann::ordered_json& plan) {
    for (const char* path : {"accelerator", "cluster.accelerator"}) {
        const QString value = fmt::text(plan, path);
        if (!value.isEmpty()) return value;
    }
    return {};
}

QString plan_layout_text(const nlohmann::ordered_json& plan) {
    QStringList parts;
    parts << QStringLiteral("TP %1").arg(integer(plan, "layout.tp"))
          << QStringLiteral("PP %1").arg(integer(plan, "layout.pp"))
          << QStringLiteral("DP %1").arg(integer(plan, "layout.dp"))
          << QStringLiteral("mb %1").arg(integer(plan, "layout.micro_batch"));
    if (const int v = integer(plan, "layout.virtual_stages"); v > 1)
        parts << QStringLiteral("v %1").arg(v);
    if (const int z = integer(plan, "layout.zero"); z > 0)
        parts << QStringLiteral("ZeRO-%1").arg(z);
    const QString recompute = fmt::text(plan, "layout.recompute");
    if (!recompute.isEmpty() && recompute != QLatin1String("none"))
        parts << QStringLiteral("recompute %1").arg(recompute);
    return parts.join(QStringLiteral(" · "));
}

QString plan_layout_compact(const nlohmann::ordered_json& plan) {
    // Non-breaking spaces: the layout reads as one token and never wraps inside a table cell.
    QString out = QStringLiteral("TP%1\u00a0PP%2\u00a0DP%3\u00a0mb%4")
                      .arg(integer(plan, "layout.tp"))
                      .arg(integer(plan, "layout.pp"))
                      .arg(integer(plan, "layout.dp"))
                      .arg(integer(plan, "layout.micro_batch"));
    if (const int v = integer(plan, "layout.virtual_stages"); v > 1)
        out += QStringLiteral("\u00a0v%1").arg(v);
    if (const int z = integer(plan, "layout.zero"); z > 0)
        out += QStringLiteral("\u00a0Z%1").arg(z);
    const QString recompute = fmt::text(plan, "layout.recompute");
    if (recompute == QLatin1String("selective")) out += QStringLiteral("\u00a0sel");
    if (recompute == QLatin1String("full")) out += QStringLiteral("\u00a0full");
    return out;
}

bool plan_is_spot(const nlohmann::ordered_json& plan) {
    return fmt::text(plan, "purchase") == QLatin1String("spot");
}

namespace {
// The first of `paths` that holds a number; NaN when none does.
double first_number(const nlohmann::ordered_json& plan, std::initializer_list<const char*> paths) {
    for (const char* path : paths) {
        if (const double v = fmt::number(plan, path); std::isfinite(v)) return v;
    }
    return std::nan("");
}
} // namespace

double plan_job_hours(const nlohmann::ordered_json& plan, bool spot) {
    if (spot) {
        if (!std::isfinite(fmt::number(plan, "cost_spot_usd"))) return std::nan("");
        return first_number(plan, {"tuning.spot_wall_time_h", "spot.wall_time_h"});
    }
    return first_number(plan, {"tuning.wall_time_h", "time_to_train_h"});
}

double plan_job_cost_usd(const nlohmann::ordered_json& plan, bool spot) {
    if (spot) {
        if (!std::isfinite(fmt::number(plan, "cost_spot_usd"))) return std::nan("");
        return first_number(plan, {"tuning.spot_cost_usd", "cost_spot_usd"});
    }
    return first_number(plan, {"tuning.cost_usd", "cost_usd"});
}

double plan_spot_interruptions(const nlohmann::ordered_json& plan) {
    if (!std::isfinite(fmt::number(plan, "cost_spot_usd"))) return std::nan("");
    return fmt::number(plan, "spot_expected_interruptions");
}

int plan_trials(const nlohmann::ordered_json& plan) {
    const double trials = fmt::number(plan, "tuning.trials");
    return std::isfinite(trials) && trials > 1 ? static_cast<int>(std::lround(trials)) : 1;
}

QString plan_short_label(const nlohmann::ordered_json& plan, int rank) {
    return QStringLiteral("#%1 %2 ×%3%4")
        .arg(rank)
        .arg(plan_instance(plan))
        .arg(plan_nodes(plan))
        .arg(plan_is_spot(plan) ? QStringLiteral(" spot") : QString());
}

QStringList plan_explanation(const nlohmann::ordered_json& plan) {
    QStringList out;
    for (const char* key : {"explanation", "explanations", "why", "reasons"}) {
        auto it = plan.find(key);
        if (it == plan.end()) continue;
        if (it->is_string()) out << QString::fromStdString(it->get<std::string>());
        if (it->is_array()) {
            for (const auto& item : *it) {
                if (item.is_string()) out << QString::fromStdString(item.get<std::string>());
            }
        }
    }
    return out;
}

QString plan_limits(const nlohmann::ordered_json& plan) {
    const double step = fmt::number(plan, "step_time_s");
    QStringList parts;
    if (std::isfinite(step) && step > 0) {
        const std::vector<std::pair<const char*, QString>> overheads = {
            {"breakdown_s.pp_bubble", QStringLiteral("pipeline bubble")},
            {"breakdown_s.tp_comm", QStringLiteral("tensor-parallel communication")},
            {"breakdown_s.dp_comm_exposed", QStringLiteral("exposed gradient sync (network)")},
            {"breakdown_s.pp_comm", QStringLiteral("pipeline transfers")},
            {"breakdown_s.recompute", QStringLiteral("activation recompute")},
            {"breakdown_s.host_overhead", QStringLiteral("host-bound kernel issue")},
            {"breakdown_s.cp_comm", QStringLiteral("context-parallel transfers")},
        };
        std::vector<std::pair<double, QString>> shares;
        for (const auto& [path, name] : overheads) {
            const double v = fmt::number(plan, path);
            if (std::isfinite(v) && v / step >= 0.02) shares.emplace_back(v / step, name);
        }
        std::sort(shares.begin(), shares.end(),
                  [](const auto& a, const auto& b) { return a.first > b.first; });
        for (size_t i = 0; i < shares.size() && i < 2; ++i) {
            parts << QStringLiteral("%1 takes %2 of each step")
                         .arg(shares[i].second, fmt::percent(shares[i].first));
        }
        if (shares.empty()) parts << QStringLiteral("the step is almost entirely compute");
    }
    const double used = fmt::number(plan, "memory_gib.total");
    const double capacity = fmt::number(plan, "memory_gib.capacity");
    if (std::isfinite(used) && std::isfinite(capacity) && capacity > 0) {
        parts << QStringLiteral("memory %1 of %2 per device (%3)")
                     .arg(fmt::gib(used), fmt::gib(capacity), fmt::percent(used / capacity));
    }
    const double interruptions = plan_spot_interruptions(plan);
    if (std::isfinite(interruptions)) {
        parts << QStringLiteral("on spot, %1 interruptions expected")
                     .arg(QString::number(interruptions, 'f', 1));
    }
    return parts.join(QStringLiteral("; "));
}

} // namespace cp::report
