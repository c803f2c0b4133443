#include "format.h"

#include <QCoreApplication>
#include <QLocale>
#include <cmath>

namespace cp::gui {

QString fmt_num(double value, int decimals) {
    if (std::isnan(value)) return kDash;
    return QLocale().toString(value, 'f', decimals);
}

QString fmt_usd(double usd) {
    if (std::isnan(usd)) return kDash;
    // Cents matter for hourly prices, not for a training run's bill.
    const int decimals = std::abs(usd) < 100 ? 2 : 0;
    return QStringLiteral("$") + QLocale().toString(usd, 'f', decimals);
}

QString fmt_usd_per_hour(double usd_per_hour) {
    if (std::isnan(usd_per_hour)) return kDash;
    return QStringLiteral("$") + QLocale().toString(usd_per_hour, 'f', 3) + QStringLiteral("/h");
}

QString fmt_percent(double fraction, int decimals) {
    if (std::isnan(fraction)) return kDash;
    return QLocale().toString(fraction * 100.0, 'f', decimals) + QStringLiteral(" %");
}

QString fmt_duration_s(double seconds) {
    if (std::isnan(seconds) || std::isinf(seconds)) return kDash;
    if (seconds < 1.0) return QLocale().toString(seconds * 1e3, 'f', 1) + QStringLiteral(" ms");
    if (seconds < 120.0) return QLocale().toString(seconds, 'f', 2) + QStringLiteral(" s");
    if (seconds < 7200.0)
        return QLocale().toString(seconds / 60.0, 'f', 1) + QStringLiteral(" min");
    if (seconds < 3.0 * 86400.0)
        return QLocale().toString(seconds / 3600.0, 'f', 1) + QStringLiteral(" h");
    return QLocale().toString(seconds / 86400.0, 'f', 1) + QStringLiteral(" days");
}

QString fmt_hours(double hours) {
    return fmt_duration_s(hours * 3600.0);
}

QString fmt_gib(double gib) {
    if (std::isnan(gib)) return kDash;
    return QLocale().toString(gib, 'f', gib < 10 ? 2 : 1) + QStringLiteral(" GiB");
}

QString fmt_yes_no(std::optional<bool> value) {
    if (!value) return kDash;
    return *value ? QCoreApplication::translate("format", "yes")
                  : QCoreApplication::translate("format", "no");
}

QString fmt_count(double count) {
    if (std::isnan(count)) return kDash;
    static const char* const suffix[] = {"", " k", " M", " B", " T", " P"};
    int i = 0;
    double v = count;
    while (std::abs(v) >= 1000.0 && i < 5) {
        v /= 1000.0;
        ++i;
    }
    return QLocale().toString(v, 'f', i == 0 ? 0 : 2) + QString::fromLatin1(suffix[i]);
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
    if (std::isnan(expected)) return kDash;
    if (expected < 0.05) return QCoreApplication::translate("format", "no interruption expected");
    const int decimals = expected < 9.95 ? 1 : 0;
    // "1.0" reads as a measurement; one interruption is a count.
    if (std::abs(expected - 1.0) < 0.05)
        return QCoreApplication::translate("format", "about 1 interruption expected");
    return QCoreApplication::translate("format", "about %1 interruptions expected")
        .arg(QLocale().toString(expected, 'f', decimals));
}

} // namespace cp::gui
