// The C++ plugin layer: write a class, add one macro.
//
//     struct MyArgs { int64_t limit = 3; template <class V> void fields(V& v) { v("limit", limit); } };
//
//     class MyPlugin {
//     public:
//         static constexpr const char* kName = "MyPlugin";       // name used in profiles
//         static constexpr const char* kVersion = "1.0.0";       // the plugin's own version
//         static constexpr const char* kDescription = "…";       // optional
//         using Args = MyArgs;                                   // optional (default: no args)
//         MyPlugin(kd::Host& host, Args args);
//         void balance(kd::Cycle& cycle);                        // any subset of the hooks below
//     };
//     KDESCHED_PLUGIN(MyPlugin)
//
// Hooks, detected by name; a hook with the wrong signature fails to compile with the expected one:
//     void deschedule(kd::Cycle&);
//     void balance(kd::Cycle&);
//     kd::Verdict filter(kd::Cycle&, const kd::Pod&);                // with pre_eviction_filter
//     kd::Verdict pre_eviction_filter(kd::Cycle&, const kd::Pod&);
//     kd::EvictOutcome evict(kd::Cycle&, const kd::Pod&, const kd::EvictRequest&);
//     int64_t tick(kd::Cycle&);   // periodic work; returns when to be called next (0 = next cycle)
// Exceptions never cross the boundary: each is caught and reported to the host as an error.
//
// Host services a plugin can use from its hooks: the Pod Picker (`kd::PodPickerArgs` in the
// plugin's args, from <kdesched/pod_picker.hpp>; `kd::Cycle::pick_pods`).
//
// The oldest host served: KDESCHED_TARGET_API_MINOR (default: this SDK's KD_API_VERSION_MINOR).
// The module stamps API 1.<target>, and a host loads a module whose minor is not newer than its
// own, so a plugin built with -DKDESCHED_TARGET_API_MINOR=0 (CMake: kdesched_target_api(t 0))
// loads on every 1.x host. What a newer host adds is then of two kinds:
//   * no fallback, so a compile error naming the minor when used: the tick hook,
//     Snapshot::workload_of, Cycle::count_eviction (1.1);
//   * a fallback on an older host, so always available: Host::instance_id() "" and
//     Cycle::pick_pods an error (1.1); WriteResult codes other than failed and its
//     resource_version, Cycle::update_object_status an error, Snapshot::revision() 0 (1.2);
//     Pod::status_reason() and container_statuses() empty (1.3); Pod::start_ms() 0 (1.4);
//     Pod::topology_spread_constraints() empty (1.5); Pod::preferred_node_terms(), the pod
//     (anti-)affinity terms and container images empty (1.6); Pod::resource_claims() nullopt
//     and Pod::pvc_claim_count() 0 (1.8).
// The host keeps the promises of the stamped minor: for a target below 1.2 create_object and
// update_object write a given `status` too.
#pragma once

#include <kdesched/abi.h>
#include <kdesched/decode.hpp>
#include <kdesched/pod_picker.hpp>
#include <kdesched/target_api.hpp>
#include <kdesched/view.hpp>

#include <algorithm>
#include <cctype>
#include <cstdarg>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

