#include "daemon/daemon.hpp"

#include "cluster/cluster_model.hpp"
#include "cluster/model_digest.hpp"
#include "cluster/rfc3339.hpp"
#include "daemon/api_backend.hpp"
#include "daemon/event_recorder.hpp"
#include "daemon/health_server.hpp"
#include "daemon/leader_elector.hpp"
#include "daemon/lease_record.hpp"
#include "daemon/live_explain.hpp"
#include "daemon/metrics.hpp"
#include "daemon/model_probe.hpp"
#include "daemon/wall_clock.hpp"
#include "error.hpp"
#include "kube/watch/cluster_sync.hpp"
#include "kube/watch/model_feeder.hpp"
#include "kube/watch/usage_metrics_poller.hpp"
#include "runtime/descheduler.hpp"
#include "runtime/driver.hpp"
#include "runtime/observer_fanout.hpp"

#include <spdlog/spdlog.h>

#include <pthread.h>
#include <array>
#include <chrono>
#include <csignal>

namespace kd::core::daemon {

namespace {

constexpr int kExitOk = 0, kExitRuntime = 3;

// SIGTERM / SIGINT, received by a thread of their own (blocked everywhere else).
class SignalWatcher {
public:
    explicit SignalWatcher(std::function<void(int)> on_signal) : on_signal_(std::move(on_signal)) {
        sigemptyset(&set_);
        sigaddset(&set_, SIGTERM);
        sigaddset(&set_, SIGINT);
        sigaddset(&set_, SIGUSR2);                   // our own wake-up for the shutdown of this thread
        pthread_sigmask(SIG_BLOCK, &set_, nullptr);  // block_stop_signals() did so for earlier threads
        thread_ = std::thread([this] {
            for (;;) {
                int sig = 0;
                if (sigwait(&set_, &sig) != 0) continue;
                if (sig == SIGUSR2 && done_) return;
                if (sig != SIGUSR2) on_signal_(sig);
            }
        });
    }
    ~SignalWatcher() {
        done_ = true;
        pthread_kill(thread_.native_handle(), SIGUSR2);
        thread_.join();
    }

private:
    std::function<void(int)> on_signal_;
    sigset_t set_{};
    std::atomic<bool> done_{false};
    std::thread thread_;
};

// Everything the control thread owns between hooks.
std::string joined(const std::vector<std::string>& parts, std::string_view separator) {
    std::string out;
    for (const auto& p : parts) out += (out.empty() ? "" : std::string(separator)) + p;
    return out;
}

struct Loop {
    ClusterModel model;
    kube::ModelFeeder feeder{model};
    kube::ClusterSync& sync;
    DaemonMetrics& metrics;
    LiveExplain& explain;
    HealthState& health;
    ModelProbe& probe;
    LeaderElector* elector;                     // null without leader election
    kube::UsageMetricsPoller* usage = nullptr;  // null unless the policy enables KubernetesMetrics
    uint64_t usage_seen = 0;                    // the poller's round the model holds
    std::atomic<bool> stop{false}, lost{false};
    std::chrono::steady_clock::time_point refreshed{};

    Loop(kube::ClusterSync& s, DaemonMetrics& m, LiveExplain& x, HealthState& h, ModelProbe& p, LeaderElector* e)
        : sync(s), metrics(m), explain(x), health(h), probe(p), elector(e) {}

    // Applies what the watches delivered and answers /debug/model.
    void apply() {
        sync.apply(feeder);
        if (usage)
            if (auto fresh = usage->take_if_newer(&usage_seen)) model.set_usage_metrics(std::move(*fresh));
        probe.serve([this] { return digest_json(digest_model(model)); });
        health.beat();
    }
    // apply(), then refreshes gauges and readiness about once a second.
    void drain() {
        apply();
        for (const auto& m : feeder.take_messages()) spdlog::warn("{}", m);
        auto now = std::chrono::steady_clock::now();
        if (now - refreshed < std::chrono::seconds(1)) return;
        refreshed = now;
        metrics.refresh(model, sync, feeder);
        health.set_ready(joined(sync.not_synced(feeder), "; "));
        metrics.set_leader(elector ? elector->leading() : true);
    }
    bool leading() const { return !elector || elector->leading(); }

