// Kubernetes resource quantities ("100m", "1.5", "2Gi", "1e3", "500Ki") as exact milli-units.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kd {

// Parses a Kubernetes quantity into milli-units, rounding a finer fraction up (as MilliValue()
// does). Returns nullopt for bad syntax or a value that does not fit in int64 milli-units.
inline std::optional<int64_t> parse_quantity_milli(std::string_view s) {
    if (s.empty()) return std::nullopt;
    bool neg = false;
    size_t i = 0;
    if (s[i] == '+' || s[i] == '-') neg = s[i++] == '-';
    // Digits of the mantissa without the point, and how many of them follow it.
    __int128 mant = 0;
    int frac_digits = 0;
    bool any_digit = false, seen_point = false;
    int dropped_nonzero = 0;  // precision beyond 36 digits: only whether something non-zero was cut
    int extra_int_digits = 0;
    for (; i < s.size(); ++i) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            any_digit = true;
            if (mant < (__int128)1e30) {
                mant = mant * 10 + (c - '0');
                if (seen_point) ++frac_digits;
            } else if (seen_point) {
                dropped_nonzero |= (c != '0');
            } else {
                ++extra_int_digits;
            }
        } else if (c == '.' && !seen_point) {
            seen_point = true;
        } else {
            break;
        }
    }
    if (!any_digit) return std::nullopt;
    std::string_view suffix = s.substr(i);
    // Binary suffixes multiply by 2^(10k); decimal SI and exponents by 10^k.
    int dec_exp = 0;
    int bin_exp = 0;
    if (suffix.empty()) {
    } else if (suffix == "Ki")
        bin_exp = 10;
    else if (suffix == "Mi")
        bin_exp = 20;
    else if (suffix == "Gi")
        bin_exp = 30;
    else if (suffix == "Ti")
        bin_exp = 40;
    else if (suffix == "Pi")
        bin_exp = 50;
    else if (suffix == "Ei")
        bin_exp = 60;
    else if (suffix == "n")
        dec_exp = -9;
    else if (suffix == "u")
        dec_exp = -6;
    else if (suffix == "m")
        dec_exp = -3;
    else if (suffix == "k")
        dec_exp = 3;
    else if (suffix == "M")
        dec_exp = 6;
    else if (suffix == "G")
        dec_exp = 9;
    else if (suffix == "T")
        dec_exp = 12;
    else if (suffix == "P")
        dec_exp = 15;
    else if (suffix == "E")
        dec_exp = 18;
    else if (suffix[0] == 'e' || suffix[0] == 'E') {
        std::string_view e = suffix.substr(1);
        bool eneg = false;
        if (!e.empty() && (e[0] == '+' || e[0] == '-')) {
            eneg = e[0] == '-';
            e.remove_prefix(1);
        }
        if (e.empty() || e.size() > 4) return std::nullopt;
        int v = 0;
        for (char c : e) {
            if (c < '0' || c > '9') return std::nullopt;
            v = v * 10 + (c - '0');
        }
        dec_exp = eneg ? -v : v;
    } else {
        return std::nullopt;
    }
    // value_milli = mant * 10^(dec_exp + 3 + extra_int_digits - frac_digits) * 2^bin_exp, rounded up.
    int exp10 = dec_exp + 3 + extra_int_digits - frac_digits;
    const __int128 limit = (__int128)INT64_MAX;
    __int128 v = mant;
    bool inexact = dropped_nonzero != 0;
    for (int k = 0; k < bin_exp; ++k) {
        v *= 2;
        if (v > limit) return std::nullopt;
    }
    for (; exp10 > 0; --exp10) {
        v *= 10;
        if (v > limit) return std::nullopt;
    }
    for (; exp10 < 0; ++exp10) {
        if (v % 10 != 0) inexact = true;
        v /= 10;
        if (v == 0 && !inexact) break;
    }
    if (inexact) v += 1;  // round away from zero to the next milli-unit, like MilliValue()
    if (v > limit) return std::nullopt;
    int64_t out = static_cast<int64_t>(v);
    return neg ? -out : out;
}

// Value in the resource's natural unit as the scheduler compares it: CPU in milli-cores, every
// other resource in whole units rounded up (Quantity.Value()).
inline int64_t natural_units(std::string_view resource, int64_t milli) {
    if (resource == "cpu") return milli;
    return milli >= 0 ? (milli + 999) / 1000 : -((-milli) / 1000);
}

}  // namespace kd