namespace kd {

// No args: the profile may only give an empty args object.
struct NoArgs {
    template <class V>
    void fields(V&) {}
};

// A filter's answer. `reason`: a short code saying why the pod was rejected ("DaemonSetPod").
struct Verdict {
    bool allowed = true;
    std::string reason;
    static Verdict allow() { return {true, {}}; }
    static Verdict reject(std::string why) { return {false, std::move(why)}; }
};

// What happened to an eviction request (see kd_evict_code).
struct EvictOutcome {
    kd_evict_code code = KD_EVICT_ACCEPTED;
    std::string plugin;  // which plugin decided (filter or evict plugin); empty for limits
    std::string reason;
    // True when the pod is (or, in dry run, would be) evicted.
    bool evicted() const { return code == KD_EVICT_ACCEPTED || code == KD_EVICT_DRY_RUN; }
    // True when no further request in this cycle can succeed for the same node/namespace/total.
    bool limit_reached() const {
        return code == KD_EVICT_LIMIT_NODE || code == KD_EVICT_LIMIT_NAMESPACE || code == KD_EVICT_LIMIT_TOTAL;
    }
    static EvictOutcome accepted() { return {KD_EVICT_ACCEPTED, {}, {}}; }
    static EvictOutcome filtered(std::string why) { return {KD_EVICT_FILTERED, {}, std::move(why)}; }
    static EvictOutcome failed(std::string why) { return {KD_EVICT_FAILED, {}, std::move(why)}; }
    // From the host's combined verdict "<filter plugin>: <reason>" (kd_host.filter and
    // pre_eviction_filter): the plugin and the reason apart.
    static EvictOutcome filtered_by(std::string_view verdict) {
        size_t colon = verdict.find(": ");
        if (colon == std::string_view::npos) return {KD_EVICT_FILTERED, {}, std::string(verdict)};
        return {KD_EVICT_FILTERED, std::string(verdict.substr(0, colon)), std::string(verdict.substr(colon + 2))};
    }
};

// Human-readable name of an eviction code ("accepted", "limit-node", …).
inline const char* evict_code_name(kd_evict_code c) {
    switch (c) {
        case KD_EVICT_ACCEPTED:
            return "accepted";
        case KD_EVICT_DRY_RUN:
            return "dry-run";
        case KD_EVICT_FILTERED:
            return "filtered";
        case KD_EVICT_LIMIT_NODE:
            return "limit-node";
        case KD_EVICT_LIMIT_NAMESPACE:
            return "limit-namespace";
        case KD_EVICT_LIMIT_TOTAL:
            return "limit-total";
        case KD_EVICT_FAILED:
            return "failed";
    }
    return "unknown";
}

// What a cluster write did (kd_write_code): ok, or why not, with the API server's message. The
// new resourceVersion of a created or updated object is what the next update must carry.
// Converts to the message ("" on success), as the writes returned before API 1.2.
struct WriteResult {
    kd_write_code code = KD_WRITE_OK;
    std::string message;
    std::string resource_version;

    WriteResult() = default;
    // A failure with this message (KD_WRITE_FAILED), or success for "".
    WriteResult(std::string failure)
        : code(failure.empty() ? KD_WRITE_OK : KD_WRITE_FAILED), message(std::move(failure)) {}
    WriteResult(kd_write_code c, std::string m, std::string rv = "")
        : code(c), message(std::move(m)), resource_version(std::move(rv)) {}
    bool ok() const { return code == KD_WRITE_OK; }
    bool conflict() const { return code == KD_WRITE_CONFLICT; }
    bool not_found() const { return code == KD_WRITE_NOT_FOUND; }
    operator std::string() const { return message; }
};

// Human-readable name of a write code ("conflict", "not-found", …).
inline const char* write_code_name(kd_write_code c) {
    switch (c) {
        case KD_WRITE_OK:
            return "ok";
        case KD_WRITE_CONFLICT:
            return "conflict";
        case KD_WRITE_NOT_FOUND:
            return "not-found";
        case KD_WRITE_EXISTS:
            return "exists";
        case KD_WRITE_INVALID:
            return "invalid";
        case KD_WRITE_FORBIDDEN:
            return "forbidden";
        case KD_WRITE_REFUSED:
            return "refused";
        case KD_WRITE_TRANSIENT:
            return "transient";
        case KD_WRITE_FAILED:
            return "failed";
    }
    return "unknown";
}

// How Cycle::evict treats one request.
struct EvictOptions {
    // Run the profile's PreEvictionFilter before the limits (the default, and what upstream's
    // plugins do right before evicting). False only where the plugin you port never calls it
    // (Koordinator's LowNodeLoad, which checks node fit itself), or where you just called
    // Cycle::pre_eviction_filter for this pod.
    bool pre_eviction_filter = true;
};

// What an evict hook is asked to do.
struct EvictRequest {
    std::string_view reason;
    std::string_view plugin;  // the plugin that asked
};

enum class LogLevel { debug = KD_LOG_DEBUG, info = KD_LOG_INFO, warn = KD_LOG_WARN, error = KD_LOG_ERROR };

// The host as seen by one plugin instance: facts given at creation.
class Host {
public:
    Host(const kd_host* host, const kd_create_info* info)
        : host_(host), profile_(sv(info->profile)), interval_ms_(info->descheduling_interval_ms) {
        if (info->struct_size >= offsetof(kd_create_info, instance_id) + sizeof(kd_str))
            instance_id_ = sv(info->instance_id);
        if (info->struct_size >= offsetof(kd_create_info, metrics_sources) + sizeof(uint32_t))
            metrics_sources_ = info->metrics_sources;
    }
    const kd_host* raw() const { return host_; }
    const std::string& profile() const { return profile_; }
    // Top-level deschedulingInterval in milliseconds (0 = one cycle).
    int64_t descheduling_interval_ms() const { return interval_ms_; }
    // Stable identity of this descheduler (kd_create_info.instance_id; "" from a 1.0 host).
    const std::string& instance_id() const { return instance_id_; }
    // (API 1.8) The host keeps metrics.k8s.io usage for this run (the policy's metricsProviders
    // has KubernetesMetrics, or metricsCollector.enabled): Snapshot::list_objects answers
    // "NodeMetrics.metrics.k8s.io" and "PodMetrics.metrics.k8s.io". False from an older host.
    bool collects_kubernetes_metrics() const { return (metrics_sources_ & KD_METRICS_KUBERNETES) != 0; }

private:
    const kd_host* host_;
    std::string profile_;
    int64_t interval_ms_;
    std::string instance_id_;
    uint32_t metrics_sources_ = 0;
};

// One hook call: the snapshot, the evictor, cluster writes, host services and logging. Valid only
// while the hook runs.
class Cycle {
public:
    Cycle(const kd_host* host, const kd_call* call) : host_(host), call_(call) {}
    Snapshot snapshot() const { return Snapshot(call_->snapshot); }
    int64_t now_ms() const { return call_->snapshot->now_ms; }
    uint64_t number() const { return call_->cycle; }
    bool dry_run() const { return call_->dry_run != 0; }
    std::string_view profile() const { return sv(call_->profile); }
    std::string_view plugin() const { return sv(call_->plugin); }