    // A replica that takes the lease reads PodMigrationJobs and Reservations again — a consistent
    // LIST, its watch ended — before its first hook: that watch may lag behind what the previous
    // leader wrote just before it went, and a job the new leader does not see is a pod migrated
    // twice. False while that is not done (the hook waits); true once it is, until the lease is lost.
    bool caught_up_as_leader() {
        if (!elector || caught_up) return true;
        constexpr std::array<ObjectKind, 2> kinds = {ObjectKind::migration_job, ObjectKind::reservation};
        std::array<uint64_t, kinds.size()> lists{};
        for (size_t i = 0; i < kinds.size(); ++i) {
            lists[i] = feeder.counters(kinds[i]).lists;
            sync.relist(kinds[i]);
        }
        const auto deadline = std::chrono::steady_clock::now() + kCatchUpTimeout;
        for (;;) {
            apply();
            bool done = true;
            for (size_t i = 0; i < kinds.size(); ++i)
                done = done && (feeder.counters(kinds[i]).lists > lists[i] || sync.not_served(kinds[i]));
            if (done) {
                caught_up = true;
                spdlog::info("leading: PodMigrationJobs and Reservations read again before the first hook");
                return true;
            }
            if (stop || !leading()) return false;
            if (std::chrono::steady_clock::now() >= deadline) {
                spdlog::warn(
                    "leading, but PodMigrationJobs and Reservations could not be read again within {} s; no hook "
                    "runs until they are",
                    std::chrono::duration_cast<std::chrono::seconds>(kCatchUpTimeout).count());
                return false;
            }
            sync.wait(std::chrono::steady_clock::now() + std::chrono::milliseconds(100));
        }
    }
    static constexpr std::chrono::seconds kCatchUpTimeout{30};
    bool caught_up = false;  // since the lease was taken
};

class WallClock : public Clock {
public:
    explicit WallClock(Loop& loop) : loop_(loop) {}
    int64_t now_ms() override { return unix_ms_now(); }
    bool wait_until(int64_t t_ms) override {
        for (;;) {
            loop_.drain();
            if (loop_.stop) return false;
            int64_t left = t_ms - now_ms();
            if (left <= 0) return true;
            loop_.sync.wait(std::chrono::steady_clock::now() + std::chrono::milliseconds(std::min<int64_t>(left, 500)));
        }
    }

private:
    Loop& loop_;
};

class DaemonEnvironment : public DriverEnvironment {
public:
    explicit DaemonEnvironment(Loop& loop) : loop_(loop) {}
    bool before(const DriverCall& call) override {
        loop_.drain();
        if (loop_.stop || !loop_.leading()) {
            loop_.caught_up = false;
            return false;
        }
        if (!loop_.caught_up_as_leader()) return false;
        if (call.kind == DriverCall::cycle) {
            started_ = std::chrono::steady_clock::now();
            loop_.explain.begin_cycle(call.cycle_number, call.now_ms);
        }
        return true;
    }
    void after(const DriverCall& call, const std::optional<std::string>& error) override {
        loop_.health.beat();
        loop_.explain.publish();  // after the cycle, and again after each of its ticks
        if (call.kind == DriverCall::cycle)
            loop_.metrics.loop_duration(
                std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count());
        // As Koordinator: a failing hook is logged and the loop goes on.
        if (error)
            spdlog::error("{} {}: {}", call.kind == DriverCall::cycle ? "cycle" : "tick after cycle", call.cycle_number,
                          *error);
    }

private:
    Loop& loop_;
    std::chrono::steady_clock::time_point started_{};
};

// Waits for every kind's first sync; "" or what is still missing after the timeout.
std::string wait_synced(Loop& loop, std::chrono::milliseconds timeout) {
    auto deadline = std::chrono::steady_clock::now() + timeout;
    for (;;) {
        loop.apply();
        auto missing = loop.sync.not_synced(loop.feeder);
        if (missing.empty() || loop.stop) return "";
        loop.health.set_ready(joined(missing, "; "));  // /readyz says what is still being read
        if (std::chrono::steady_clock::now() >= deadline) return "\n  " + joined(missing, "\n  ");
        loop.sync.wait(std::chrono::steady_clock::now() + std::chrono::milliseconds(200));
    }
}

}  // namespace

void block_stop_signals() {
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGUSR2);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
}

