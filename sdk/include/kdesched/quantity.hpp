// Kubernetes resource quantities ("100m", "1.5", "2Gi", "1e3", "500Ki") as exact milli-units.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kd {

// Parses a Kubernetes quantity into milli-units, rounding a finer fraction up (away from zero, as
// MilliValue() does). The syntax is the API's: [+-] digits [. digits] (or [+-] . digits), then an
// optional suffix Ki Mi Gi Ti Pi Ei | n u m k M G T P E | e/E [+-] digits. Returns nullopt for bad
// syntax or a value that does not fit in int64 milli-units.
inline std::optional<int64_t> parse_quantity_milli(std::string_view s) {
    // __int128 is a GCC/clang extension: __extension__ keeps -Wpedantic quiet in plugins' builds.
    __extension__ using i128 = __int128;
    if (s.empty()) return std::nullopt;
    bool neg = false;
    size_t i = 0;
    if (s[i] == '+' || s[i] == '-') neg = s[i++] == '-';
    // 28 significant digits are kept exactly (mantissa < 10^28, so mantissa * 2^60 fits in 128
    // bits); later digits only shift the exponent and record whether something non-zero was cut.
    // That is exact for decimal suffixes (an int64 milli-value has at most 19 digits above the
    // milli position); with a binary suffix, only a fraction of more than 28 digits could round
    // differently.
    const i128 kMantissaCap = static_cast<i128>(1000000000000000000LL) * 1000000000LL;  // 10^27
    i128 mant = 0;
    int64_t exp10 = 0;  // value = mant * 10^exp10 * 2^bin_exp
    bool any_digit = false, seen_point = false, inexact = false;
    for (; i < s.size(); ++i) {
        char c = s[i];
        if (c >= '0' && c <= '9') {
            any_digit = true;
            if (mant < kMantissaCap) {
                mant = mant * 10 + (c - '0');
                if (seen_point) --exp10;
            } else {
                inexact |= c != '0';
                if (!seen_point) ++exp10;
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
    int bin_exp = 0;
    int64_t dec_exp = 0;
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
        if (e.empty()) return std::nullopt;
        int64_t v = 0;
        for (char c : e) {
            if (c < '0' || c > '9') return std::nullopt;
            v = v * 10 + (c - '0');
            if (v > INT32_MAX) return std::nullopt;  // Kubernetes parses the exponent as an int32
        }
        dec_exp = eneg ? -v : v;
    } else {
        return std::nullopt;
    }
    if (mant == 0) return 0;  // nothing was cut either: the cap is only reached by non-zero mantissas
    exp10 += dec_exp + 3;     // to milli-units
    const i128 limit = static_cast<i128>(INT64_MAX);
    i128 v = mant;
    if (exp10 >= 0) {
        // Only multiplications: stop as soon as the value is out of range.
        for (int k = 0; k < bin_exp; ++k)
            if ((v *= 2) > limit) return std::nullopt;
        for (; exp10 > 0; --exp10)
            if ((v *= 10) > limit) return std::nullopt;
    } else {
        // v * 2^b / 10^k = v * 2^(b-t) / (5^k * 2^(k-t)) with t = min(b, k). Cancelling the twos
        // first keeps the numerator in 128 bits whenever the result can fit: starting below
        // 10^28 < 2^94, passing 2^126 takes b-t > 32 doublings, so k = t < 28 and the quotient
        // exceeds 2^126 / 5^27 > 2^63. Successive floor divisions equal one floor division, and
        // the result is exact only if every step is.
        int64_t k = -exp10;
        int64_t t = bin_exp < k ? bin_exp : k;
        for (int64_t n = bin_exp - t; n > 0; --n) {
            if (v > (static_cast<i128>(1) << 125)) return std::nullopt;
            v *= 2;
        }
        for (int64_t n = 0; n < k && v != 0; ++n) {
            int divisor = n < k - t ? 10 : 5;  // a whole 10, or the 5 left of a 10 whose 2 was cancelled
            inexact |= v % divisor != 0;
            v /= divisor;
        }
    }
    if (inexact) v += 1;  // round away from zero to the next milli-unit, like MilliValue()
    if (v > limit) return std::nullopt;
    int64_t out = static_cast<int64_t>(v);
    return neg ? -out : out;
}

// Value in the resource's natural unit as the scheduler compares it: CPU in milli-cores, every
// other resource in whole units rounded away from zero (Quantity.Value()).
inline int64_t natural_units(std::string_view resource, int64_t milli) {
    if (resource == "cpu") return milli;
    return milli >= 0 ? (milli + 999) / 1000 : -((-milli + 999) / 1000);
}

}  // namespace kd
