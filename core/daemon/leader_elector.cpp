#include "daemon/leader_elector.hpp"

#include "daemon/lease_record.hpp"

#include "cluster/rfc3339.hpp"
#include "daemon/wall_clock.hpp"
#include "text/json_writer.hpp"

#include <kdesched/decode.hpp>

#include <rapidjson/document.h>
#include <spdlog/spdlog.h>

#include <unistd.h>

#include <random>

namespace kd::core::daemon {

namespace {

std::string lease_body(const LeaderElectionOptions& o, const LeaseRecord& r) {
    json::TextWriter w;
    w.StartObject();
    json::field(w, "apiVersion", "coordination.k8s.io/v1");
    json::field(w, "kind", "Lease");
    json::key(w, "metadata");
    w.StartObject();
    json::field(w, "name", o.name);
    json::field(w, "namespace", o.ns);
    json::field_if_set(w, "resourceVersion", r.resource_version);
    w.EndObject();
    json::key(w, "spec");
    w.StartObject();
    if (!r.holder.empty()) json::field(w, "holderIdentity", r.holder);
    json::key(w, "leaseDurationSeconds");
    w.Int64(r.duration_s);
    json::field(w, "acquireTime", r.acquire_time);
    json::field(w, "renewTime", r.renew_time);
    json::key(w, "leaseTransitions");
    w.Int64(r.transitions);
    w.EndObject();
    w.EndObject();
    return w.text();
}

int64_t seconds_of(std::chrono::milliseconds d) {
    return std::max<int64_t>(1, (d.count() + 999) / 1000);
}

}  // namespace

std::string make_identity() {
    char host[256] = {};
    if (::gethostname(host, sizeof host - 1) != 0 || !host[0]) std::snprintf(host, sizeof host, "kdesched");
    std::random_device rd;
    char suffix[24];
    std::snprintf(suffix, sizeof suffix, "%08x%08x", rd(), rd());
    return std::string(host) + "_" + suffix;
}

LeaderElector::LeaderElector(kube::ApiClient& client, LeaderElectionOptions options, std::function<void()> on_lost)
    : client_(client), options_(std::move(options)), on_lost_(std::move(on_lost)) {
    if (options_.identity.empty()) options_.identity = make_identity();
}

LeaderElector::~LeaderElector() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
}

void LeaderElector::start() {
    thread_ = std::thread([this] { run(); });
}

std::string LeaderElector::last_error() const {
    std::lock_guard lock(error_mutex_);
    return last_error_;
}

void LeaderElector::set_error(std::string e) {
    std::lock_guard lock(error_mutex_);
    last_error_ = std::move(e);
}

bool LeaderElector::wait_leading(std::chrono::steady_clock::time_point until) {
    std::unique_lock lock(mutex_);
    wake_.wait_until(lock, until, [&] { return stop_ || leading_.load(); });
    return leading_.load();
}

bool LeaderElector::try_acquire_or_renew() {
    const std::string path = lease_path(options_.ns, options_.name);
    const std::string now = format_micro_time(unix_ms_now());
    const std::string what = "Lease " + options_.ns + "/" + options_.name;
    kube::ApiResult got = client_.call({"GET", path, {}, "", ""});
    if (got.code == 404) {
        LeaseRecord mine{options_.identity, now, now, "", seconds_of(options_.lease_duration), 0};
        kube::ApiResult r = client_.call({"POST",
                                          "/apis/coordination.k8s.io/v1/namespaces/" + options_.ns + "/leases",
                                          {},
                                          lease_body(options_, mine),
                                          "application/json"});
        if (r.ok()) return true;
        set_error("creating " + what + ": " + r.describe());
        return false;
    }
    if (!got.ok()) {
        set_error("reading " + what + ": " + got.describe());  // a 403 names the rule to grant
        return false;
    }
    LeaseRecord seen = parse_lease(got.body);
    const auto t = std::chrono::steady_clock::now();
    std::string record = seen.holder + "\n" + seen.renew_time;
    if (record != observed_record_) {  // its holder did something: measure expiry from now
        observed_record_ = record;
        observed_at_ = t;
    }
    const bool mine = seen.holder == options_.identity;
    auto duration = seen.duration_s > 0 ? std::chrono::milliseconds(seen.duration_s * 1000) : options_.lease_duration;
    if (!seen.holder.empty() && !mine && t < observed_at_ + duration) {
        set_error(what + " is held by " + seen.holder);
        return false;
    }
    LeaseRecord next = seen;
    next.holder = options_.identity;
    next.duration_s = seconds_of(options_.lease_duration);
    next.renew_time = now;
    if (!mine) {
        next.acquire_time = now;
        next.transitions = seen.transitions + 1;
    }
    kube::ApiResult r = client_.call({"PUT", path, {}, lease_body(options_, next), "application/json"});
    if (!r.ok()) {
        set_error((mine ? "renewing " : "taking over ") + what + ": " + r.describe());
        return false;
    }
    if (!mine) transitions_.fetch_add(1);
    observed_record_ = next.holder + "\n" + next.renew_time;
    observed_at_ = t;
    set_error("");
    return true;
}

void LeaderElector::run() {
    std::mt19937_64 random{std::random_device{}()};
    auto stopped_within = [&](std::chrono::milliseconds d) {
        std::unique_lock lock(mutex_);
        return wake_.wait_for(lock, d, [&] { return stop_; });
    };
    // Standby: try every retryPeriod, jittered (client-go's factor 1.2) so replicas do not collide.
    for (;;) {
        if (try_acquire_or_renew()) break;
        std::uniform_real_distribution<double> jitter(1.0, 2.2);
        if (stopped_within(std::chrono::milliseconds(int64_t(double(options_.retry_period.count()) * jitter(random)))))
            return;
    }
    spdlog::info("leader election: {} leads ({}/{})", options_.identity, options_.ns, options_.name);
    {
        std::lock_guard lock(mutex_);
        leading_ = true;
    }
    wake_.notify_all();
    // Leader: renew every retryPeriod; no success for renewDeadline ends the leadership.
    auto renewed = std::chrono::steady_clock::now();
    for (;;) {
        if (stopped_within(options_.retry_period)) return;
        if (try_acquire_or_renew()) {
            renewed = std::chrono::steady_clock::now();
            continue;
        }
        if (std::chrono::steady_clock::now() - renewed < options_.renew_deadline) continue;
        leading_ = false;
        spdlog::error("leader election: {} lost the lease {}/{}: {}", options_.identity, options_.ns, options_.name,
                      last_error());
        if (on_lost_) on_lost_();
        return;
    }
}

void LeaderElector::release() {
    {
        std::lock_guard lock(mutex_);
        stop_ = true;
    }
    wake_.notify_all();
    if (thread_.joinable()) thread_.join();
    if (!leading_.exchange(false)) return;
    const std::string path = lease_path(options_.ns, options_.name);
    kube::ApiResult got = client_.call({"GET", path, {}, "", ""});
    if (!got.ok()) return;
    LeaseRecord seen = parse_lease(got.body);
    if (seen.holder != options_.identity) return;
    const std::string now = format_micro_time(unix_ms_now());
    LeaseRecord released{"", now, now, seen.resource_version, 1, seen.transitions};
    kube::ApiResult r = client_.call({"PUT", path, {}, lease_body(options_, released), "application/json"});
    if (r.ok())
        spdlog::info("leader election: released {}/{}", options_.ns, options_.name);
    else
        spdlog::warn("leader election: releasing {}/{}: {}", options_.ns, options_.name, r.describe());
}

}  // namespace kd::core::daemon