    // AND of the profile's filter plugins.
    Verdict filter(const Pod& pod) const { return run_filter(host_->filter, pod); }
    Verdict pre_eviction_filter(const Pod& pod) const { return run_filter(host_->pre_eviction_filter, pod); }

    // Asks the host to evict, which runs for you, in this order: the profile's filter plugins'
    // Filter, their PreEvictionFilter (DefaultEvictor's nodeFit: is there another node for the
    // pod?) unless `options` says not to, the per-node / per-namespace / total limits, the
    // framework's dry run, and the profile's evict plugin. A rejection is KD_EVICT_FILTERED
    // naming the filter plugin and its reason; a limit is one of the KD_EVICT_LIMIT_* codes: stop
    // asking for that node, namespace or cycle (kd::evict_in_order does it for you).
    EvictOutcome evict(const Pod& pod, std::string_view reason, EvictOptions options = {}) const {
        // A host before 1.4 runs no PreEvictionFilter in evict: ask it first, as a 1.4 host would.
        if (options.pre_eviction_filter && host_->api_version.minor < 4) {
            Verdict v = pre_eviction_filter(pod);
            if (!v.allowed) return EvictOutcome::filtered_by(v.reason);
        }
        kd_evict_options opts{sizeof(kd_evict_options), to_kd(reason), kd_str{nullptr, 0},
                              options.pre_eviction_filter ? 0u : uint32_t(KD_EVICT_SKIP_PRE_EVICTION_FILTER)};
        kd_evict_result out{sizeof(kd_evict_result), KD_EVICT_FAILED, {}, {}};
        host_->evict(host_, call_, pod.raw(), &opts, &out);
        return {static_cast<kd_evict_code>(out.code), std::string(sv(out.plugin)), std::string(sv(out.reason))};
    }

