#include "object_limiters.hpp"

#include "workload_budget.hpp"

#include <chrono>

namespace kd::plugins::migrationcontroller {

ObjectLimiters::ObjectLimiters(const MigrationControllerArgs& args) : args_(args) {
    for (const auto& [type, l] : args.objectLimiters)
        if (l.duration.ms() > 0) limiters_[type] = l;
}

std::string ObjectLimiters::key_of(const std::string& type, const kd::Pod& pod) const {
    if (type == "namespace") return type + "/" + std::string(pod.ns());
    auto c = pod.controller();
    return c ? type + "/" + std::string(c->uid()) : "";
}

void ObjectLimiters::expire(int64_t now_ms) {
    // exceeded() runs per candidate pod: at an unchanged clock a second sweep erases nothing (track
    // only stamps entries with that same clock).
    if (now_ms == expired_at_ms_) return;
    expired_at_ms_ = now_ms;
    for (auto it = entries_.begin(); it != entries_.end();) {
        const auto& l = limiters_[it->first.substr(0, it->first.find('/'))];
        // An entry lives 1.5 × duration after its last use.
        it = now_ms - it->second.last_used_ms > l.duration.ms() * 3 / 2 ? entries_.erase(it) : std::next(it);
    }
}

void ObjectLimiters::track(const kd::Snapshot& snap, const kd::Pod& pod, int64_t now_ms) {
    expire(now_ms);
    for (const auto& [type, l] : limiters_) {
        std::string key = key_of(type, pod);
        if (key.empty()) continue;
        int64_t max = 0;
        if (type == "namespace") {
            max = l.maxMigrating && !l.maxMigrating->is_string ? l.maxMigrating->int_value : 0;
        } else {
            auto workload = snap.workload_of(pod);
            int32_t replicas = workload ? workload->replicas() : 0;
            bool given = l.maxMigrating && !(l.maxMigrating->is_string == false && l.maxMigrating->int_value == 0);
            max = max_unavailable(replicas, given ? l.maxMigrating : args_.maxMigratingPerWorkload);
        }
        if (max == 0) return;
        double rate = static_cast<double>(max) / (static_cast<double>(l.duration.ms()) / 1000.0);
        auto it = entries_.find(key);
        if (it == entries_.end())
            it = entries_.emplace(key, Entry{TokenBucket(rate, l.burst > 0 ? l.burst : 1, now_ms), now_ms}).first;
        it->second.bucket.take(now_ms);
        it->second.last_used_ms = now_ms;
    }
}

bool ObjectLimiters::exceeded(const kd::Pod& pod, int64_t now_ms) {
    expire(now_ms);
    for (const auto& [type, l] : limiters_) {
        auto it = entries_.find(key_of(type, pod));
        if (it != entries_.end() && it->second.bucket.tokens(now_ms) - 1 < 0) return true;
    }
    return false;
}

}  // namespace kd::plugins::migrationcontroller
