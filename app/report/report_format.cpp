#include "report_format.h"

#include <QLocale>
#include <cmath>

namespace cp::report::fmt {
namespace {
bool known(double v) {
    return std::isfinite(v);
}
} // namespace

const nlohmann::ordered_json* at_path(const nlohmann::ordered_json& doc,
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

double number(const nlohmann::ordered_json& doc, std::string_view dotted_path) {
    const nlohmann::ordered_json* node = at_path(doc, dotted_path);
    if (node == nullptr || !node->is_number()) return std::nan("");
    return node->get<double>();
}

QString text(const nlohmann::ordered_json& doc, std::string_view dotted_path) {
    const nlohmann::ordered_json* node = at_path(doc, dotted_path);
    if (node == nullptr || !node->is_string()) return {};
    return QString::fromStdString(node->get<std::string>());
}

QString plain(double value, int significant) {
    if (!known(value)) return kUnknown;
    return QLocale(QLocale::English).toString(value, 'g', significant);
}

} // namespace cp::report::fmt
