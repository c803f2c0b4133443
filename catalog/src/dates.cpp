#include "dates.h"

#include <charconv>
#include <chrono>
#include <cstdio>

namespace cp::catalog::detail {
namespace {

bool read_int(std::string_view s, std::size_t pos, std::size_t len, int& out) {
    if (pos + len > s.size()) return false;
    for (std::size_t i = pos; i < pos + len; ++i)
        if (s[i] < '0' || s[i] > '9') return false;
    std::from_chars(s.data() + pos, s.data() + pos + len, out);
    return true;
}

bool valid_date(int y, int m, int d) {
    using namespace std::chrono;
    return year_month_day{year{y}, month{static_cast<unsigned>(m)}, day{static_cast<unsigned>(d)}}
               .ok() &&
           y >= 1970 && y <= 9999;
}

std::string format_ts(std::chrono::sys_seconds t) {
    using namespace std::chrono;
    const auto days = floor<std::chrono::days>(t);
    const year_month_day ymd{days};
    const hh_mm_ss hms{t - days};
    char buf[32];
    std::snprintf(buf, sizeof buf, "%04d-%02u-%02uT%02d:%02d:%02dZ", int(ymd.year()),
                  unsigned(ymd.month()), unsigned(ymd.day()), int(hms.hours().count()),
                  int(hms.minutes().count()), int(hms.seconds().count()));
    return buf;
}

// Seconds since the epoch for a normalised string (month form = first of the month).
std::optional<std::chrono::sys_seconds> to_time(std::string_view s) {
    using namespace std::chrono;
    int y = 0, m = 0, d = 1, hh = 0, mm = 0, ss = 0;
    if (!read_int(s, 0, 4, y) || s.size() < 7 || s[4] != '-' || !read_int(s, 5, 2, m))
        return std::nullopt;
    if (s.size() >= 10) {
        if (s[7] != '-' || !read_int(s, 8, 2, d)) return std::nullopt;
    }
    if (s.size() >= 19) {
        if (!read_int(s, 11, 2, hh) || !read_int(s, 14, 2, mm) || !read_int(s, 17, 2, ss))
            return std::nullopt;
    }
    if (m < 1 || m > 12 || !valid_date(y, m, d)) return std::nullopt;
    const sys_days day_point{
        year_month_day{year{y}, month{static_cast<unsigned>(m)}, day{static_cast<unsigned>(d)}}};
    return sys_seconds{day_point} + hours{hh} + minutes{mm} + seconds{ss};
}

} // namespace

std::optional<std::string> normalize_timestamp(std::string_view s) {
    using namespace std::chrono;
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t'))
        s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
        s.remove_suffix(1);
    int y = 0, mo = 0, d = 0;
    if (!read_int(s, 0, 4, y) || s.size() < 7 || s[4] != '-' || !read_int(s, 5, 2, mo))
        return std::nullopt;
    if (mo < 1 || mo > 12 || y < 1970) return std::nullopt;
    if (s.size() == 7) return std::string(s);
    if (s.size() < 10 || s[7] != '-' || !read_int(s, 8, 2, d) || !valid_date(y, mo, d))
        return std::nullopt;
    if (s.size() == 10) return std::string(s);
    if (s[10] != 'T' && s[10] != ' ') return std::nullopt;
    int hh = 0, mi = 0, se = 0;
    if (!read_int(s, 11, 2, hh) || s.size() < 19 || s[13] != ':' || !read_int(s, 14, 2, mi) ||
        s[16] != ':' || !read_int(s, 17, 2, se))
        return std::nullopt;
    if (hh > 23 || mi > 59 || se > 60) return std::nullopt; // 60: leap second
    std::size_t pos = 19;
    if (pos < s.size() && s[pos] == '.') {
        ++pos;
        const std::size_t start = pos;
        while (pos < s.size() && s[pos] >= '0' && s[pos] <= '9')
            ++pos;
        if (pos == start) return std::nullopt;
    }
    int offset_min = 0;
    if (pos == s.size()) {
        // No zone designator: the "YYYY-MM-DD HH:MM:SS" form is taken as UTC.
    } else if (s[pos] == 'Z' && pos + 1 == s.size()) {
    } else if ((s[pos] == '+' || s[pos] == '-') && s.size() == pos + 6 && s[pos + 3] == ':') {
        int oh = 0, om = 0;
        if (!read_int(s, pos + 1, 2, oh) || !read_int(s, pos + 4, 2, om) || oh > 14 || om > 59)
            return std::nullopt;
        offset_min = (s[pos] == '+' ? 1 : -1) * (oh * 60 + om);
    } else {
        return std::nullopt;
    }
    const sys_days day_point{
        year_month_day{year{y}, month{static_cast<unsigned>(mo)}, day{static_cast<unsigned>(d)}}};
    const sys_seconds t = sys_seconds{day_point} + hours{hh} + minutes{mi} +
                          seconds{std::min(se, 59)} - minutes{offset_min};
    return format_ts(t);
}

std::optional<double> age_days(std::string_view iso) {
    const auto t = to_time(iso);
    if (!t) return std::nullopt;
    // In seconds: a nanosecond difference overflows int64 for dates ~300 years away.
    const auto now = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
    return static_cast<double>((now - *t).count()) / 86400.0;
}

std::string now_utc_timestamp() {
    return format_ts(std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now()));
}

std::string today_utc() {
    return now_utc_timestamp().substr(0, 10);
}

std::string now_utc_compact() {
    std::string out;
    for (char c : now_utc_timestamp())
        if (c != '-' && c != ':') out += c;
    return out;
}

} // namespace cp::catalog::detail
