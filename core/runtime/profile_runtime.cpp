#include "runtime/profile_runtime.hpp"

#include "error.hpp"
#include "runtime/host_callbacks.hpp"

#include <kdesched/view.hpp>

#include <algorithm>
#include <chrono>
#include <sstream>

namespace kd::core {

namespace {

// Where a plugin named at some point was written, for messages.
std::string at(const PluginRef& ref) {
    return ref.where.text();
}

// Splits a plugin's create error into lines and points each "path: problem" line at the YAML
// node it is about.
std::vector<std::string> locate_args_errors(const std::string& profile, const std::string& plugin,
                                            const PluginConfig* cfg, const std::string& message) {
    std::vector<std::string> out;
    std::istringstream in(message);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        std::string where = cfg ? cfg->where.text() : "";
        auto colon = line.find(": ");
        if (cfg && colon != std::string::npos && line.substr(0, colon).find(' ') == std::string::npos)
            where = cfg->locate(line.substr(0, colon)).text();
        std::string head =
            (where.empty() ? "" : where + ": ") + "profile \"" + profile + "\": plugin \"" + plugin + "\"";
        out.push_back(head + (cfg ? " args: " : ": ") + line);
    }
    if (out.empty()) out.push_back("profile \"" + profile + "\": plugin \"" + plugin + "\": create failed");
    return out;
}

std::string join_points(const std::vector<std::string>& pts) {
    std::string out;
    for (const auto& p : pts) out += (out.empty() ? "" : ", ") + p;
    return out.empty() ? "nothing" : out;
}

}  // namespace

std::vector<const kd_node*> select_nodes(const kd_node* const* nodes, size_t count,
                                         const std::optional<kd::LabelSelector>& selector,
                                         const kd::StringLabelSelector* text) {
    std::vector<const kd_node*> out;
    out.reserve(count);
    for (size_t i = 0; i < count; ++i) {
        kd::Node n(nodes[i]);
        if (selector && !selector->matches([&](const std::string& k) { return n.labels().get(k); })) continue;
        if (text && !text->matches(n.labels())) continue;
        out.push_back(nodes[i]);
    }
    return out;
}

ProfileRuntime::ProfileRuntime(const Profile& profile, const PluginCatalog& catalog, HostContext& ctx)
    : profile_(profile), ctx_(ctx) {
    std::vector<std::string> problems;
    const std::string prof = "profile \"" + profile_.name + "\"";

    // One instance per plugin name, created in first-mention order; nullptr after a reported problem.
    std::vector<std::string> failed;
    auto instance_for = [&](const PluginRef& ref) -> PluginInstance* {
        for (auto& i : instances_)
            if (i->name() == ref.name) return i.get();
        if (std::find(failed.begin(), failed.end(), ref.name) != failed.end()) return nullptr;
        failed.push_back(ref.name);
        const PluginEntry* entry = catalog.find(ref.name);
        if (!entry) {
            problems.push_back(at(ref) + ": " + prof + ": plugin \"" + ref.name +
                               "\" does not exist (loaded: " + catalog.names() + "; check --plugin-dir)");
            return nullptr;
        }
        const PluginConfig* cfg = profile_.configFor(ref.name);
        try {
            auto instance = std::make_unique<PluginInstance>(*entry, *this);
            instance->create(make_host(instance.get()), cfg ? cfg->argsJson : "{}", ctx_.descheduling_interval_ms);
            instances_.push_back(std::move(instance));
        } catch (const Error& e) {
            std::string msg = e.what();
            std::string prefix = "plugin " + ref.name + ": ";
            if (msg.rfind(prefix, 0) == 0) msg = msg.substr(prefix.size());
            auto lines = locate_args_errors(profile_.name, ref.name, cfg, msg);
            problems.insert(problems.end(), lines.begin(), lines.end());
            return nullptr;
        }
        failed.pop_back();
        return instances_.back().get();
    };

    auto build_point = [&](const std::vector<PluginRef>& refs, const char* point, std::vector<PluginInstance*>& out) {
        for (const auto& ref : refs) {
            if (std::any_of(out.begin(), out.end(), [&](PluginInstance* p) { return p->name() == ref.name; })) {
                problems.push_back(at(ref) + ": " + prof + ": plugin \"" + ref.name + "\" already registered at " +
                                   point + " (remove the duplicate)");
                continue;
            }
            PluginInstance* inst = instance_for(ref);
            if (!inst) continue;
            if (!inst->entry().implements(point)) {
                problems.push_back(at(ref) + ": " + prof + ": plugin \"" + ref.name + "\" does not extend " + point +
                                   " (it implements " + join_points(inst->entry().extension_points()) + ")");
                continue;
            }
            out.push_back(inst);
        }
    };
    build_point(profile_.plugins.deschedule, "deschedule", deschedule_);
    build_point(profile_.plugins.balance, "balance", balance_);
    build_point(profile_.plugins.filter, "filter", filter_);
    std::vector<PluginInstance*> pre_eviction_filters = filter_;
    if (profile_.plugins.preEvictionFilter) {
        pre_eviction_filters.clear();
        build_point(*profile_.plugins.preEvictionFilter, "filter", pre_eviction_filters);
    }
    std::vector<PluginInstance*> evicts;
    build_point(profile_.plugins.evict, "evict", evicts);
    if (profile_.plugins.evict.empty())
        problems.push_back(profile_.where.text() + ": " + prof + ": no evict plugin is enabled (enable exactly one)");
    else if (profile_.plugins.evict.size() > 1)
        problems.push_back(at(profile_.plugins.evict[1]) + ": " + prof +
                           ": only one evict plugin can be enabled (found " +
                           std::to_string(profile_.plugins.evict.size()) + ")");
    if (!problems.empty()) throw Error(prof + " is invalid:", problems);
    evict_ = evicts.front();
    for (const auto& inst : instances_)
        if (inst->entry().tick_hook()) tick_.push_back(inst.get());
    evictor_ = std::make_unique<EvictorProxy>(ctx_, filter_, std::move(pre_eviction_filters), evict_);
}

