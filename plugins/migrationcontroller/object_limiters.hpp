// Object limiters (koord's `objectLimiters`): per workload (controller UID) and per namespace, at
// most `maxMigrating` migrations per `duration`, as token buckets fed when a job evicts its pod.
#pragma once

#include "args.hpp"
#include "token_bucket.hpp"

#include <kdesched/view.hpp>

#include <cstdint>
#include <map>
#include <string>

namespace kd::plugins::migrationcontroller {

class ObjectLimiters {
public:
    explicit ObjectLimiters(const MigrationControllerArgs& args);

    // A pod of this workload/namespace was evicted: take a token from each limiter, in key order,
    // stopping at the first whose budget computes to 0 (the anchor's early return; see
    // docs/compatibility.md).
    void track(const kd::Snapshot& snap, const kd::Pod& pod, int64_t now_ms);
    // True when a limiter of the pod has less than one token left.
    bool exceeded(const kd::Pod& pod, int64_t now_ms);

private:
    struct Entry {
        TokenBucket bucket;
        int64_t last_used_ms;
    };
    std::string key_of(const std::string& type, const kd::Pod& pod) const;
    void expire(int64_t now_ms);

    const MigrationControllerArgs& args_;
    std::map<std::string, ObjectLimiterArgs> limiters_;  // by type: "namespace", "workload"
    std::map<std::string, Entry> entries_;               // by "type/key"
    int64_t expired_at_ms_ = INT64_MIN;                  // clock of the last expire() sweep
};

}  // namespace kd::plugins::migrationcontroller
