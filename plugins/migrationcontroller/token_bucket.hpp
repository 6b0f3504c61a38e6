// A token bucket as golang.org/x/time/rate.Limiter: starts full, refills at `rate` tokens per
// second up to `burst`; taking a token either succeeds at once or not at all.
#pragma once

#include <algorithm>
#include <cstdint>

namespace kd::plugins::migrationcontroller {

class TokenBucket {
public:
    // `now_ms` < 0: the clock starts at the first use.
    TokenBucket(double rate_per_s, double burst, int64_t now_ms = -1)
        : rate_(rate_per_s), burst_(burst), tokens_(burst), last_ms_(now_ms) {}
    double tokens(int64_t now_ms) {
        if (last_ms_ < 0) last_ms_ = now_ms;
        if (now_ms > last_ms_) {
            tokens_ = std::min(burst_, tokens_ + rate_ * static_cast<double>(now_ms - last_ms_) / 1000.0);
            last_ms_ = now_ms;
        }
        return tokens_;
    }
    bool take(int64_t now_ms) {
        if (tokens(now_ms) < 1) return false;
        tokens_ -= 1;
        return true;
    }

private:
    double rate_, burst_, tokens_;
    int64_t last_ms_;
};

}  // namespace kd::plugins::migrationcontroller
