#include "format.h"

#include "clusterplan/sim/format.h"
#include "clusterplan/sim/wording.h"

#include <QCoreApplication>
#include <QLocale>
#include <cmath>

namespace cp::gui {
namespace {
QString q(const std::string& s) {
    return QString::fromStdString(s);
}
} // namespace

QString fmt_num(double value, int decimals) {
    if (std::isnan(value)) return kDash;
    return QLocale().toString(value, 'f', decimals);
}

QString fmt_usd(double usd) {
    return q(sim::fmt::usd(usd));
}

QString fmt_usd_per_hour(double usd_per_hour) {
    return q(sim::fmt::usd_per_hour(usd_per_hour));
}

QString fmt_percent(double fraction, int decimals) {
    return q(sim::fmt::percent(fraction, decimals));
}

QString fmt_duration_s(double seconds) {
    return q(sim::fmt::duration_s(seconds, sim::fmt::Digits::fixed));
}

QString fmt_hours(double hours) {
    return q(sim::fmt::hours(hours, sim::fmt::Digits::fixed));
}

QString fmt_gib(double gib) {
    return q(sim::fmt::gib(gib));
}

QString fmt_yes_no(std::optional<bool> value) {
    if (!value) return kDash;
    return *value ? QCoreApplication::translate("format", "yes")
                  : QCoreApplication::translate("format", "no");
}

QString fmt_count(double count) {
    return q(sim::fmt::count(count));
}

QString throughput_unit(sim::WorkloadKind kind) {
    return kind == sim::WorkloadKind::generic ? QCoreApplication::translate("format", "samples/s")
                                              : QCoreApplication::translate("format", "tok/s");
}

QString fmt_throughput(double tokens_per_s, double samples_per_s, sim::WorkloadKind kind) {
    const double value = kind == sim::WorkloadKind::generic ? samples_per_s : tokens_per_s;
    if (std::isnan(value)) return kDash;
    return fmt_count(value) + QLatin1Char(' ') + throughput_unit(kind);
}

QString fmt_interruptions(double expected) {
    return std::isnan(expected) ? kDash : q(sim::format_expected_interruptions(expected));
}

} // namespace cp::gui