    // Cluster writes (the simulator or the API server): what each did, with the API server's
    // message when it failed. The effect shows in a later hook call's snapshot.
    // Evicts the pod through the Eviction API (the simulator deletes it); for evict plugins.
    WriteResult evict_pod(const Pod& pod, std::string_view reason) const {
        return write([&](kd_error_sink* e) { return host_->evict_pod(host_, call_, pod.raw(), to_kd(reason), e); });
    }
    // Creates a PodMigrationJob or Reservation from its JSON wire form; `status` is ignored (a
    // subresource: write it with update_object_status) unless the target API is below 1.2.
    WriteResult create_object(std::string_view json) const {
        return write([&](kd_error_sink* e) { return host_->create_object(host_, call_, to_kd(json), e); });
    }
    // Replaces a PodMigrationJob's or Reservation's metadata and spec; metadata.resourceVersion
    // must be the stored one (else conflict()); `status` is ignored unless the target is below 1.2.
    WriteResult update_object(std::string_view json) const {
        return write([&](kd_error_sink* e) { return host_->update_object(host_, call_, to_kd(json), e); });
    }
    // (API 1.2) Replaces the status of a PodMigrationJob or Reservation (the status subresource).
    // An older host: failed, saying so.
    WriteResult update_object_status(std::string_view json) const {
        if (host_->struct_size < offsetof(kd_host, update_object_status) + sizeof(host_->update_object_status))
            return {KD_WRITE_FAILED, "this host has no status writes (kd_host.update_object_status, API 1.2)"};
        return write([&](kd_error_sink* e) { return host_->update_object_status(host_, call_, to_kd(json), e); });
    }
    WriteResult delete_object(std::string_view kind, std::string_view ns, std::string_view name) const {
        return write([&](kd_error_sink* e) {
            return host_->delete_object(host_, call_, to_kd(kind), to_kd(ns), to_kd(name), e);
        });
    }
    // Deletes the pod (no Eviction API).
    WriteResult delete_pod(const Pod& pod, std::string_view reason) const {
        return write([&](kd_error_sink* e) { return host_->delete_pod(host_, call_, pod.raw(), to_kd(reason), e); });
    }
    WriteResult annotate_pod(const Pod& pod, std::string_view key, std::string_view value) const {
        return write([&](kd_error_sink* e) {
            return host_->annotate_pod(host_, call_, pod.raw(), to_kd(key), to_kd(value), e);
        });
    }
    // Records an Event (type "Normal" or "Warning") about an object.
    void record_event(std::string_view kind, std::string_view ns, std::string_view name, std::string_view type,
                      std::string_view reason, std::string_view action, std::string_view message) const {
        host_->record_event(host_, call_, to_kd(kind), to_kd(ns), to_kd(name), to_kd(type), to_kd(reason),
                            to_kd(action), to_kd(message));
    }

    // (API 1.1) Counts one eviction in descheduler_pods_evicted{result, strategy, namespace, node}.
    template <class Use = void>
    void count_eviction(const Pod& pod, std::string_view result, std::string_view strategy) const {
        static_assert(detail::targets_api_minor<1, Use>,
                      "kd::Cycle::count_eviction needs a host of plugin API 1.1: KDESCHED_TARGET_API_MINOR >= 1");
        host_->count_eviction(host_, call_, pod.raw(), to_kd(result), to_kd(strategy));
    }

    // Facts for the host's reports. The keys the host knows: a node's "pool" (the name of the pool
    // that saw it) and "class" (low, high, prodLow, prodHigh, bothLow, appropriate); a pod's
    // "skipped": why a candidate stayed, shown by `kdesched simulate --explain`. Another key is
    // ignored, with one warning per plugin and key.
    //
    // A reason code is CamelCase and names the check, as the host's own do ("NodeFit",
    // "LimitReached", "EvictableNamespaces", "PodSelectors"), optionally followed by ": " and a
    // short detail ("MinReplicas: 1 of 2 ready"); --explain groups pods by the code. For a pod the
    // last word of a cycle wins: a later report or eviction outcome replaces an earlier one, and
    // a pod evicted in the end is not listed at all.
    void report_node(std::string_view node, std::string_view key, std::string_view value) const {
        host_->report(host_, call_, to_kd("node"), to_kd(node), to_kd(key), to_kd(value));
    }
    void report_pod(const Pod& pod, std::string_view key, std::string_view value) const {
        // "ns/name" on the stack: plugins report every skipped candidate, and a heap string per
        // report showed in the cycle's profile. A valid key has at most 63 + 1 + 253 bytes.
        std::string_view ns = pod.ns(), name = pod.name();
        char buffer[320];
        if (ns.size() + 1 + name.size() > sizeof buffer) {
            std::string subject = pod.key();
            host_->report(host_, call_, to_kd("pod"), to_kd(subject), to_kd(key), to_kd(value));
            return;
        }
        ns.copy(buffer, ns.size());
        buffer[ns.size()] = '/';
        name.copy(buffer + ns.size() + 1, name.size());
        std::string_view subject(buffer, ns.size() + 1 + name.size());
        host_->report(host_, call_, to_kd("pod"), to_kd(subject), to_kd(key), to_kd(value));
    }

