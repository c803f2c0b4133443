#include "clusterplan/sim/format.h"

#include <cmath>
#include <cstdio>

namespace cp::sim::fmt {
namespace {

bool known(double v) {
    return std::isfinite(v);
}

std::string printf_fixed(double v, int decimals) {
    // Room for the largest finite double (309 digits) with its decimals: never truncated.
    char buf[400];
    std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
    return buf;
}

void trim_zeros(std::string& s) {
    if (s.find('.') == std::string::npos) return;
    while (s.back() == '0')
        s.pop_back();
    if (s.back() == '.') s.pop_back();
}

} // namespace

std::string number(double value, int decimals, Digits digits) {
    if (!known(value)) return kUnknown;
    std::string s = printf_fixed(value, decimals);
    if (digits == Digits::trimmed) trim_zeros(s);
    return s;
}

std::string figures(double value) {
    return number(value, value < 10 ? 2 : value < 100 ? 1 : 0, Digits::trimmed);
}

std::string grouped(double value, int decimals, Digits digits) {
    if (!known(value)) return kUnknown;
    // Whole amounts round halves away from zero (llround), as a bill does; printf would round
    // them to even. Beyond the range of long long only printf can print them.
    std::string text = decimals == 0 && std::abs(value) < 9e18
                           ? std::to_string(std::llabs(std::llround(value)))
                           : printf_fixed(std::abs(value), decimals);
    if (digits == Digits::trimmed) trim_zeros(text);
    const std::size_t point = text.find('.');
    const std::string whole = text.substr(0, point);
    std::string out;
    for (std::size_t i = 0; i < whole.size(); ++i) {
        if (i > 0 && (whole.size() - i) % 3 == 0) out += ',';
        out += whole[i];
    }
    if (point != std::string::npos) out += text.substr(point);
    // "-0" is not a figure anyone wants to read.
    const bool negative = value < 0 && out.find_first_not_of("0.,") != std::string::npos;
    return negative ? "-" + out : out;
}

std::string usd(double value, int decimals, Digits digits) {
    if (!known(value)) return kUnknown;
    const std::string text = grouped(value, decimals, digits);
    return text.front() == '-' ? "-$" + text.substr(1) : "$" + text;
}

std::string usd(double value) {
    return usd(value, std::abs(value) < 100 ? 2 : 0);
}

std::string usd_short(double value) {
    if (!known(value)) return kUnknown;
    if (value >= 1e6) return "$" + number(value / 1e6, 2) + "M";
    return usd(value, 0);
}

std::string usd_per_hour(double value) {
    if (!known(value)) return kUnknown;
    return usd(value, 3) + "/h";
}

std::string usd_price(double value) {
    return usd(value, 4, Digits::trimmed);
}

std::string percent(double fraction, int decimals) {
    if (!known(fraction)) return kUnknown;
    return number(100.0 * fraction, decimals) + "%";
}

std::string duration_s(double seconds, Digits digits) {
    if (!known(seconds)) return kUnknown;
    const bool trimmed = digits == Digits::trimmed;
    if (seconds < 1.0) return (trimmed ? figures(seconds * 1e3) : number(seconds * 1e3, 1)) + " ms";
    if (seconds < 120.0) return (trimmed ? figures(seconds) : number(seconds, 2)) + " s";
    if (seconds < 7200.0) return number(seconds / 60.0, 1, digits) + " min";
    if (seconds < 48.0 * 3600.0) return number(seconds / 3600.0, 1, digits) + " h";
    return number(seconds / 86400.0, 1, digits) + " days";
}

std::string hours(double h, Digits digits) {
    return duration_s(h * 3600.0, digits);
}

std::string gib(double value) {
    if (!known(value)) return kUnknown;
    return number(value, std::abs(value) < 10 ? 2 : 1) + " GiB";
}

std::string count(double value) {
    if (!known(value)) return kUnknown;
    static const char* const suffix[] = {"", " k", " M", " B", " T", " P"};
    int i = 0;
    double v = value;
    while (std::abs(v) >= 1000.0 && i < 5) {
        v /= 1000.0;
        ++i;
    }
    return (i == 0 ? figures(v) : number(v, 2)) + suffix[i];
}

} // namespace cp::sim::fmt
