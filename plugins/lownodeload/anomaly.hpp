// The anomaly detector (Koordinator's `BasicDetector` in pkg/descheduler/utils/anomaly) and
// the per-node detector cache with a TTL. Time is always the cycle's clock (now_ms), never the
// wall clock, so the simulator's virtual time drives it.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <unordered_map>

namespace kd::plugins::lownodeload {

// The detector's thresholds: anomalous ⇔ consecutive abnormalities > `consecutive_abnormalities`,
// normal ⇔ consecutive normalities > `consecutive_normalities` (strictly greater, as Koordinator).
struct AnomalyOptions {
    uint32_t consecutive_abnormalities = 5;
    uint32_t consecutive_normalities = 3;
    int64_t timeout_ms = 60'000;  // how long Anomaly lasts; ≤ 0 → 60 s
};

class AnomalyDetector {
public:
    enum class State { ok, anomaly };
    struct Counts {
        uint64_t total = 0, normalities = 0, abnormalities = 0;
        uint64_t consecutive_normalities = 0, consecutive_abnormalities = 0;
    };

    explicit AnomalyDetector(AnomalyOptions options);

    // Records one observation and returns the state after it. In OK, an abnormal observation that
    // makes the node anomalous switches to Anomaly (expiring timeout later); in Anomaly, a normal
    // one that makes it normal switches back. Other observations only count.
    State mark(bool normal, int64_t now_ms);
    // Back to OK. Counters are cleared only when the state changes (a new generation).
    void reset(int64_t now_ms);
    // The state; an expired Anomaly (or one whose normal condition holds) turns OK on reading.
    State state(int64_t now_ms);
    const Counts& counts() const { return counts_; }
    uint64_t generation() const { return generation_; }

private:
    void set_state(State s, int64_t now_ms);
    bool anomalous() const { return counts_.consecutive_abnormalities > options_.consecutive_abnormalities; }
    bool normal() const { return counts_.consecutive_normalities > options_.consecutive_normalities; }

    AnomalyOptions options_;
    State state_ = State::ok;
    uint64_t generation_ = 0;
    Counts counts_;
    int64_t expiration_ms_ = 0;  // Anomaly only
};

// Detectors by node name, each entry living `ttl_ms` after it was last stored (go-cache semantics:
// an entry is gone once now > stored + ttl; ttl ≤ 0 = never expires).
class DetectorCache {
public:
    explicit DetectorCache(int64_t ttl_ms = 0) : ttl_ms_(ttl_ms) {}
    int64_t ttl_ms() const { return ttl_ms_; }

    // The live detector of `node`, or nullptr. Does not extend its life.
    AnomalyDetector* find(std::string_view node, int64_t now_ms);
    // The live detector of `node`, or a new one with `options` (stored now).
    AnomalyDetector& get_or_create(std::string_view node, const AnomalyOptions& options, int64_t now_ms);
    // Stores the node's detector again: its TTL restarts at now.
    void touch(std::string_view node, int64_t now_ms);
    // Drops expired entries (they are already invisible; this frees them).
    void sweep(int64_t now_ms);
    size_t size() const { return entries_.size(); }

private:
    struct Entry {
        AnomalyDetector detector;
        int64_t expires_ms;  // INT64_MAX: never
    };
    struct NameHash {
        using is_transparent = void;
        size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
    };
    int64_t expiry(int64_t now_ms) const;
    static bool expired(const Entry& e, int64_t now_ms) { return now_ms > e.expires_ms; }

    int64_t ttl_ms_;
    std::unordered_map<std::string, Entry, NameHash, std::equal_to<>> entries_;
};

}  // namespace kd::plugins::lownodeload