int run_daemon(const DeschedulerConfiguration& config, const PluginCatalog& catalog, kube::ApiClient& client,
               const DaemonOptions& options) {
    const auto& le = config.leaderElection;
    DaemonMetrics metrics(le.resourceName);
    client.set_observer([&metrics](const kube::RequestRecord& r) { metrics.api_request(r); });
    HealthState health;
    health.stuck_after = options.stuck_after;
    health.beat();
    ModelProbe probe;
    LiveExplain explain;
    std::shared_ptr<ServingCertificates> certificates;
    if (options.secure)
        certificates = std::make_shared<ServingCertificates>(*options.secure, host_of_identity(make_identity()),
                                                             unix_ms_now() / 1000);
    HealthServer server(
        config.healthzBindAddress, config.metricsBindAddress, health, [&] { return metrics.text(); },
        [&probe] { return probe.ask(std::chrono::seconds(5)); }, {},
        [&explain](std::string_view query) { return answer_explain(explain, query); }, certificates);
    spdlog::info("serving /healthz and /readyz on {}, /metrics, /debug/model and /debug/explain on {}",
                 config.healthzBindAddress, config.metricsBindAddress);
    if (certificates)
        spdlog::info("serving every endpoint over HTTPS on {} (the secure port) with {}", certificates->address(),
                     certificates->source());

    kube::ClusterSync sync(client);
    Loop loop(sync, metrics, explain, health, probe, nullptr);
    std::unique_ptr<LeaderElector> elector;  // after `loop`: its thread ends before `loop` goes
    if (le.leaderElect) {
        LeaderElectionOptions lo;
        lo.ns = le.resourceNamespace;
        lo.name = le.resourceName;
        lo.lease_duration = std::chrono::duration_cast<std::chrono::milliseconds>(le.leaseDuration.value);
        lo.renew_deadline = std::chrono::duration_cast<std::chrono::milliseconds>(le.renewDeadline.value);
        lo.retry_period = std::chrono::duration_cast<std::chrono::milliseconds>(le.retryPeriod.value);
        elector = std::make_unique<LeaderElector>(client, lo, [&loop] {
            // Lost, not released: every write stops now; the process exits non-zero and restarts clean.
            loop.lost = true;
            loop.stop = true;
        });
        loop.elector = elector.get();
    }
    SignalWatcher signals([&loop](int sig) {
        spdlog::info("{}: finishing the running hook, then stopping", sig == SIGTERM ? "SIGTERM" : "SIGINT");
        loop.stop = true;
    });

    EventRecorderOptions eo;
    eo.instance = elector ? elector->identity() : make_identity();
    EventRecorder events(client, eo);
    ApiBackend backend(client, events);
    backend.set_gate([&loop] { return loop.leading() && !loop.lost; }, "this replica does not hold the lease");
    backend.set_dry_run(config.dryRun, [&metrics](std::string_view write) { metrics.dry_run_write(write); });
    backend.set_eviction_grace_period(config.evictionGracePeriodSeconds);
    backend.set_stored_objects([&loop](std::string_view kind, std::string_view name) -> std::string {
        if (kind == "PodMigrationJob") {
            const PodMigrationJob* j = loop.model.migration_job_by_name(name);
            return j ? j->wire : "";
        }
        const Reservation* r = loop.model.reservation_by_name(name);
        return r ? r->wire : "";
    });
    ObserverFanout observer{&metrics, &explain};  // metrics first: it logs plugins' lines
    Descheduler descheduler(config, catalog, &backend, &observer);

    // metrics-server's usage, polled from now on (the API cannot watch it).
    std::unique_ptr<kube::UsageMetricsPoller> usage;
    if (config.kubernetesMetrics) {
        usage = std::make_unique<kube::UsageMetricsPoller>(client);
        loop.usage = usage.get();
        usage->start();
    }
    sync.start();
    if (elector) elector->start();
    if (std::string missing = wait_synced(loop, options.sync_timeout); !missing.empty()) {
        spdlog::error("the cluster could not be read within {} s; still missing:{}",
                      std::chrono::duration_cast<std::chrono::seconds>(options.sync_timeout).count(), missing);
        sync.stop();
        return kExitRuntime;
    }
    if (usage) {
        // As upstream waits for its metrics collector's first round; a failed one is not fatal.
        usage->wait_first_round(std::chrono::minutes(1));
        loop.apply();
        spdlog::info("metrics.k8s.io: usage of {} nodes and {} pods{}", loop.model.usage_metrics().nodes.size(),
                     loop.model.usage_metrics().pods.size(), usage->problem().empty() ? "" : " (not served yet)");
    }
    spdlog::info("cluster synced: {} nodes, {} pods", loop.model.node_count(), loop.model.pod_count());
    if (elector && !elector->leading())
        spdlog::info("standby: {} waits for the lease {}/{}", elector->identity(), le.resourceNamespace,
                     le.resourceName);

    WallClock clock(loop);
    DaemonEnvironment environment(loop);
    Driver driver(descheduler, loop.model, clock, environment);
    DriverOptions run;
    const int64_t interval_ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(config.deschedulingInterval.value).count();
    run.interval_ms = interval_ms;
    if (interval_ms <= 0) {
        // One cycle, then exit (as koord-descheduler with deschedulingInterval 0), once leading.
        run.cycles = 1;
        while (elector && !elector->leading() && !loop.stop) clock.wait_until(clock.now_ms() + 200);
    }
    int code = kExitOk;
    try {
        driver.run(run);
    } catch (const std::exception& e) {
        spdlog::critical("the control loop failed: {}", e.what());
        code = kExitRuntime;
    }
    if (loop.lost) code = kExitRuntime;
    events.flush();
    if (elector) elector->release();  // hands the Lease back when still leading
    if (usage) usage->stop();
    sync.stop();
    spdlog::info("stopped");
    return code;
}

}  // namespace kd::core::daemon
