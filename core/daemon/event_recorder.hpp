// Events about objects, sent the way client-go's recorder sends them: from a thread of their own
// (a hook never waits for one), events.k8s.io/v1 (core/v1 when the server has only that), a
// repeat of the same event within six minutes folded into the first one's series (count,
// lastObservedTime) instead of a new object, and a token bucket per object (25, then one every
// five minutes) so a storm about one object cannot flood the server. Best effort: a failed or
// dropped event is counted and logged, never an error for the caller.
#pragma once

#include "kube/client/api_client.hpp"

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <thread>

namespace kd::core::daemon {

struct EventRecord {
    std::string kind, api_version, ns, name;  // the object it is about ("regarding")
    std::string type;                         // Normal | Warning
    std::string reason, action, note;
};

struct EventRecorderOptions {
    std::string controller = "koord-descheduler";  // reportingController, as Koordinator's
    std::string instance;                          // reportingInstance (the leader identity)
    std::chrono::seconds series_window{360};       // client-go's isomorphic-event window
    int burst = 25;                                // per object
    std::chrono::seconds refill{300};              // one more event per object this often
    size_t queue_limit = 1000;                     // waiting events; beyond, new ones are dropped
};

struct EventCounters {
    uint64_t created = 0, folded = 0, throttled = 0, dropped = 0, failed = 0;
};

class EventRecorder {
public:
    EventRecorder(kube::ApiClient& client, EventRecorderOptions options);
    ~EventRecorder();  // sends what is queued (bounded by the client's timeouts), then stops
    EventRecorder(const EventRecorder&) = delete;
    EventRecorder& operator=(const EventRecorder&) = delete;

    void record(EventRecord event);
    // Waits until every queued event was sent or given up (tests, shutdown).
    void flush();
    EventCounters counters() const;

private:
    struct Series {
        std::string name, ns;
        int32_t count = 1;
        std::chrono::steady_clock::time_point last;
    };
    struct Bucket {
        double tokens;
        std::chrono::steady_clock::time_point last;
    };
    void run();
    void send(const EventRecord& e);
    bool allowed(const EventRecord& e);  // the per-object token bucket
    // Keeps the series and buckets remembered bounded in a long-running daemon.
    void forget_stale(std::chrono::steady_clock::time_point now);
    static constexpr size_t kRemembered = 4096;

    kube::ApiClient& client_;
    EventRecorderOptions options_;
    mutable std::mutex mutex_;
    std::condition_variable wake_, idle_;
    std::deque<EventRecord> queue_;
    bool busy_ = false, stop_ = false;
    EventCounters counters_;
    // Sender thread only:
    std::map<std::string, Series> series_;   // by event identity
    std::map<std::string, Bucket> buckets_;  // by object
    bool core_v1_ = false;                   // events.k8s.io/v1 is not served
    uint64_t last_name_nanos_ = 0;           // the last Event name's time, for unique names
    std::thread thread_;
};

}  // namespace kd::core::daemon
