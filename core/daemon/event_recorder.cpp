#include "daemon/event_recorder.hpp"

#include "cluster/rfc3339.hpp"
#include "daemon/wall_clock.hpp"
#include "kube/client/resources.hpp"
#include "text/json_writer.hpp"

#include <fmt/format.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>

namespace kd::core::daemon {

namespace {

// Events of a cluster-scoped object live in "default", as client-go puts them.
std::string event_namespace(const EventRecord& e) {
    return e.ns.empty() ? "default" : e.ns;
}

std::string object_key(const EventRecord& e) {
    return e.kind + "/" + e.ns + "/" + e.name;
}

std::string series_key(const EventRecord& e) {
    return object_key(e) + "\n" + e.type + "\n" + e.reason + "\n" + e.action + "\n" + e.note;
}

std::string api_version_of(const EventRecord& e) {
    if (!e.api_version.empty()) return e.api_version;
    auto r = kube::resource_by_kind(e.kind);
    return r ? r->group_version() : "";
}

}  // namespace

EventRecorder::EventRecorder(kube::ApiClient& client, EventRecorderOptions options)
    : client_(client), options_(std::move(options)), thread_([this] { run(); }) {}

EventRecorder::~EventRecorder() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    thread_.join();
}

void EventRecorder::record(EventRecord event) {
    {
        std::lock_guard lock(mutex_);
        if (queue_.size() >= options_.queue_limit) {
            ++counters_.dropped;
            return;
        }
        queue_.push_back(std::move(event));
    }
    wake_.notify_one();
}

void EventRecorder::flush() {
    std::unique_lock lock(mutex_);
    idle_.wait(lock, [&] { return queue_.empty() && !busy_; });
}

EventCounters EventRecorder::counters() const {
    std::lock_guard lock(mutex_);
    return counters_;
}

void EventRecorder::run() {
    std::unique_lock lock(mutex_);
    for (;;) {
        wake_.wait(lock, [&] { return stop_ || !queue_.empty(); });
        if (queue_.empty()) return;  // stopping, everything sent
        EventRecord e = std::move(queue_.front());
        queue_.pop_front();
        busy_ = true;
        lock.unlock();
        send(e);
        lock.lock();
        busy_ = false;
        if (queue_.empty()) idle_.notify_all();
    }
}

bool EventRecorder::allowed(const EventRecord& e) {
    auto now = std::chrono::steady_clock::now();
    auto [it, fresh] = buckets_.try_emplace(object_key(e), Bucket{double(options_.burst), now});
    Bucket& b = it->second;
    if (!fresh) {
        double refill = std::chrono::duration<double>(now - b.last) / std::chrono::duration<double>(options_.refill);
        b.tokens = std::min(double(options_.burst), b.tokens + refill);
        b.last = now;
    }
    if (b.tokens < 1) return false;
    b.tokens -= 1;
    return true;
}

void EventRecorder::forget_stale(std::chrono::steady_clock::time_point now) {
    if (series_.size() + buckets_.size() < kRemembered) return;
    // Series past their window fold nothing any more; a bucket refilled to its burst is the same
    // as no bucket. What is left after that stays bounded like client-go's LRU of 4096.
    std::erase_if(series_, [&](const auto& s) { return now - s.second.last >= options_.series_window; });
    auto full = options_.refill * options_.burst;
    std::erase_if(buckets_, [&](const auto& b) { return now - b.second.last >= full; });
    if (series_.size() >= kRemembered) series_.clear();
    if (buckets_.size() >= kRemembered) buckets_.clear();
}