template <class Hook>
std::optional<std::string> ProfileRuntime::run(const std::vector<PluginInstance*>& plugins, const char* point,
                                               const kd_snapshot& cluster, uint64_t cycle, Hook&& hook) {
    if (plugins.empty()) return std::nullopt;
    nodes_ = select_nodes(cluster.nodes, cluster.node_count, profile_.nodeSelector);
    std::vector<std::string> errors;
    for (PluginInstance* p : plugins) {
        CallScope scope;
        scope.profile = this;
        scope.plugin = p;
        scope.snapshot = cluster;
        scope.snapshot.nodes = nodes_.data();
        scope.snapshot.node_count = nodes_.size();
        scope.call = kd_call{sizeof(kd_call),
                             &scope.snapshot,
                             kd_str{profile_.name.data(), profile_.name.size()},
                             kd_str{p->name().data(), p->name().size()},
                             cycle,
                             ctx_.dry_run,
                             &scope};
        auto start = std::chrono::steady_clock::now();
        HookStatus st = hook(*p, scope.call);
        if (ctx_.observer)
            ctx_.observer->on_plugin_call(
                profile_.name, p->name(), point,
                std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
        if (!st.ok) errors.push_back(p->name() + ": " + st.error);
    }
    if (errors.empty()) return std::nullopt;
    if (errors.size() == 1) return errors.front();
    std::string out = "[";
    for (size_t i = 0; i < errors.size(); ++i) out += (i ? ", " : "") + errors[i];
    return out + "]";
}

std::optional<std::string> ProfileRuntime::deschedule(const kd_snapshot& cluster, uint64_t cycle) {
    return run(deschedule_, "deschedule", cluster, cycle,
               [](PluginInstance& p, const kd_call& call) { return p.deschedule(call); });
}

std::optional<std::string> ProfileRuntime::balance(const kd_snapshot& cluster, uint64_t cycle) {
    return run(balance_, "balance", cluster, cycle,
               [](PluginInstance& p, const kd_call& call) { return p.balance(call); });
}

std::optional<std::string> ProfileRuntime::tick(const kd_snapshot& cluster, uint64_t cycle, int64_t& next_ms) {
    next_ms = 0;
    return run(tick_, "tick", cluster, cycle, [&](PluginInstance& p, const kd_call& call) {
        int64_t next = 0;
        HookStatus st = p.tick(call, next);
        if (next > 0 && (next_ms == 0 || next < next_ms)) next_ms = next;
        return st;
    });
}

}  // namespace kd::core
