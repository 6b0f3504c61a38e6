#include "runtime/evictor_proxy.hpp"

#include "runtime/plugin_instance.hpp"
#include "runtime/profile_runtime.hpp"

#include <kdesched/plugin.hpp>

#include <spdlog/spdlog.h>

namespace kd::core {

void EvictorProxy::filter(CallScope& scope, const kd_pod& pod, bool pre_eviction, kd_filter_result& out) const {
    out = kd_filter_result{sizeof(kd_filter_result), 1, {}};
    for (PluginInstance* f : filters_) {
        kd_call call = scope.call;
        call.plugin = kd_str{f->name().data(), f->name().size()};
        kd_filter_result r{};
        f->filter(call, pod, pre_eviction, r);
        if (!r.allowed) {
            if (ctx_.observer)
                ctx_.observer->on_filter_rejection(scope.profile->name(), kd::sv(scope.call.plugin), pod, f->name(),
                                                   kd::sv(r.reason));
            // "<plugin>: <reason>" tells the caller which filter said no.
            out.allowed = 0;
            out.reason = scope.keep(f->name() + ": " + std::string(kd::sv(r.reason)));
            return;
        }
    }
}

void EvictorProxy::evict(CallScope& scope, const kd_pod& pod, const kd_evict_options& options,
                         kd_evict_result& out) const {
    kd::Pod p(&pod);
    EvictionRecord rec;
    rec.profile = scope.profile->name();
    rec.requested_by = kd::sv(options.plugin_name).empty() ? std::string(kd::sv(scope.call.plugin))
                                                           : std::string(kd::sv(options.plugin_name));
    rec.pod = p.key();
    rec.node = std::string(p.node_name());
    rec.reason = std::string(kd::sv(options.reason));

    auto finish = [&](kd_evict_code code, std::string decided_by, std::string detail) {
        rec.code = code;
        rec.decided_by = std::move(decided_by);
        rec.detail = std::move(detail);
        out = kd_evict_result{sizeof(kd_evict_result), code, scope.keep(rec.decided_by), scope.keep(rec.detail)};
        if (ctx_.observer) ctx_.observer->on_eviction(rec);
    };

    for (PluginInstance* f : filters_) {
        kd_call call = scope.call;
        call.plugin = kd_str{f->name().data(), f->name().size()};
        kd_filter_result r{};
        f->filter(call, pod, false, r);
        if (!r.allowed) return finish(KD_EVICT_FILTERED, f->name(), std::string(kd::sv(r.reason)));
    }
    kd_evict_code limit = ctx_.limiter->check(rec.node, std::string(p.ns()));
    if (limit != KD_EVICT_ACCEPTED) return finish(limit, "", kd::evict_code_name(limit));
    if (ctx_.dry_run) {
        spdlog::info("Evicted pod in dry run mode pod={} reason=\"{}\" strategy={} node={}", rec.pod, rec.reason,
                     rec.requested_by, rec.node);
        ctx_.limiter->record(rec.node, std::string(p.ns()));
        return finish(KD_EVICT_DRY_RUN, "", "framework dry run");
    }
    kd_call call = scope.call;
    call.plugin = kd_str{evict_->name().data(), evict_->name().size()};
    kd_evict_options opts = options;
    opts.plugin_name = kd_str{rec.requested_by.data(), rec.requested_by.size()};
    kd_evict_result r{};
    HookStatus st = evict_->evict(call, pod, opts, r);
    if (!st.ok) return finish(KD_EVICT_FAILED, evict_->name(), st.error);
    auto code = static_cast<kd_evict_code>(r.code);
    if (code != KD_EVICT_ACCEPTED) {
        // An evict plugin may only accept, filter or fail; anything else is reported as a failure.
        if (code != KD_EVICT_FILTERED) code = KD_EVICT_FAILED;
        std::string by = kd::sv(r.plugin).empty() ? evict_->name() : std::string(kd::sv(r.plugin));
        return finish(code, by, std::string(kd::sv(r.reason)));
    }
    ctx_.limiter->record(rec.node, std::string(p.ns()));
    finish(KD_EVICT_ACCEPTED, evict_->name(), std::string(kd::sv(r.reason)));
}

}  // namespace kd::core
