// Eviction execution (koord's evictor interpreter): the evictQPS/evictBurst bucket and the three
// policies — Eviction (policy/v1), Delete, SoftEviction (annotate; something else deletes the
// pod) — with the descheduler_pods_evicted metric and the pod's `Descheduled` event.
#pragma once

#include "args.hpp"
#include "job.hpp"
#include "token_bucket.hpp"

#include <kdesched/plugin.hpp>

#include <string>

namespace kd::plugins::migrationcontroller {

inline constexpr std::string_view kSoftEvictionAnnotation = "scheduling.koordinator.sh/soft-eviction";
inline constexpr std::string_view kEvictPolicyLabel = "koordinator.sh/evict-policy";

class PodEvictor {
public:
    explicit PodEvictor(const MigrationControllerArgs& args);
    // Evicts the job's pod by the policy in force; "" on success, else why not ("TooManyEvictions"
    // when the bucket is empty, or the cluster's answer).
    std::string evict(kd::Cycle& cycle, const kd::Pod& pod, const Job& job);

    // The reason shown for a job: evict-reason, else evict-trigger, else "NotSet" (as koord).
    static std::string reason_of(const Job& job);

private:
    const MigrationControllerArgs& args_;
    TokenBucket bucket_;
};

}  // namespace kd::plugins::migrationcontroller