    // Asks the Pod Picker `picker` which of `candidates` should leave first; `requested` (1 to
    // candidates.size()): how many the caller needs. Blocks for at most (maxRetries + 1) ×
    // timeoutSeconds. On failure (the host says why; it counts every outcome; a pre-1.1 host has
    // no Pod Picker) keep your own order.
    PickResult pick_pods(const PodPickerArgs& picker, std::span<const kd_pod* const> candidates,
                         uint32_t requested) const {
        if (host_->struct_size < offsetof(kd_host, pick_pods) + sizeof(host_->pick_pods) || !host_->pick_pods)
            return {{}, "this host does not offer the Pod Picker (kd_host.pick_pods, API 1.1)"};
        PickResult out;
        out.ranks.resize(candidates.size(), kPickOther);
        out.error = call_with_sink(
            [&](kd_error_sink* e) {
                return host_->pick_pods(host_, call_, to_kd(picker.json), candidates.data(), candidates.size(),
                                        requested, out.ranks.data(), e);
            },
            "the Pod Picker failed without a message");
        if (!out.ok()) out.ranks.clear();
        return out;
    }

    void log(LogLevel level, std::string_view message) const {
        host_->log(host_, call_, static_cast<int32_t>(level), message.data(), message.size());
    }
    void info(std::string_view m) const { log(LogLevel::info, m); }
    void debug(std::string_view m) const { log(LogLevel::debug, m); }
    void warn(std::string_view m) const { log(LogLevel::warn, m); }

private:
    template <class Fn>
    static WriteResult write(Fn&& fn) {
        WriteResult out;
        kd_error_sink sink = make_sink(out.message);
        sink.code = KD_WRITE_OK;
        kd_status st = fn(&sink);
        out.code = st == KD_OK ? KD_WRITE_OK : sink.code == KD_WRITE_OK ? KD_WRITE_FAILED : kd_write_code(sink.code);
        if (st == KD_OK) out.message.clear(), out.resource_version = sv(sink.resource_version);
        if (!out.ok() && out.message.empty()) out.message = "cluster write failed without a message";
        return out;
    }
    static kd_error_sink make_sink(std::string& message) {
        kd_error_sink sink{};
        sink.struct_size = sizeof(kd_error_sink);
        sink.host_data = &message;
        sink.set = [](kd_error_sink* self, const char* m, size_t n) {
            static_cast<std::string*>(self->host_data)->assign(m, n);
        };
        return sink;
    }
    // Runs a callback that reports through an error sink: "" on KD_OK, else its message.
    template <class Fn>
    static std::string call_with_sink(Fn&& fn, std::string_view without_message) {
        std::string message;
        kd_error_sink sink = make_sink(message);
        if (fn(&sink) == KD_OK) return "";
        return message.empty() ? std::string(without_message) : message;
    }
    template <class Fn>
    Verdict run_filter(Fn fn, const Pod& pod) const {
        kd_filter_result out{sizeof(kd_filter_result), 1, {}};
        fn(host_, call_, pod.raw(), &out);
        return {out.allowed != 0, std::string(sv(out.reason))};
    }
    const kd_host* host_;
    const kd_call* call_;
};

namespace detail {

template <class T>
concept HasArgs = requires {
    typename T::Args;
};
template <class T>
struct ArgsOf {
    using type = NoArgs;
};
template <HasArgs T>
struct ArgsOf<T> {
    using type = typename T::Args;
};

template <class T>
concept HasDescheduleName = requires {
    &T::deschedule;
};
template <class T>
concept HasBalanceName = requires {
    &T::balance;
};
template <class T>
concept HasFilterName = requires {
    &T::filter;
};
template <class T>
concept HasPreEvictionFilterName = requires {
    &T::pre_eviction_filter;
};
template <class T>
concept HasEvictName = requires {
    &T::evict;
};
template <class T>
concept HasTickName = requires {
    &T::tick;
};

// The instance the host holds: the user's object plus storage for strings returned to the host.
template <class T>
struct Instance {
    Host host;
    std::unique_ptr<T> plugin;
    std::string filter_reason;  // keeps kd_filter_result.reason alive until the next call
    std::string evict_plugin, evict_reason;
};

inline void report(kd_error_sink* err, std::string_view msg) {
    if (err && err->set) err->set(err, msg.data(), msg.size());
}

// Runs `fn`, turning every exception into KD_ERROR plus a message.
template <class Fn>
kd_status guarded(kd_error_sink* err, Fn&& fn) noexcept {
    try {
        fn();
        return KD_OK;
    } catch (const std::exception& e) {
        report(err, e.what());
    } catch (...) {
        report(err, "unknown exception (not derived from std::exception)");
    }
    return KD_ERROR;
}

template <class T>
T& self(kd_plugin_instance* p) {
    return *reinterpret_cast<Instance<T>*>(p)->plugin;
}

template <class T>
struct Hooks {
    using Args = typename ArgsOf<T>::type;
    static_assert(std::is_constructible_v<T, Host&, Args>,
                  "kdesched plugin: expected constructor signature: T(kd::Host& host, Args args)");