void EventRecorder::send(const EventRecord& e) {
    const std::string key = series_key(e);
    const auto now = std::chrono::steady_clock::now();
    const int64_t now_ms = unix_ms_now();
    auto count = [&](uint64_t EventCounters::*field) {
        std::lock_guard lock(mutex_);
        ++(counters_.*field);
    };
    // A repeat: the first event's series grows (no token needed, as in client-go).
    if (auto it = series_.find(key); it != series_.end() && now - it->second.last < options_.series_window) {
        Series& s = it->second;
        ++s.count;
        s.last = now;
        json::TextWriter w;
        w.StartObject();
        if (core_v1_) {
            json::key(w, "count");
            w.Int(s.count);
            json::field(w, "lastTimestamp", format_rfc3339(now_ms));
        } else {
            json::key(w, "series");
            w.StartObject();
            json::key(w, "count");
            w.Int(s.count);
            json::field(w, "lastObservedTime", format_micro_time(now_ms));
            w.EndObject();
        }
        w.EndObject();
        std::string path = core_v1_ ? "/api/v1/namespaces/" + s.ns + "/events/" + s.name
                                    : "/apis/events.k8s.io/v1/namespaces/" + s.ns + "/events/" + s.name;
        kube::ApiResult r = client_.call({"PATCH", path, {}, w.text(), "application/merge-patch+json"});
        if (r.ok()) return count(&EventCounters::folded);
        series_.erase(it);  // gone (a TTL) or refused: a new event below
    }
    if (!allowed(e)) return count(&EventCounters::throttled);
    forget_stale(now);

    const std::string ns = event_namespace(e);
    // client-go names an Event "<object>.<UnixNano in hex>"; two within one nanosecond tick
    // would collide, so the value only ever grows.
    uint64_t nanos = uint64_t(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
            .count());
    last_name_nanos_ = std::max(nanos, last_name_nanos_ + 1);
    const std::string name = fmt::format("{}.{:x}", e.name, last_name_nanos_);
    for (int pass = 0; pass < 2; ++pass) {
        json::TextWriter w;
        w.StartObject();
        json::key(w, "metadata");
        w.StartObject();
        json::field(w, "name", name);
        json::field(w, "namespace", ns);
        w.EndObject();
        if (core_v1_) {
            json::field(w, "apiVersion", "v1");
            json::field(w, "kind", "Event");
            json::key(w, "involvedObject");
        } else {
            json::field(w, "apiVersion", "events.k8s.io/v1");
            json::field(w, "kind", "Event");
            json::key(w, "regarding");
        }
        w.StartObject();
        json::field(w, "kind", e.kind);
        json::field_if_set(w, "namespace", e.ns);
        json::field(w, "name", e.name);
        json::field_if_set(w, "apiVersion", api_version_of(e));
        w.EndObject();
        json::field(w, "type", e.type);
        json::field(w, "reason", e.reason);
        if (core_v1_) {
            json::field(w, "message", e.note);
            json::field(w, "firstTimestamp", format_rfc3339(now_ms));
            json::field(w, "lastTimestamp", format_rfc3339(now_ms));
            json::key(w, "count");
            w.Int(1);
            json::key(w, "source");
            w.StartObject();
            json::field(w, "component", options_.controller);
            w.EndObject();
            json::field(w, "reportingComponent", options_.controller);
            json::field(w, "reportingInstance", options_.instance);
            json::field_if_set(w, "action", e.action);
        } else {
            json::field(w, "note", e.note);
            json::field(w, "action", e.action.empty() ? e.reason : e.action);
            json::field(w, "eventTime", format_micro_time(now_ms));
            json::field(w, "reportingController", options_.controller);
            json::field(w, "reportingInstance", options_.instance);
        }
        w.EndObject();
        std::string path =
            core_v1_ ? "/api/v1/namespaces/" + ns + "/events" : "/apis/events.k8s.io/v1/namespaces/" + ns + "/events";
        kube::ApiResult r = client_.call({"POST", path, {}, w.text(), "application/json"});
        if (r.ok()) {
            series_[key] = {name, ns, 1, now};
            return count(&EventCounters::created);
        }
        if (r.code == 404 && r.status.reason != "NotFound" && !core_v1_) {
            // The server has no events.k8s.io/v1 (a 404 without a Status about a namespace):
            // core/v1 from now on.
            spdlog::info("events: the API server does not serve events.k8s.io/v1; recording core/v1 Events");
            core_v1_ = true;
            continue;
        }
        spdlog::warn("event {} {} about {} {}/{} not recorded: {}", e.type, e.reason, e.kind, e.ns, e.name,
                     r.describe());
        return count(&EventCounters::failed);
    }
}

}  // namespace kd::core::daemon
