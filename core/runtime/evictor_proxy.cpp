#include "runtime/evictor_proxy.hpp"

#include "runtime/instance_owner.hpp"
#include "runtime/plugin_instance.hpp"

#include <kdesched/plugin.hpp>

#include <spdlog/spdlog.h>

#include <cstddef>

namespace kd::core {

const PluginInstance* EvictorProxy::first_rejection(CallScope& scope, const kd_pod& pod, bool pre_eviction,
                                                    std::string_view& reason) const {
    for (PluginInstance* f : pre_eviction ? pre_eviction_filters_ : filters_) {
        kd_call call = scope.call;
        call.plugin = kd::to_kd(f->name());
        kd_filter_result r{};
        f->filter(call, pod, pre_eviction, r);
        if (r.allowed) continue;
        reason = kd::sv(r.reason);
        if (ctx_.observer)
            ctx_.observer->on_filter_rejection(scope.profile->name(), kd::sv(scope.call.plugin), pod, f->name(),
                                               reason);
        return f;
    }
    return nullptr;
}

void EvictorProxy::filter(CallScope& scope, const kd_pod& pod, bool pre_eviction, kd_filter_result& out) const {
    out = kd_filter_result{sizeof(kd_filter_result), 1, {}};
    std::string_view reason;
    if (const PluginInstance* f = first_rejection(scope, pod, pre_eviction, reason)) {
        // "<plugin>: <reason>" tells the caller which filter said no.
        out.allowed = 0;
        out.reason = scope.keep(f->name() + ": " + std::string(reason));
    }
}

void EvictorProxy::evict(CallScope& scope, const kd_pod& pod, const kd_evict_options& options,
                         kd_evict_result& out) const {
    kd::Pod p(&pod);
    EvictionRecord rec;
    rec.profile = scope.profile->name();
    rec.requested_by = kd::sv(options.plugin_name).empty() ? kd::sv(scope.call.plugin) : kd::sv(options.plugin_name);
    rec.pod = &pod;
    rec.reason = kd::sv(options.reason);

    // `decided_by` names a plugin (lives as long as the profile); `detail` is copied into the
    // scope when it comes from a plugin, whose string may change on its next call.
    auto finish = [&](kd_evict_code code, std::string_view decided_by, std::string_view detail, bool copy_detail) {
        rec.code = code;
        rec.decided_by = decided_by;
        rec.detail = copy_detail ? kd::sv(scope.keep(std::string(detail))) : detail;
        out = kd_evict_result{sizeof(kd_evict_result), code, kd::to_kd(rec.decided_by), kd::to_kd(rec.detail)};
        if (ctx_.observer) ctx_.observer->on_eviction(rec);
        if (ctx_.eviction_failure_events && (code == KD_EVICT_FAILED || ctx_.limiter->limit_of(code)))
            failure_event(rec);
    };

    std::string_view rejected;
    if (const PluginInstance* f = first_rejection(scope, pod, false, rejected))
        return finish(KD_EVICT_FILTERED, f->name(), rejected, true);
    // The PreEvictionFilter too, unless the plugin asks not to (API 1.4): the safe default, as
    // upstream's plugins call it right before evicting; options of an older plugin have no flags.
    bool has_flags = options.struct_size >= offsetof(kd_evict_options, flags) + sizeof(options.flags);
    if (!(has_flags && (options.flags & KD_EVICT_SKIP_PRE_EVICTION_FILTER)))
        if (const PluginInstance* f = first_rejection(scope, pod, true, rejected))
            return finish(KD_EVICT_FILTERED, f->name(), rejected, true);
    kd_evict_code limit = ctx_.limiter->check(p.node_name(), p.ns());
    if (limit != KD_EVICT_ACCEPTED) {
        // Counted under the limit's name, as upstream's PodEvictor counts its limit errors.
        if (ctx_.observer)
            ctx_.observer->on_pods_evicted(rec.profile, pod, EvictionLimiter::metric_result(limit), rec.requested_by,
                                           ctx_.dry_run);
        return finish(limit, "", kd::evict_code_name(limit), false);
    }
    if (ctx_.dry_run) {
        // The key's parts, not p.key(): nothing is built when info is off (a cost per eviction).
        spdlog::info("Evicted pod in dry run mode pod={}/{} reason=\"{}\" strategy={} node={} profile={}", p.ns(),
                     p.name(), rec.reason, rec.requested_by, p.node_name(), rec.profile);
        ctx_.limiter->record(p.node_name(), p.ns());
        // Counted as a successful eviction, as upstream's PodEvictor does in a dry run
        // (pkg/descheduler/evictions/evictions.go@v0.35.1): a dry run's metrics show what would go.
        if (ctx_.observer) ctx_.observer->on_pods_evicted(rec.profile, pod, "success", rec.requested_by, true);
        return finish(KD_EVICT_DRY_RUN, "", "framework dry run", false);
    }
    kd_call call = scope.call;
    call.plugin = kd::to_kd(evict_->name());
    kd_evict_options opts = options;
    opts.plugin_name = kd::to_kd(rec.requested_by);
    kd_evict_result r{};
    HookStatus st = evict_->evict(call, pod, opts, r);
    if (!st.ok) return finish(KD_EVICT_FAILED, evict_->name(), st.error, true);
    auto code = static_cast<kd_evict_code>(r.code);
    if (code != KD_EVICT_ACCEPTED) {
        // An evict plugin may only accept, filter or fail; anything else is reported as a failure.
        if (code != KD_EVICT_FILTERED) code = KD_EVICT_FAILED;
        std::string_view by = kd::sv(r.plugin).empty() ? std::string_view(evict_->name()) : kd::sv(r.plugin);
        // `by` may be the plugin's own string: keep it with the detail.
        std::string_view kept_by = kd::sv(scope.keep(std::string(by)));
        return finish(code, kept_by, kd::sv(r.reason), true);
    }
    ctx_.limiter->record(p.node_name(), p.ns());
    finish(KD_EVICT_ACCEPTED, evict_->name(), kd::sv(r.reason), !kd::sv(r.reason).empty());
}

// kubernetes-sigs/descheduler's evictionFailureEventNotification (pkg/descheduler/evictions/
// evictions.go@v0.35.1, EvictPod): a Warning `EvictionFailed` Event on the pod when a limit stops
// an eviction or the eviction fails; none in a dry run, whose events upstream sends nowhere.
void EvictorProxy::failure_event(const EvictionRecord& rec) const {
    if (ctx_.dry_run || !ctx_.backend) return;
    kd::Pod p(rec.pod);
    std::string why;
    if (auto limit = ctx_.limiter->limit_of(rec.code)) {
        const char* which = rec.code == KD_EVICT_LIMIT_NODE        ? "node"
                            : rec.code == KD_EVICT_LIMIT_NAMESPACE ? "namespace"
                                                                   : "total";
        why = std::string(which) + " eviction limit exceeded (" + std::to_string(*limit) + ")";
    } else {
        why = std::string(rec.detail);
    }
    ctx_.backend->record_event("Pod", p.ns(), p.name(), "Warning", "EvictionFailed", "Descheduled",
                               "pod eviction from " + std::string(p.node_name()) + " node by kdesched failed: " + why,
                               rec.requested_by);
}

}  // namespace kd::core
