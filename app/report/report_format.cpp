#include "report_format.h"

#include <QLocale>
#include <cmath>

namespace cp::report::fmt {
namespace {
const nlohmann::ordered_json* find(const nlohmann::ordered_json& doc,
                                   std::string_view dotted_path) {
    const nlohmann::ordered_json* node = &doc;
    while (!dotted_path.empty()) {
        const size_t dot = dotted_path.find('.');
        const std::string key(dotted_path.substr(0, dot));
        if (!node->is_object()) return nullptr;
        auto it = node->find(key);
        if (it == node->end()) return nullptr;
        node = &*it;
        dotted_path =
            dot == std::string_view::npos ? std::string_view() : dotted_path.substr(dot + 1);
    }
    return node;
}
bool known(double v) {
    return std::isfinite(v);
}
} // namespace

double number(const nlohmann::ordered_json& doc, std::string_view dotted_path) {
    const nlohmann::ordered_json* node = find(doc, dotted_path);
    if (node == nullptr || !node->is_number()) return std::nan("");
    return node->get<double>();
}

QString text(const nlohmann::ordered_json& doc, std::string_view dotted_path) {
    const nlohmann::ordered_json* node = find(doc, dotted_path);
    if (node == nullptr || !node->is_string()) return {};
    return QString::fromStdString(node->get<std::string>());
}

QString plain(double value, int significant) {
    if (!known(value)) return kUnknown;
    return QLocale(QLocale::English).toString(value, 'g', significant);
}

QString duration_s(double seconds) {
    if (!known(seconds)) return kUnknown;
    if (seconds < 1.0) return QStringLiteral("%1 ms").arg(plain(seconds * 1e3, 3));
    // Seconds up to ten hours, so a column of step times never mixes units.
    if (seconds < 100) return QStringLiteral("%1 s").arg(plain(seconds, 3));
    if (seconds < 36000)
        return QStringLiteral("%1 s").arg(
            QLocale(QLocale::English).toString(std::round(seconds), 'f', 0));
    return hours(seconds / 3600.0);
}

QString hours(double h) {
    if (!known(h)) return kUnknown;
    if (h < 48) return QStringLiteral("%1 h").arg(QString::number(h, 'f', h < 10 ? 2 : 1));
    return QStringLiteral("%1 days").arg(QString::number(h / 24.0, 'f', 1));
}

QString usd(double value) {
    if (!known(value)) return kUnknown;
    const QLocale en(QLocale::English);
    if (std::abs(value) >= 1000)
        return QStringLiteral("$") + en.toString(std::round(value), 'f', 0);
    return QStringLiteral("$") + en.toString(value, 'f', 2);
}

QString percent(double fraction) {
    if (!known(fraction)) return kUnknown;
    return QStringLiteral("%1 %").arg(QString::number(fraction * 100.0, 'f', 1));
}

QString rate(double per_s, const QString& unit) {
    if (!known(per_s)) return kUnknown;
    const double a = std::abs(per_s);
    if (a >= 1e9) return QStringLiteral("%1 G %2").arg(QString::number(per_s / 1e9, 'f', 2), unit);
    if (a >= 1e6) return QStringLiteral("%1 M %2").arg(QString::number(per_s / 1e6, 'f', 2), unit);
    if (a >= 1e4) return QStringLiteral("%1 k %2").arg(QString::number(per_s / 1e3, 'f', 1), unit);
    return QStringLiteral("%1 %2").arg(plain(per_s, 4), unit);
}

QString count(double value, int decimals) {
    if (!known(value)) return kUnknown;
    const double a = std::abs(value);
    if (a >= 1e12) return QStringLiteral("%1 T").arg(QString::number(value / 1e12, 'f', decimals));
    if (a >= 1e9) return QStringLiteral("%1 B").arg(QString::number(value / 1e9, 'f', decimals));
    if (a >= 1e6) return QStringLiteral("%1 M").arg(QString::number(value / 1e6, 'f', decimals));
    return QLocale(QLocale::English).toString(value, 'f', a == std::floor(a) ? 0 : decimals);
}

QString gib(double value) {
    if (!known(value)) return kUnknown;
    return QStringLiteral("%1 GiB").arg(QString::number(value, 'f', 1));
}

} // namespace cp::report::fmt