    static kd_status create(const kd_host* host, const kd_create_info* info, const char* json, size_t size,
                            kd_plugin_instance** out, kd_error_sink* err) noexcept {
        *out = nullptr;
        return guarded(err, [&] {
            auto inst = std::make_unique<Instance<T>>(Instance<T>{Host(host, info), nullptr, {}, {}, {}});
            Args args = parse<Args>(std::string_view(json ? json : "{}", json ? size : 2));
            inst->plugin = std::make_unique<T>(inst->host, std::move(args));
            *out = reinterpret_cast<kd_plugin_instance*>(inst.release());
        });
    }
    static void destroy(kd_plugin_instance* p) noexcept { delete reinterpret_cast<Instance<T>*>(p); }

    static kd_status deschedule(kd_plugin_instance* p, const kd_call* call, kd_error_sink* err) noexcept {
        return guarded(err, [&] {
            Cycle c(reinterpret_cast<Instance<T>*>(p)->host.raw(), call);
            self<T>(p).deschedule(c);
        });
    }
    static kd_status balance(kd_plugin_instance* p, const kd_call* call, kd_error_sink* err) noexcept {
        return guarded(err, [&] {
            Cycle c(reinterpret_cast<Instance<T>*>(p)->host.raw(), call);
            self<T>(p).balance(c);
        });
    }
    template <bool Pre>
    static kd_status filter(kd_plugin_instance* p, const kd_call* call, const kd_pod* pod, kd_filter_result* out,
                            kd_error_sink* err) noexcept {
        return guarded(err, [&] {
            auto* inst = reinterpret_cast<Instance<T>*>(p);
            Cycle c(inst->host.raw(), call);
            Verdict v = Pre ? inst->plugin->pre_eviction_filter(c, Pod(pod)) : inst->plugin->filter(c, Pod(pod));
            inst->filter_reason = std::move(v.reason);
            out->allowed = v.allowed ? 1 : 0;
            out->reason = to_kd(inst->filter_reason);
        });
    }
    static kd_status evict(kd_plugin_instance* p, const kd_call* call, const kd_pod* pod, const kd_evict_options* o,
                           kd_evict_result* out, kd_error_sink* err) noexcept {
        return guarded(err, [&] {
            auto* inst = reinterpret_cast<Instance<T>*>(p);
            Cycle c(inst->host.raw(), call);
            EvictOutcome r = inst->plugin->evict(c, Pod(pod), EvictRequest{sv(o->reason), sv(o->plugin_name)});
            inst->evict_plugin = std::move(r.plugin);
            inst->evict_reason = std::move(r.reason);
            out->code = r.code;
            out->plugin = to_kd(inst->evict_plugin);
            out->reason = to_kd(inst->evict_reason);
        });
    }

