#include "report_format.h"

#include <QLocale>
#include <cmath>

namespace cp::report::fmt {
namespace {
bool known(double v) {
    return std::isfinite(v);
}
} // namespace

QString plain(double value, int significant) {
    if (!known(value)) return kUnknown;
    return QLocale(QLocale::English).toString(value, 'g', significant);
}

} // namespace cp::report::fmt
