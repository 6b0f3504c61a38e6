// Kubernetes timestamps (metav1.Time): RFC 3339 as Go's time.RFC3339 parses it.
#pragma once

#include <cstdint>
#include <ctime>
#include <optional>
#include <string>
#include <string_view>

namespace kd {

namespace detail {

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
inline int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    const int64_t era = (y >= 0 ? y : y - 399) / 400;
    const unsigned yoe = static_cast<unsigned>(y - era * 400);
    const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + static_cast<int64_t>(doe) - 719468;
}

inline bool leap(int64_t y) {
    return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
}

// Reads exactly `n` digits at `pos`.
inline bool digits(std::string_view s, size_t& pos, size_t n, int& out) {
    if (pos + n > s.size()) return false;
    int v = 0;
    for (size_t i = 0; i < n; ++i) {
        char c = s[pos + i];
        if (c < '0' || c > '9') return false;
        v = v * 10 + (c - '0');
    }
    pos += n;
    out = v;
    return true;
}

inline bool expect(std::string_view s, size_t& pos, char a, char b = 0) {
    if (pos >= s.size() || (s[pos] != a && (b == 0 || s[pos] != b))) return false;
    ++pos;
    return true;
}

}  // namespace detail

// "2024-05-01T12:00:00Z", "2024-05-01T12:00:00.123456+02:00", … → Unix milliseconds (a fraction
// finer than a millisecond is dropped, rounding toward the past). nullopt for anything else,
// including out-of-range fields (month 13, 24:00, second 60).
inline std::optional<int64_t> parse_rfc3339_ms(std::string_view s) {
    using namespace detail;
    size_t p = 0;
    int year = 0, month = 0, day = 0, hour = 0, minute = 0, second = 0;
    if (!digits(s, p, 4, year) || !expect(s, p, '-') || !digits(s, p, 2, month) || !expect(s, p, '-') ||
        !digits(s, p, 2, day) || !expect(s, p, 'T', 't') || !digits(s, p, 2, hour) || !expect(s, p, ':') ||
        !digits(s, p, 2, minute) || !expect(s, p, ':') || !digits(s, p, 2, second))
        return std::nullopt;
    static constexpr int kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    if (month < 1 || month > 12 || day < 1) return std::nullopt;
    if (day > kDays[month - 1] + (month == 2 && leap(year) ? 1 : 0)) return std::nullopt;
    if (hour > 23 || minute > 59 || second > 59) return std::nullopt;
    int64_t millis = 0;
    if (p < s.size() && s[p] == '.') {
        ++p;
        size_t start = p;
        int64_t scale = 100;
        for (; p < s.size() && s[p] >= '0' && s[p] <= '9'; ++p) {
            millis += (s[p] - '0') * scale;
            scale /= 10;
        }
        if (p == start) return std::nullopt;  // Go requires a digit after the point
    }
    int offset_minutes = 0;
    if (p < s.size() && (s[p] == 'Z' || s[p] == 'z')) {
        ++p;
    } else if (p < s.size() && (s[p] == '+' || s[p] == '-')) {
        int sign = s[p++] == '-' ? -1 : 1;
        int oh = 0, om = 0;
        if (!digits(s, p, 2, oh) || !expect(s, p, ':') || !digits(s, p, 2, om) || oh > 23 || om > 59)
            return std::nullopt;
        offset_minutes = sign * (oh * 60 + om);
    } else {
        return std::nullopt;
    }
    if (p != s.size()) return std::nullopt;
    int64_t secs = days_from_civil(year, static_cast<unsigned>(month), static_cast<unsigned>(day)) * 86400 +
                   hour * 3600 + minute * 60 + second - offset_minutes * 60;
    return secs * 1000 + millis;
}

// Unix milliseconds → "2024-05-01T12:00:00Z" (whole seconds, UTC), as metav1.Time marshals.
inline std::string format_rfc3339(int64_t unix_ms) {
    std::time_t secs = static_cast<std::time_t>(unix_ms >= 0 ? unix_ms / 1000 : (unix_ms - 999) / 1000);
    std::tm tm{};
    gmtime_r(&secs, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
    return buf;
}

}  // namespace kd