    static kd_status tick(kd_plugin_instance* p, const kd_call* call, int64_t* next_ms, kd_error_sink* err) noexcept {
        *next_ms = 0;
        return guarded(err, [&] {
            Cycle c(reinterpret_cast<Instance<T>*>(p)->host.raw(), call);
            *next_ms = self<T>(p).tick(c);
        });
    }

    static kd_plugin_descriptor make() {
        kd_plugin_descriptor d{};
        d.struct_size = sizeof(kd_plugin_descriptor);
        d.name = T::kName;
        d.version = T::kVersion;
        if constexpr (requires { T::kDescription; }) d.description = T::kDescription;
        d.create = &create;
        d.destroy = &destroy;
        if constexpr (HasDescheduleName<T>) {
            static_assert(std::is_convertible_v<decltype(&T::deschedule), void (T::*)(Cycle&)>,
                          "kdesched plugin: expected signature: void deschedule(kd::Cycle&)");
            d.deschedule = &deschedule;
        }
        if constexpr (HasBalanceName<T>) {
            static_assert(std::is_convertible_v<decltype(&T::balance), void (T::*)(Cycle&)>,
                          "kdesched plugin: expected signature: void balance(kd::Cycle&)");
            d.balance = &balance;
        }
        static_assert(HasFilterName<T> == HasPreEvictionFilterName<T>,
                      "kdesched plugin: a filter plugin implements both filter() and pre_eviction_filter()");
        if constexpr (HasFilterName<T>) {
            static_assert(std::is_convertible_v<decltype(&T::filter), Verdict (T::*)(Cycle&, const Pod&)>,
                          "kdesched plugin: expected signature: kd::Verdict filter(kd::Cycle&, const kd::Pod&)");
            static_assert(
                std::is_convertible_v<decltype(&T::pre_eviction_filter), Verdict (T::*)(Cycle&, const Pod&)>,
                "kdesched plugin: expected signature: kd::Verdict pre_eviction_filter(kd::Cycle&, const kd::Pod&)");
            d.filter = &filter<false>;
            d.pre_eviction_filter = &filter<true>;
        }
        if constexpr (HasEvictName<T>) {
            static_assert(
                std::is_convertible_v<decltype(&T::evict),
                                      EvictOutcome (T::*)(Cycle&, const Pod&, const EvictRequest&)>,
                "kdesched plugin: expected signature: kd::EvictOutcome evict(kd::Cycle&, const kd::Pod&, const "
                "kd::EvictRequest&)");
            d.evict = &evict;
        }
        if constexpr (HasTickName<T>) {
            static_assert(targets_api_minor<1, T>,
                          "kdesched plugin: tick() needs a host of plugin API 1.1: KDESCHED_TARGET_API_MINOR >= 1");
            static_assert(std::is_convertible_v<decltype(&T::tick), int64_t (T::*)(Cycle&)>,
                          "kdesched plugin: expected signature: int64_t tick(kd::Cycle&)");
            d.tick = &tick;
        }
        return d;
    }
};

}  // namespace detail

// The descriptor of plugin class T (static storage).
template <class T>
const kd_plugin_descriptor* descriptor() {
    static const kd_plugin_descriptor d = detail::Hooks<T>::make();
    return &d;
}

// A module (library) of one or more plugin classes. It claims the target API, not the SDK's, so
// that hosts as old as the target load it; the patch of an older minor is unknown here (and never
// matters for loading), hence 0.
template <class... Ts>
const kd_module* module(const char* name) {
    static const kd_plugin_descriptor* const plugins[] = {descriptor<Ts>()...};
    static const kd_module m{
        sizeof(kd_module), {KD_API_VERSION_MAJOR, KDESCHED_TARGET_API_MINOR, 0}, name, plugins, sizeof...(Ts)};
    return &m;
}

}  // namespace kd

// Exports a library holding several plugin classes: KDESCHED_MODULE("my-plugins", A, B)
#define KDESCHED_MODULE(module_name, ...)                         \
    extern "C" KD_EXPORT const kd_module* kdesched_module(void) { \
        return ::kd::module<__VA_ARGS__>(module_name);            \
    }

// Exports a library holding one plugin class.
#define KDESCHED_PLUGIN(cls) KDESCHED_MODULE(cls::kName, cls)
