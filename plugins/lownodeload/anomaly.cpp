#include "anomaly.hpp"

#include <limits>

namespace kd::plugins::lownodeload {

namespace {

constexpr int64_t kDefaultTimeoutMs = 60'000;

int64_t saturating_add(int64_t a, int64_t b) {
    if (b > 0 && a > std::numeric_limits<int64_t>::max() - b) return std::numeric_limits<int64_t>::max();
    return a + b;
}

}  // namespace

AnomalyDetector::AnomalyDetector(AnomalyOptions options) : options_(options) {
    if (options_.timeout_ms <= 0) options_.timeout_ms = kDefaultTimeoutMs;
}

void AnomalyDetector::set_state(State s, int64_t now_ms) {
    if (state_ == s) return;
    state_ = s;
    // A new generation: counters start over; Anomaly lasts until the timeout.
    ++generation_;
    counts_ = Counts{};
    expiration_ms_ = s == State::anomaly ? saturating_add(now_ms, options_.timeout_ms) : 0;
}

AnomalyDetector::State AnomalyDetector::state(int64_t now_ms) {
    // time.Time.Before: expired once the expiration is strictly in the past.
    if (state_ == State::anomaly && (expiration_ms_ < now_ms || normal())) set_state(State::ok, now_ms);
    return state_;
}

AnomalyDetector::State AnomalyDetector::mark(bool is_normal, int64_t now_ms) {
    state(now_ms);
    ++counts_.total;
    if (is_normal) {
        ++counts_.normalities;
        ++counts_.consecutive_normalities;
        counts_.consecutive_abnormalities = 0;
        if (state_ == State::anomaly && normal()) set_state(State::ok, now_ms);
    } else {
        ++counts_.abnormalities;
        ++counts_.consecutive_abnormalities;
        counts_.consecutive_normalities = 0;
        // In Anomaly an abnormal observation only counts: the expiration is not extended.
        if (state_ == State::ok && anomalous()) set_state(State::anomaly, now_ms);
    }
    return state(now_ms);
}

void AnomalyDetector::reset(int64_t now_ms) {
    set_state(State::ok, now_ms);
}

int64_t DetectorCache::expiry(int64_t now_ms) const {
    return ttl_ms_ > 0 ? saturating_add(now_ms, ttl_ms_) : std::numeric_limits<int64_t>::max();
}

AnomalyDetector* DetectorCache::find(std::string_view node, int64_t now_ms) {
    if (entries_.empty()) return nullptr;  // the usual case without gating: no hashing at all
    auto it = entries_.find(node);
    if (it == entries_.end() || expired(it->second, now_ms)) return nullptr;
    return &it->second.detector;
}

AnomalyDetector& DetectorCache::get_or_create(std::string_view node, const AnomalyOptions& options, int64_t now_ms) {
    auto it = entries_.find(node);
    if (it == entries_.end()) {
        it = entries_.emplace(std::string(node), Entry{AnomalyDetector(options), expiry(now_ms)}).first;
    } else if (expired(it->second, now_ms)) {
        // An expired entry is gone for go-cache: the node starts with a fresh detector.
        it->second = Entry{AnomalyDetector(options), expiry(now_ms)};
    }
    return it->second.detector;
}

void DetectorCache::touch(std::string_view node, int64_t now_ms) {
    auto it = entries_.find(node);
    if (it != entries_.end()) it->second.expires_ms = expiry(now_ms);
}

void DetectorCache::sweep(int64_t now_ms) {
    std::erase_if(entries_, [&](const auto& kv) { return expired(kv.second, now_ms); });
}

}  // namespace kd::plugins::lownodeload
